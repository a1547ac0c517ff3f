package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Validate is what stands between a hand-written position (docs/POSITION.md, "What Validate
// rejects") and the engine: each check must refuse the first value past a limit with one
// line naming the problem, and accept the last legal value. The tests below start from a
// fresh game (which validates), change one field of the State, and check the verdict. A
// seat, lot or company index one past the end must be refused, not indexed: in a 5-player
// game that index is outside the [MaxPlayers] arrays and would panic.

// validateCase is one edit of a fresh game's State and the verdict Validate must give:
// want "" means accepted, otherwise the error must wrap ErrBadPosition and contain want.
type validateCase struct {
	name string
	opts Options
	edit func(s *State)
	want string
}

// runValidateCases applies each case to a fresh game of its options and checks Validate.
func runValidateCases(t *testing.T, cases []validateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewGame(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			s := g.NewInitialStateSeed(3)
			if err := s.Validate(); err != nil {
				t.Fatalf("fresh game refused: %v", err)
			}
			tc.edit(s)
			err = func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("Validate panicked: %v", r)
					}
				}()
				return s.Validate()
			}()
			checkPositionVerdict(t, err, tc.want)
		})
	}
}

// checkPositionVerdict checks a position check's verdict: want "" means accepted, otherwise
// err must wrap ErrBadPosition, contain want and be one line.
func checkPositionVerdict(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("refused: %v", err)
	case want != "" && (!errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), want)):
		t.Errorf("error %v; want ErrBadPosition naming %q", err, want)
	case err != nil && strings.Contains(err.Error(), "\n"):
		t.Errorf("error is not one line: %q", err)
	}
}

// fromSupply moves k containers of colour c from the supply onto dst (containers are
// conserved, so the edit changes nothing else).
func fromSupply(s *State, c Colour, k int, dst *Counts) {
	s.Supply[c] -= uint8(k)
	dst[c] += uint8(k)
}

// openAuction opens a Bank auction of kind k on target by bidder with a minimal legal bid:
// $1 in cash (container lot, truck) taken from the bidder's hand, or one white container
// from the supply counted against the bidder's factory district (cash lot). A container
// lot auctioned must hold a container, so target lot gets one yellow when it is a lot.
func openAuction(s *State, k AuctionKind, target, bidder int) {
	a := Auction{Active: true, Target: int8(target), Bidder: int8(bidder)}
	switch k {
	case ContainerLotAuction:
		if target >= 0 && target < BankLots && s.Bank.ContainerLots[target].Total() == 0 {
			fromSupply(s, Yellow, 1, &s.Bank.ContainerLots[target])
		}
		a.Cash = 1
	case CashLotAuction:
		fromSupply(s, White, 1, &a.FromFactory)
	case TruckAuction:
		a.Cash = 1
	}
	if bidder >= 0 && bidder < s.n() && a.Cash > 0 {
		s.Players[bidder].Cash -= a.Cash
	}
	s.Auctions[k] = a
}

// TestValidateBankAuctionIndexesAtTheEdges: an auction's bidder is a seat of the game, a
// Bank-lot auction's target is lot 0..2 and a truck auction's target is a seat's company
// that nobody owns (docs/RULES.md, Off-Shore Bank and Truck Companies); the last legal
// index is accepted and the first one past it refused with its own message.
func TestValidateBankAuctionIndexesAtTheEdges(t *testing.T) {
	var cases []validateCase
	for _, n := range []int{3, MaxPlayers} {
		base := Options{Players: n}
		trucks := Options{Players: n, Modules: Trucks}
		cases = append(cases,
			validateCase{fmt.Sprintf("%dp bidder %d", n, n-1), base, func(s *State) { openAuction(s, ContainerLotAuction, 0, n-1) }, ""},
			validateCase{fmt.Sprintf("%dp bidder %d", n, n), base, func(s *State) { openAuction(s, ContainerLotAuction, 0, n) },
				fmt.Sprintf("bidder %d is not a seat", n)},
			validateCase{fmt.Sprintf("%dp container lot 2", n), base, func(s *State) { openAuction(s, ContainerLotAuction, BankLots-1, 0) }, ""},
			validateCase{fmt.Sprintf("%dp container lot 3", n), base, func(s *State) { openAuction(s, ContainerLotAuction, BankLots, 0) },
				"container-lot auction: lot 3 is not 0..2"},
			validateCase{fmt.Sprintf("%dp cash lot 2", n), base, func(s *State) { openAuction(s, CashLotAuction, BankLots-1, 0) }, ""},
			validateCase{fmt.Sprintf("%dp cash lot 3", n), base, func(s *State) { openAuction(s, CashLotAuction, BankLots, 0) },
				"cash-lot auction: lot 3 is not 0..2"},
			validateCase{fmt.Sprintf("%dp truck company %d", n, n-1), trucks, func(s *State) { openAuction(s, TruckAuction, n-1, 0) }, ""},
			validateCase{fmt.Sprintf("%dp truck company %d", n, n), trucks, func(s *State) { openAuction(s, TruckAuction, n, 0) },
				fmt.Sprintf("truck auction: company %d is not a seat", n)},
		)
	}
	// Seat 0's company is as owned as any other: it cannot be auctioned.
	cases = append(cases, validateCase{"truck auction on seat 0's own company", Options{Players: 3, Modules: Trucks}, func(s *State) {
		s.Companies[0].Owner = 0
		s.Players[0].Trucks = 1
		openAuction(s, TruckAuction, 0, 1)
	}, "truck auction on company 0, which is owned"})
	runValidateCases(t, cases)
}

