package rules

import "testing"

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
