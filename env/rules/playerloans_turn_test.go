package rules

import "testing"

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