// TestValidateTruckCompaniesOfMissingSeatsAndOwners: with fewer than 5 players the missing
// seats' companies are absent (unset or independent with no fees); a company's owner is a
// seat of the game; without the Truck Companies module nobody, seat 0 included, owns one.
func TestValidateTruckCompaniesOfMissingSeatsAndOwners(t *testing.T) {
	trucks3 := Options{Players: 3, Modules: Trucks}
	cases := []validateCase{
		{"missing seat's company left unset", Options{Players: 3}, func(s *State) { s.Companies[3] = Company{} }, ""},
		{"missing seat's company independent", trucks3, func(s *State) { s.Companies[4] = Company{Owner: -1} }, ""},
		{"missing seat's company with fees", trucks3, func(s *State) { s.Companies[3] = Company{Owner: -1, Pile: 2} },
			"company 3 exists only with 4+ players"},
		{"missing seat's company owned", trucks3, func(s *State) { s.Companies[3] = Company{Owner: 1} },
			"company 3 exists only with 4+ players"},
		{"owner is the last seat", trucks3, func(s *State) { s.Companies[0].Owner = 2; s.Players[2].Trucks = 1 }, ""},
		{"owner past the last seat", trucks3, func(s *State) { s.Companies[0].Owner = 3 }, "company 0: owner 3 is not a seat"},
		{"5p owner past the last seat", Options{Players: 5, Modules: Trucks}, func(s *State) { s.Companies[1].Owner = 5 },
			"company 1: owner 5 is not a seat"},
		{"seat 0 owns a company without the module", Options{Players: 3}, func(s *State) {
			s.Companies[1].Owner = 0
			s.Players[0].Trucks = 1
		}, "company 1 is owned or has fees without the trucks module"},
	}
	runValidateCases(t, cases)
}

