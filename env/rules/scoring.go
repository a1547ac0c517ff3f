package rules

import "fmt"

// Final scoring (rulebook "Final Scoring"; reference-game-end-and-scoring.txt; More Containers
// "Scoring Luxuries"; CLARIFICATIONS.md "Final scoring").

// Score is one seat's final-scoring breakdown (the five steps of final scoring).
type Score struct {
	Cash              int    `json:"cash"`     // cash in hand
	Island            int    `json:"island"`   // value of the scoring area after the discard
	Leftover          int    `json:"leftover"` // ship and holding $3, harbor $2, factory $0
	Loans             int    `json:"loans"`    // minus $11 (or amount+1) per open loan
	Total             int    `json:"total"`
	Discarded         Colour `json:"discarded"` // colour discarded as most common (NumColours if none)
	DiscardedCount    int    `json:"discarded_count"`
	GoldAs            Colour `json:"gold_as"`     // colour gold counted as (NumColours if no gold)
	AllColours        bool   `json:"all_colours"` // two-value colour scored $10
	FactoryContainers int    `json:"factory_containers"`
	Rank              int    `json:"rank"` // 1 = winner (shared wins share rank 1)
	Winner            bool   `json:"winner"`
}

// NumScoringCards is the number of final scoring cards (all five are dealt from whatever the
// player count).
const NumScoringCards = 5

// scoringCardRows lists each card's colours from the top row down: $10, the two-value colour
// ($10 or $5), $6, $4, $2.
var scoringCardRows = [NumScoringCards][NumNormalColours]Colour{
	{White, Green, Red, Blue, Yellow},
	{Blue, Yellow, White, Green, Red},
	{Green, Red, Blue, Yellow, White},
	{Red, Blue, Yellow, White, Green},
	{Yellow, White, Green, Red, Blue},
}

// rowValues are the values of the rows of a scoring card; the second row is the two-value
// colour, worth $10 only when every colour was collected, otherwise TwoValueLow.
var rowValues = [NumNormalColours]int{10, 10, 6, 4, 2}

// TwoValueLow is what a two-value container is worth when the scoring area lacks a colour.
const TwoValueLow = 5

// Leftover values per container (final scoring step 3).
const (
	LeftoverShipValue    = 3 // on the ship or in the Bank holding area
	LeftoverHarborValue  = 2
	LeftoverFactoryValue = 0
)

// ScoringCardValues returns the value of each normal colour on scoring card card (the
// two-value colour at its full $10) and the card's two-value colour. It returns ok false for
// a card outside 0..NumScoringCards-1 (for instance Unknown in a redacted view).
func ScoringCardValues(card int) (values [NumNormalColours]int, twoValue Colour, ok bool) {
	if card < 0 || card >= NumScoringCards {
		return values, NumColours, false
	}
	for row, c := range scoringCardRows[card] {
		values[c] = rowValues[row]
	}
	return values, scoringCardRows[card][1], true
}

// IslandScore is the scoring of one Container Island scoring area (final scoring steps 1-2).
type IslandScore struct {
	Value          int    // cash the remaining containers are worth
	Discarded      Colour // colour discarded as most common; NumColours when the area is empty
	DiscardedCount int    // containers discarded, golds counted as the discarded colour included
	GoldAs         Colour // normal colour the golds counted as; NumColours when there is no gold
	AllColours     bool   // every normal colour was present (the two-value colour scores $10)
}

// ScoreIsland scores a scoring area with scoring card card. With luxury, gold containers
// count as one normal colour, chosen to maximise the value; without it gold is ignored. Ties
// for the most common colour are broken as the player would: the two-value colour is
// discarded when it is among them (the rule), otherwise the tied colour worth least.
func ScoreIsland(card int, island Counts, luxury bool) (value int, discarded Colour, goldAs Colour, allColours bool) {
	r := ScoreIslandDetail(card, island, luxury)
	return r.Value, r.Discarded, r.GoldAs, r.AllColours
}

// ScoreIslandDetail is ScoreIsland with the number of discarded containers. A card outside
// 0..NumScoringCards-1 values every container at $0 (the discard is still computed).
func ScoreIslandDetail(card int, island Counts, luxury bool) IslandScore {
	gold := int(island[Gold])
	if !luxury || gold == 0 {
		return scoreIslandAs(card, island, NumColours)
	}
	best := IslandScore{Value: -1}
	for c := Colour(0); c < NumNormalColours; c++ {
		r := scoreIslandAs(card, island, c)
		if r.Value > best.Value {
			best = r
		}
	}
	return best
}

