package rules

import (
	"fmt"
	"testing"
)

// Scoring behaviours pinned for the mutation survivors of scoring.go: the edges of
// the scoring cards, the automatic choices a breakdown records, open auctions won at game end
// by seat 0 or for lot I, loans repaid from the island's value, storage reuse, and states
// whose seat, lot or loan numbers are out of range (scored without a panic).

// scoresNoPanic returns s.Scores(), failing the test (not crashing the binary) on a panic.
func scoresNoPanic(t *testing.T, s *State) (got []Score) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Scores panicked: %v", r)
		}
	}()
	return s.Scores()
}

// TestScoringCardsEndAtTheFifth: there are five scoring cards (rulebook "Final Scoring"),
// numbered 0..4; a number past them (a corrupt or hidden card) is refused and values every
// container at $0, while the most common colour is still discarded.
func TestScoringCardsEndAtTheFifth(t *testing.T) {
	for _, card := range []int{-1, NumScoringCards, NumScoringCards + 1, Unknown} {
		if _, two, ok := ScoringCardValues(card); ok || two != NumColours {
			t.Errorf("card %d: ok %v two-value %s, want refused", card, ok, two)
		}
		r := ScoreIslandDetail(card, mustCounts(t, "wwgr"), false)
		if r.Value != 0 || r.Discarded != White || r.DiscardedCount != 2 {
			t.Errorf("card %d: scored %+v, want $0 with the two whites discarded", card, r)
		}
	}
	if _, _, ok := ScoringCardValues(NumScoringCards - 1); !ok {
		t.Error("the fifth card (4) refused")
	}
}

// TestUnknownCardDiscardsTheFirstTiedColour: with a hidden card (a redacted view) every
// colour is worth $0, so a tie for the most common colour is broken by colour order (white,
// green, red, blue, yellow): the breakdown names the first tied colour, the same every time
// (CLARIFICATIONS "Final scoring": the choice is recorded in the breakdown).
func TestUnknownCardDiscardsTheFirstTiedColour(t *testing.T) {
	for _, c := range []struct {
		island string
		want   Colour
	}{
		{"rrww", White},
		{"ggrrbb", Green},
		{"bbyyw", Blue},
	} {
		r := ScoreIslandDetail(Unknown, mustCounts(t, c.island), false)
		if r.Discarded != c.want || r.DiscardedCount != 2 || r.Value != 0 {
			t.Errorf("island %s with a hidden card: %+v, want 2 %s discarded, $0", c.island, r, c.want)
		}
	}
}

// TestLuxuryGoldAsRecordsTheFirstBestColour: when several colours for the gold give the
// same best value, the breakdown records the first of them in colour order (More Containers
// "Scoring Luxuries"; CLARIFICATIONS "Final scoring": choices maximise the total and are
// recorded). Card 0 (white $10, two-value green, red $6, blue $4, yellow $2), one white and one
// gold: gold as white discards both ($0); as green, red, blue or yellow it ties the white and
// is discarded itself (green as the two-value colour, the others as the cheaper one), leaving
// the white's $10. Green is the first of those four.
func TestLuxuryGoldAsRecordsTheFirstBestColour(t *testing.T) {
	r := ScoreIslandDetail(0, mustCounts(t, "wo"), true)
	if r.Value != 10 || r.GoldAs != Green || r.Discarded != Green || r.DiscardedCount != 1 {
		t.Errorf("got %+v, want $10 with the gold as green, discarded", r)
	}
	// Only golds: every colour scores $0, and white is the first.
	r = ScoreIslandDetail(3, mustCounts(t, "oo"), true)
	if r.Value != 0 || r.GoldAs != White || r.Discarded != White || r.DiscardedCount != 2 {
		t.Errorf("only golds: got %+v, want gold as white, both discarded", r)
	}
}

// TestHandBuiltStateWithGoldOnEveryIslandScoresTheGold: a State without a Game (built by hand)
// scores gold as soon as any island holds one, also when all five seats hold gold.
func TestHandBuiltStateWithGoldOnEveryIslandScoresTheGold(t *testing.T) {
	var players []Player
	for i := 0; i < MaxPlayers; i++ {
		players = append(players, Player{Card: 0, Island: mustCounts(t, "wo")})
	}
	got := scoresNoPanic(t, scoringState(players...))
	if len(got) != MaxPlayers {
		t.Fatalf("got %d scores, want %d", len(got), MaxPlayers)
	}
	for i, sc := range got {
		if sc.Island != 10 || sc.GoldAs != Green {
			t.Errorf("seat %d: %s, want island $10 with the gold as green", i, sc)
		}
	}
}