// TestValidatePlayerBoardLimits: a seat's scoring card is one of the five, its districts
// hold at most 2 containers per factory and 1 per warehouse counting the containers it has
// on a bid tile (reserve tokens), its ship docks at another seat's harbor, and loan slots
// past num_loans are empty; player loans come from an opponent's seat.
func TestValidatePlayerBoardLimits(t *testing.T) {
	base3 := Options{Players: 3}
	loans3 := Options{Players: 3, Modules: PlayerLoans}
	// cashLotFromHarbor opens a cash-lot auction by seat 0 bid with one harbor container.
	cashLotFromHarbor := func(s *State) {
		a := Auction{Active: true, Target: 0}
		fromSupply(s, Blue, 1, &a.FromHarbor)
		s.Auctions[CashLotAuction] = a
	}
	// secondFactory builds seat 0 a second factory from the factory supply.
	secondFactory := func(s *State) {
		p := &s.Players[0]
		c := White
		for p.Factories&(1<<c) != 0 || s.FactorySupply[c] == 0 {
			c++
		}
		p.Factories |= 1 << c
		s.FactorySupply[c]--
	}
	playerLoan := func(lender int) func(s *State) {
		return func(s *State) {
			p := &s.Players[0]
			p.NumLoans = 1
			p.Loans[0] = Loan{Lender: int8(lender), Amount: LoanAmount}
			p.Cash += LoanAmount
			if lender < s.n() {
				s.Players[lender].Cash -= LoanAmount
				s.Players[lender].LoanCards--
			}
		}
	}
	cases := []validateCase{
		{"last scoring card", base3, func(s *State) {
			for i := 0; i < 3; i++ {
				s.Players[i].Card = uint8(NumScoringCards - 1 - i)
			}
		}, ""},
		{"scoring card past the last", base3, func(s *State) { s.Players[1].Card = NumScoringCards },
			"player 1: scoring card 5 is outside 0..4"},
		// Two factories allow 4 containers (one is already in the $2 lot); the message
		// states that limit.
		{"two factories full", base3, func(s *State) { secondFactory(s); fromSupply(s, Red, 3, &s.Players[0].FactoryLots[0]) }, ""},
		{"two factories over full", base3, func(s *State) { secondFactory(s); fromSupply(s, Red, 4, &s.Players[0].FactoryLots[0]) },
			"factory district holds 5 containers + 0 reserve tokens; the limit with 2 factories is 4"},
		{"harbor full with a reserve token", base3, cashLotFromHarbor, ""},
		{"harbor over full with a reserve token", base3, func(s *State) {
			fromSupply(s, Green, 1, &s.Players[0].HarborLots[0])
			cashLotFromHarbor(s)
		}, "harbor district holds 1 containers + 1 reserve tokens; the limit with 1 warehouses is 1"},
		{"ship at the last seat's harbor", base3, func(s *State) { s.Players[0].ShipAt = ShipPos{Where: AtHarbor, Seat: 2} }, ""},
		{"ship at the harbor past the last seat", base3, func(s *State) { s.Players[0].ShipAt = ShipPos{Where: AtHarbor, Seat: 3} },
			"player 0: ship at harbor 3, which is not a seat"},
		{"unused loan slots zero", base3, func(s *State) { s.Players[0].Loans = [MaxLoans]Loan{} }, ""},
		{"unused loan slot holds a Bank loan", base3, func(s *State) { s.Players[0].Loans[1] = Loan{Lender: -1, Amount: LoanAmount} },
			"player 0: loan slot 1 is filled but num_loans is 0"},
		{"loan from the last seat", loans3, playerLoan(2), ""},
		{"loan from past the last seat", loans3, playerLoan(3), "player 0: loan from 3, which is not an opponent's seat"},
		{"5p loan from past the last seat", Options{Players: 5, Modules: PlayerLoans}, playerLoan(5),
			"player 0: loan from 5, which is not an opponent's seat"},
	}
	runValidateCases(t, cases)
}

// TestValidateModulePiecesMatchTheBoard: trucks placed equal companies owned and player-loan
// cards in hand plus those lent out are three, for every seat (the last one included).
func TestValidateModulePiecesMatchTheBoard(t *testing.T) {
	runValidateCases(t, []validateCase{
		{"truck placed without a company", Options{Players: 3, Modules: Trucks}, func(s *State) { s.Players[2].Trucks = 1 },
			"player 2: 1 trucks placed but owns 0 companies"},
		{"loan card missing", Options{Players: 3, Modules: PlayerLoans}, func(s *State) { s.Players[2].LoanCards = 2 },
			"player 2: 2 loan cards in hand + 0 lent out"},
	})
}

// TestValidateBankBoardLots: Classic has no Bank board, so every Bank lot is empty, the last
// one included; a Bank cash lot is never negative.
func TestValidateBankBoardLots(t *testing.T) {
	runValidateCases(t, []validateCase{
		{"classic cash on the last Bank lot", Options{Players: 3, Variant: Classic}, func(s *State) {
			s.Bank.CashLots[BankLots-1] = 2
			s.Players[0].Cash -= 2
		}, "the Classic variant has no Bank board, but Bank lot 2 is not empty"},
		{"negative last cash lot", Options{Players: 3}, func(s *State) {
			s.Bank.CashLots[0] += s.Bank.CashLots[BankLots-1] + 1
			s.Bank.CashLots[BankLots-1] = -1
		}, "Bank cash lot 2 is negative"},
	})
}

// TestValidateFactoriesAreConserved: factories built plus the factory supply make the
// game's count in each colour.
func TestValidateFactoriesAreConserved(t *testing.T) {
	runValidateCases(t, []validateCase{
		{"factory taken from nowhere", Options{Players: 3}, func(s *State) {
			c := White
			for s.FactorySupply[c] == 0 {
				c++
			}
			s.FactorySupply[c]--
		}, "factories built"},
	})
}

// TestValidateFirstPlayerIsASeat: the first player is seat 0..n-1.
func TestValidateFirstPlayerIsASeat(t *testing.T) {
	runValidateCases(t, []validateCase{
		{"last seat", Options{Players: 3}, func(s *State) { s.FirstPlayer = 2 }, ""},
		{"past the last seat", Options{Players: 3}, func(s *State) { s.FirstPlayer = 3 }, "first player 3 is not a seat"},
	})
}