// scoreIslandAs scores island with the golds counted as goldAs (NumColours: golds ignored).
func scoreIslandAs(card int, island Counts, goldAs Colour) IslandScore {
	values, twoValue, _ := ScoringCardValues(card)
	var n [NumNormalColours]int
	for c := 0; c < NumNormalColours; c++ {
		n[c] = int(island[c])
	}
	if goldAs < NumNormalColours {
		n[goldAs] += int(island[Gold])
	}
	res := IslandScore{Discarded: NumColours, GoldAs: NumColours, AllColours: true}
	if goldAs < NumNormalColours {
		res.GoldAs = goldAs
	}
	most := 0
	for c := 0; c < NumNormalColours; c++ {
		if n[c] == 0 {
			res.AllColours = false
		}
		most = max(most, n[c])
	}
	if most == 0 {
		return res
	}
	if twoValue < NumNormalColours && n[twoValue] == most {
		res.Discarded = twoValue
	} else {
		for c := Colour(0); c < NumNormalColours; c++ {
			if n[c] == most && (res.Discarded == NumColours || values[c] < values[res.Discarded]) {
				res.Discarded = c
			}
		}
	}
	res.DiscardedCount = n[res.Discarded]
	for c := Colour(0); c < NumNormalColours; c++ {
		if c == res.Discarded {
			continue
		}
		v := values[c]
		if c == twoValue && !res.AllColours {
			v = TwoValueLow
		}
		res.Value += n[c] * v
	}
	return res
}

// luxuryOn reports whether gold scoring applies: the Luxury module, or (for a State without
// a Game, such as a hand-built one) any gold on an island.
func (s *State) luxuryOn() bool {
	if s.game != nil {
		return s.game.opts.Modules.Has(Luxury)
	}
	for i := range s.Players {
		if s.Players[i].Island[Gold] > 0 {
			return true
		}
	}
	return false
}

// numPlayers is the number of seats in use.
func (s *State) numPlayers() int {
	if s.game != nil && s.game.opts.Players >= 3 {
		return s.game.opts.Players
	}
	n := 0
	for i := range s.Players {
		p := &s.Players[i]
		if p.Factories != 0 || p.Warehouses != 0 {
			n = i + 1
		}
	}
	return n
}

// loanCost is what an open loan costs at final scoring: its amount plus $1 interest.
func loanCost(l Loan) int {
	a := int(l.Amount)
	if a == 0 {
		a = LoanAmount
	}
	return a + 1
}

// resolveAuctionsForScoring applies the end-of-game resolution of open Bank auctions to a
// copy of the players: each high bidder pays the bid (it leaves the game's accounting for
// scoring purposes: cash on a tile is not in hand, containers on a tile go to the Bank) and
// collects the lot (containers to the holding area, cash to hand, a Truck Company's pile to
// hand).
func (s *State) resolveAuctionsForScoring(players *[MaxPlayers]Player) {
	for k := range s.Auctions {
		a := &s.Auctions[k]
		if !a.Active || a.Bidder < 0 || int(a.Bidder) >= MaxPlayers {
			continue
		}
		if a.Cash == 0 && a.FromFactory.Total()+a.FromHarbor.Total() == 0 {
			continue // a bid still being made: nothing on the tile yet
		}
		p := &players[a.Bidder]
		switch AuctionKind(k) {
		case ContainerLotAuction:
			if a.Target >= 0 && int(a.Target) < BankLots {
				p.Holding.Add(&s.Bank.ContainerLots[a.Target])
			}
		case CashLotAuction:
			if a.Target >= 0 && int(a.Target) < BankLots {
				p.Cash += s.Bank.CashLots[a.Target]
			}
		case TruckAuction:
			if a.Target >= 0 && int(a.Target) < MaxPlayers {
				p.Cash += s.Companies[a.Target].Pile
			}
		}
	}
}

// Scores returns every seat's final-scoring breakdown as if the game ended now: open Bank
// auctions are first resolved (on a copy; an auction whose opening bid is still being made
// is dropped), containers a pending decision holds for a district (being placed, or an
// outbid player's returned bid) count in that district, then each seat discards its most common island
// colour, scores its island with its card, scores leftovers ($3 ship and holding area, $2
// harbor, $0 factory), and repays its loans: a player loan costs its amount plus $1, paid
// from the borrower's total so far (never below $0), and its lender collects the full sum,
// any shortfall from the supply; then $11 per open Bank loan. The winner has the highest total; ties go to the most
// containers in the factory district; still tied, the win is shared (every tied seat has
// rank 1 and Winner set).
func (s *State) Scores() []Score { return s.ScoresInto(nil) }