// TestOpenAuctionsOfSeatZeroAndLotOneAreWonAtGameEnd: open Bank auctions are won as usual at
// game end (CLARIFICATIONS "Bank auctions": bid paid, lot taken), also when the bidder is
// seat 0, the lot is lot I (index 0), or the Truck Company is seat 0's.
func TestOpenAuctionsOfSeatZeroAndLotOneAreWonAtGameEnd(t *testing.T) {
	t.Run("container lot I to seat 0", func(t *testing.T) {
		s := scoringState(Player{Cash: 4}, Player{}, Player{})
		s.Bank.ContainerLots[0] = mustCounts(t, "wwg")
		s.Auctions[ContainerLotAuction] = Auction{Active: true, Target: 0, Bidder: 0, Cash: 2}
		sc := scoresNoPanic(t, s)[0]
		if sc.Cash != 4 || sc.Leftover != 3*LeftoverShipValue {
			t.Errorf("seat 0: %s, want cash $4 and three containers in the holding area ($9)", sc)
		}
	})
	t.Run("cash lot I to seat 0", func(t *testing.T) {
		s := scoringState(Player{Cash: 4}, Player{}, Player{})
		s.Bank.CashLots = [BankLots]int32{5, 2, 3}
		s.Auctions[CashLotAuction] = Auction{Active: true, Target: 0, Bidder: 0, FromHarbor: mustCounts(t, "r")}
		sc := scoresNoPanic(t, s)[0]
		if sc.Cash != 9 || sc.Leftover != 0 {
			t.Errorf("seat 0: %s, want cash $9 (lot I's $5 added), no leftover (the red is paid)", sc)
		}
	})
	t.Run("seat 0's truck company to seat 1", func(t *testing.T) {
		s := scoringState(Player{}, Player{Cash: 1}, Player{})
		s.Companies[0].Pile = 7
		s.Companies[1].Pile = 100
		s.Auctions[TruckAuction] = Auction{Active: true, Target: 0, Bidder: 1, Cash: 3}
		got := scoresNoPanic(t, s)
		if got[1].Cash != 8 || got[0].Cash != 0 {
			t.Errorf("seat 1: %s, seat 0: %s; want seat 1 to collect seat 0's pile of $7", got[1], got[0])
		}
	})
	t.Run("seat 2's truck company to seat 0", func(t *testing.T) {
		s := scoringState(Player{Cash: 1}, Player{}, Player{})
		s.Companies[2].Pile = 6
		s.Auctions[TruckAuction] = Auction{Active: true, Target: 2, Bidder: 0, Cash: 3}
		if sc := scoresNoPanic(t, s)[0]; sc.Cash != 7 {
			t.Errorf("seat 0: %s, want cash $7 (the pile of $6 added)", sc)
		}
	})
}

// TestScoresSkipAnOpenAuctionOutOfRange: an open auction whose bidder, lot or company is not
// on the board (a corrupt hand-built state) is left out of the scores instead of crashing.
func TestScoresSkipAnOpenAuctionOutOfRange(t *testing.T) {
	for _, c := range []struct {
		kind   AuctionKind
		a      Auction
		reason string
	}{
		{ContainerLotAuction, Auction{Active: true, Target: 0, Bidder: MaxPlayers, Cash: 2}, "bidder 5"},
		{ContainerLotAuction, Auction{Active: true, Target: BankLots, Bidder: 1, Cash: 2}, "lot 3"},
		{CashLotAuction, Auction{Active: true, Target: BankLots, Bidder: 1, FromHarbor: Counts{1}}, "lot 3"},
		{TruckAuction, Auction{Active: true, Target: MaxPlayers, Bidder: 1, Cash: 2}, "company 5"},
	} {
		t.Run(fmt.Sprintf("%s %s", c.kind, c.reason), func(t *testing.T) {
			s := scoringState(Player{Cash: 1}, Player{Cash: 1}, Player{Cash: 1})
			s.Bank.ContainerLots = [BankLots]Counts{{1}, {1}, {1}}
			s.Bank.CashLots = [BankLots]int32{1, 2, 3}
			s.Auctions[c.kind] = c.a
			for i, sc := range scoresNoPanic(t, s) {
				if sc.Cash != 1 || sc.Leftover != 0 {
					t.Errorf("seat %d: %s, want only its own $1", i, sc)
				}
			}
		})
	}
}

