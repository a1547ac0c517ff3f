package rules

import (
	"errors"
	"testing"
)

// Tests of the Player Loans module during a delivery auction (More Containers, Player Loans;
// CLARIFICATIONS, "More Containers rulings": cash committed to an unresolved delivery bid is
// not in hand) at the edges of playerloans.go (the mutation records in docs/results/ name the bug each
// one catches).

// A bidder whose revealed bid plus runoff addition leaves it under $10 in hand is not asked
// to lend: seats 1 and 2 tie at $5, seat 1 adds $6 in the runoff and wins with $11 of its
// $20, so when the deliverer asks for a loan only seat 2 ($15 in hand) is asked.
func TestABidderWhoseBidAndRunoffLeaveUnderTenIsNotAskedToLend(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	s.Players[0].Ship = Counts{Red: 1}
	play(t, s, "sail:island", "$5", "$5")
	wantPhase(t, s, PhaseRunoffBid, 1)
	play(t, s, "$6", "$0")
	wantPhase(t, s, PhaseDeliveryAccept, 0)
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 2)
	if f := s.freeCash(1); f != 9 {
		t.Fatalf("seat 1 has $%d in hand, want $20 - $5 - $6 = $9", f)
	}
}

// loanAcceptDuringDelivery: 3 players; seat 1 wins seat 0's delivery auction with $5 of its
// $20, seat 0 asks for a loan, seat 1 offers and seat 2 declines, so seat 0 is to accept
// seat 1's offer.
func loanAcceptDuringDelivery(t *testing.T) *State {
	t.Helper()
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	s.Players[0].Ship = Counts{Red: 1}
	play(t, s, "sail:island", "$5", "$0", "loan", "yes", "no")
	wantPhase(t, s, PhaseLoanAccept, 0)
	if s.machine.Lender != 1 {
		t.Fatalf("lender %d", s.machine.Lender)
	}
	if err := s.validateMachine(); err != nil {
		t.Fatalf("a position reached by play is refused: %v", err)
	}
	return s
}

// The position check refuses a loan offer that the rules forbid while the borrower is still
// to accept it (docs/POSITION.md; More Containers, Player Loans): from a seat whose delivery
// bid leaves it under $10 in hand, or from a seat without a loan card.
func TestPositionCheckRefusesAnOfferTheLenderCouldNotMake(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(s *State)
	}{
		{"bid leaves $9 in hand", func(s *State) { s.machine.Bids[1] = 11 }},
		{"no loan card", func(s *State) { s.Players[1].LoanCards = 0 }},
	} {
		s := loanAcceptDuringDelivery(t)
		tc.tamper(s)
		if err := s.validateMachine(); !errors.Is(err, ErrBadPosition) {
			t.Errorf("%s: validateMachine = %v, want a bad-position error", tc.name, err)
		}
	}
}