// ScoresInto is Scores written into dst's storage (reused when it has room for every seat),
// so that search can score positions without allocating.
func (s *State) ScoresInto(dst []Score) []Score {
	n := s.numPlayers()
	players := s.Players
	s.resolveAuctionsForScoring(&players)
	var extraFactory, extraHarbor [MaxPlayers]int
	s.machineDistrictContainers(func(seat int, d District, c *Counts) {
		if seat < 0 || seat >= MaxPlayers {
			return
		}
		if d == FactoryDistrict {
			extraFactory[seat] += c.Total()
		} else {
			extraHarbor[seat] += c.Total()
		}
	})
	lux := s.luxuryOn()
	out := dst[:0]
	if cap(out) < n {
		out = make([]Score, n)
	}
	out = out[:n]
	clear(out)
	for i := 0; i < n; i++ {
		p := &players[i]
		sc := &out[i]
		sc.Cash = int(p.Cash)
		is := ScoreIslandDetail(int(p.Card), p.Island, lux)
		sc.Island = is.Value
		sc.Discarded, sc.DiscardedCount, sc.GoldAs, sc.AllColours = is.Discarded, is.DiscardedCount, is.GoldAs, is.AllColours
		factory, harbor := extraFactory[i], extraHarbor[i]
		for _, lot := range p.FactoryLots {
			factory += lot.Total()
		}
		for _, lot := range p.HarborLots {
			harbor += lot.Total()
		}
		sc.FactoryContainers = factory
		sc.Leftover = LeftoverShipValue*(p.Ship.Total()+p.Holding.Total()) +
			LeftoverHarborValue*harbor + LeftoverFactoryValue*factory
		// Step 4, repay loans: player loans first (as in a default, More, Defaulting on
		// Multiple Loans), each from what the borrower has scored so far; the lender
		// collects any shortfall from the supply (More, Interest and Repayment). Then $11
		// per Bank loan, which may take the total below zero.
		have := sc.Cash + sc.Island + sc.Leftover
		for l := 0; l < int(p.NumLoans) && l < MaxLoans; l++ {
			if loan := p.Loans[l]; loan.Lender >= 0 && int(loan.Lender) < n {
				paid := min(loanCost(loan), max(have, 0))
				have -= paid
				sc.Loans -= paid
				out[loan.Lender].Loans += loanCost(loan)
			}
		}
		for l := 0; l < int(p.NumLoans) && l < MaxLoans; l++ {
			if loan := p.Loans[l]; loan.Lender < 0 || int(loan.Lender) >= n {
				sc.Loans -= loanCost(loan)
			}
		}
	}
	for i := range out {
		out[i].Total = out[i].Cash + out[i].Island + out[i].Leftover + out[i].Loans
	}
	rankScores(out)
	return out
}

// rankScores sets Rank and Winner: rank 1 + the number of seats strictly ahead (higher total,
// or equal total and more factory containers).
func rankScores(out []Score) {
	for i := range out {
		ahead := 0
		for j := range out {
			if out[j].Total > out[i].Total ||
				(out[j].Total == out[i].Total && out[j].FactoryContainers > out[i].FactoryContainers) {
				ahead++
			}
		}
		out[i].Rank = ahead + 1
		out[i].Winner = ahead == 0
	}
}

// String writes one seat's breakdown on one line.
func (sc Score) String() string {
	s := fmt.Sprintf("cash %s + island %s + leftover %s + loans %s = %s", money(sc.Cash), money(sc.Island), money(sc.Leftover), money(sc.Loans), money(sc.Total))
	if sc.Discarded < NumColours {
		s += fmt.Sprintf(" (discarded %d %s", sc.DiscardedCount, sc.Discarded)
		if sc.GoldAs < NumColours {
			s += fmt.Sprintf(", gold as %s", sc.GoldAs)
		}
		if sc.AllColours {
			s += ", all colours"
		}
		s += ")"
	}
	s += fmt.Sprintf(" rank %d", sc.Rank)
	if sc.Winner {
		s += " WINNER"
	}
	return s
}

// money writes an amount as $5 or -$11.
func money(v int) string {
	if v < 0 {
		return fmt.Sprintf("-$%d", -v)
	}
	return fmt.Sprintf("$%d", v)
}
