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

// More Containers, Player Loans, Requesting a Loan and Accepting a Player Loan (an opponent
// without $10 in hand cannot offer), read with CLARIFICATIONS "Hidden information" (a sealed
// bid stays hidden until the reveal): who is asked to lend must not depend on a sealed
// delivery bid the borrower has not seen. Seat 2 bids $15 of its $20 in secret; when seat 3
// then asks for a loan, seat 2 is still asked (its cash shows $20) and may only decline, as
// a seat that will not lend would; only then does seat 3 get its Bank loan. A seat whose
// bid left it $10 free is asked as well and may offer.
func TestMoreContainersSeatWhoseSealedBidLeavesUnder10IsAskedAndMayOnlyDecline(t *testing.T) {
	for _, bid := range []string{"$15", "$10"} {
		s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
		s.Players[0].Ship = Counts{Red: 1}
		s.Players[0].Cash = 5 // seat 0 cannot lend: not asked
		play(t, s, "sail:island", "$0", bid)
		wantPhase(t, s, PhaseDeliveryBid, 3)
		play(t, s, "loan")
		wantPhase(t, s, PhaseLoanOffer, 1)
		play(t, s, "no")
		wantPhase(t, s, PhaseLoanOffer, 2) // asked, whatever its sealed bid
		if got := legal(t, s, "yes"); got != (bid == "$10") {
			t.Fatalf("bid %s: offer legal %v; a seat with $%d left in hand must %s", bid, got,
				20-map[string]int{"$15": 15, "$10": 10}[bid], map[bool]string{false: "only decline", true: "be able to offer"}[bid == "$10"])
		}
		if !legal(t, s, "no") {
			t.Fatalf("bid %s: declining is not legal", bid)
		}
		play(t, s, "no")
		wantPhase(t, s, PhaseDeliveryBid, 3)
		if q := s.Players[3]; q.NumLoans != 1 || q.Loans[0].Lender != -1 || q.Cash != 30 {
			t.Fatalf("bid %s: after every opponent declined, seat 3 has %+v, want a Bank loan", bid, q)
		}
	}
}

// More Containers, Player Loans, Requesting a Loan: once an opponent has offered a loan, the
// borrower may not take a Bank loan for the rest of the turn, only accept a player loan or
// take none. A second request in the same turn that draws no offer therefore gives nothing
// (and ends the seat's requests for the turn); in the next turn the Bank lends again.
func TestMoreContainersOfferThisTurnBarsBankLoanForTheWholeTurn(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	s.Players[1].Cash = 10 // can lend once
	s.Players[2].Cash = 5  // cannot offer
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 1)
	play(t, s, "yes", "yes") // offered and accepted
	p := &s.Players[0]
	if p.NumLoans != 1 || p.Loans[0].Lender != 1 {
		t.Fatalf("first loan %+v", p.Loans)
	}
	// Nobody can offer now; the earlier offer bars the Bank loan this turn.
	cash := p.Cash
	play(t, s, "loan")
	wantPhase(t, s, PhaseTurn, 0)
	if p.NumLoans != 1 || p.Cash != cash {
		t.Fatalf("a Bank loan in the turn an opponent offered one: loans %d cash %d", p.NumLoans, p.Cash)
	}
	if legal(t, s, "loan") {
		t.Fatal("a further request after one that could give nothing")
	}
	// Next turn of seat 0: the Bank lends again.
	play(t, s, "end", "end", "end")
	wantPhase(t, s, PhaseTurn, 0)
	play(t, s, "loan")
	if p.NumLoans != 2 || p.Loans[1].Lender != -1 {
		t.Fatalf("Bank loan in a new turn: %+v", p.Loans)
	}
}

// The same holds for a seat that is not active (a delivery bidder): declined offers do not
// count (only an offer bars the Bank), and a bidder offered a loan earlier in the active
// player's turn gets no Bank loan later in that turn.
func TestMoreContainersDeclinedRequestStillGetsBankLoanButOfferedBidderDoesNot(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	// Seat 1 asks while seat 0 is active; seat 2 declines, seat 0 offers; seat 1 rejects.
	s.Players[0].Ship = Counts{Red: 1}
	play(t, s, "sail:island")
	wantPhase(t, s, PhaseDeliveryBid, 1)
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 2)
	play(t, s, "no", "yes")
	wantPhase(t, s, PhaseLoanAccept, 1)
	play(t, s, "no")
	wantPhase(t, s, PhaseDeliveryBid, 1)
	if legal(t, s, "loan") {
		t.Fatal("loan after rejecting an offer")
	}
	// Seat 2: both opponents decline: no offer, so a Bank loan.
	play(t, s, "$0")
	wantPhase(t, s, PhaseDeliveryBid, 2)
	play(t, s, "loan", "no", "no")
	if q := s.Players[2]; q.NumLoans != 1 || q.Loans[0].Lender != -1 {
		t.Fatalf("declined request: %+v", q.Loans)
	}
}