// TestScoresIgnoreMachineContainersOfASeatOffTheBoard: containers the machine holds for a
// seat number past the last seat (a corrupt hand-built state) are not counted anywhere.
func TestScoresIgnoreMachineContainersOfASeatOffTheBoard(t *testing.T) {
	s := scoringState(Player{}, Player{}, Player{})
	s.machine.Returner = MaxPlayers
	s.machine.ReturnFactory = mustCounts(t, "ww")
	s.machine.ReturnHarbor = mustCounts(t, "g")
	for i, sc := range scoresNoPanic(t, s) {
		if sc.Leftover != 0 || sc.FactoryContainers != 0 {
			t.Errorf("seat %d: %s (factory %d), want nothing counted", i, sc, sc.FactoryContainers)
		}
	}
}

// TestScoresIntoReusesStorageWithRoomForEverySeat: a destination whose capacity is exactly
// the number of seats is reused, without allocating (search scores positions this way).
func TestScoresIntoReusesStorageWithRoomForEverySeat(t *testing.T) {
	s := scoringState(Player{Cash: 1}, Player{Cash: 2}, Player{Cash: 3})
	dst := make([]Score, 3)
	out := s.ScoresInto(dst)
	if len(out) != 3 || &out[0] != &dst[0] {
		t.Fatalf("ScoresInto with room for 3 seats did not reuse the storage (len %d)", len(out))
	}
	if out[2].Cash != 3 || out[2].Rank != 1 {
		t.Errorf("seat 2: %s, want cash $3, rank 1", out[2])
	}
	if allocs := testing.AllocsPerRun(50, func() { dst = s.ScoresInto(dst) }); allocs != 0 {
		t.Errorf("ScoresInto allocated %.0f times per call, want 0", allocs)
	}
}

// TestPlayerLoanIsRepaidFromIslandAndLeftoversToo: an open player loan is repaid from
// everything the borrower has scored so far, cash + island + leftovers (More Containers
// "Interest and Repayment"; the lender collects the full amount + $1).
func TestPlayerLoanIsRepaidFromIslandAndLeftoversToo(t *testing.T) {
	// Card 0: two whites are the most common and go; the red is worth $6. One container on
	// the ship: $3. Cash $2. So $11 is available for a loan costing $13 + $1.
	borrower := Player{Cash: 2, Card: 0, Island: mustCounts(t, "wwr"), Ship: mustCounts(t, "y"),
		NumLoans: 1, Loans: [MaxLoans]Loan{{Lender: 0, Amount: 13}, {Lender: -1}}}
	got := scoresNoPanic(t, scoringState(Player{}, borrower, Player{}))
	if got[1].Island != 6 || got[1].Leftover != 3 || got[1].Loans != -11 || got[1].Total != 0 {
		t.Errorf("borrower: %s, want island $6, leftover $3, loans -$11, total $0", got[1])
	}
	if got[0].Loans != 14 || got[0].Total != 14 {
		t.Errorf("lender: %s, want loans +$14", got[0])
	}
}

// TestScoresOfACorruptLoanRecord: a loan count past the two loan slots counts the two slots
// only, and a loan from a seat not in the game is charged like a Bank loan ($10 + $1), with
// no seat collecting it. Neither crashes.
func TestScoresOfACorruptLoanRecord(t *testing.T) {
	p := Player{Cash: 30, NumLoans: MaxLoans + 1, Loans: [MaxLoans]Loan{{Lender: -1, Amount: 10}, {Lender: -1, Amount: 10}}}
	if sc := scoresNoPanic(t, scoringState(p, Player{}, Player{}))[0]; sc.Loans != -22 || sc.Total != 8 {
		t.Errorf("3 loans recorded in 2 slots: %s, want loans -$22", sc)
	}
	// Three seats in use: seat 3 is not a lender.
	p = Player{Cash: 30, NumLoans: 1, Loans: [MaxLoans]Loan{{Lender: 3, Amount: 10}, {Lender: -1}}}
	got := scoresNoPanic(t, scoringState(p, Player{}, Player{}))
	if len(got) != 3 {
		t.Fatalf("got %d scores, want 3", len(got))
	}
	if got[0].Loans != -11 || got[0].Total != 19 {
		t.Errorf("loan from seat 3 of 3: %s, want loans -$11", got[0])
	}
	for i := 1; i < 3; i++ {
		if got[i].Loans != 0 {
			t.Errorf("seat %d collected %d for a loan it did not make", i, got[i].Loans)
		}
	}
}
