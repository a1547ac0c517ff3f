package rules

import (
	"slices"
	"testing"
)

// CLARIFICATIONS, Loans: a loan can be requested at any decision point of that player. The
// engine offers TakeLoan in every phase but the loan request's own decisions.

// Arriving at an opponent's harbor gives a free Harbor Purchase (Rulebook, Anchor Actions).
// A player who cannot pay for any container there is still asked, so that it may borrow
// first and then buy; before, the purchase was skipped.
func TestLoanAnyDecisionFreeHarborPurchaseAfterBorrowing(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	p := &s.Players[0]
	p.Cash = 1
	s.Players[1].HarborLots[1] = Counts{Red: 1} // $3
	play(t, s, "sail:p2")
	wantPhase(t, s, PhaseBuyHarbor, 0)
	if legal(t, s, "pick:harbor:red:$3") || !legal(t, s, "done") || !legal(t, s, "loan") {
		t.Fatalf("free purchase while broke: %v", s.LegalMoves(nil))
	}
	play(t, s, "loan", "pick:harbor:red:$3")
	if p.Ship[Red] != 1 || p.Cash != 8 || p.NumLoans != 1 {
		t.Fatalf("ship %v cash %d loans %d", p.Ship, p.Cash, p.NumLoans)
	}
}

// Player Loans during a Factory Purchase: the seller has just been paid and can now lend the
// buyer the cash for the next container; the purchase stays open while a loan is possible.
func TestLoanAnyDecisionSellerLendsDuringFactoryPurchase(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	p := &s.Players[0]
	p.Cash = 6
	p.Warehouses = 3
	seller := &s.Players[1]
	seller.Cash = 6
	seller.FactoryLots[3] = Counts{Green: 2} // $4 each
	s.Players[2].Cash = 5                    // cannot lend
	play(t, s, "buy-factory:p2", "pick:factory:green:$4")
	wantPhase(t, s, PhaseBuyFactory, 0)
	if legal(t, s, "pick:factory:green:$4") || !legal(t, s, "loan") || !legal(t, s, "done") {
		t.Fatalf("after the first container: %v", s.LegalMoves(nil))
	}
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 1) // the seller now holds $10
	play(t, s, "yes", "yes")
	wantPhase(t, s, PhaseBuyFactory, 0)
	play(t, s, "pick:factory:green:$4")
	if p.Loans[0].Lender != 1 || p.Cash != 8 || seller.Cash != 4 {
		t.Fatalf("loan %+v buyer $%d seller $%d", p.Loans[0], p.Cash, seller.Cash)
	}
	wantPhase(t, s, PhasePlace, 0)
}

// A loan is offered while bidding on a Bank lot (its cash bid may use it), while placing and
// rearranging, and to non-active deciders such as an outbid player putting containers back;
// it is not offered inside a loan request (a request cannot hold another one).
func TestLoanAnyDecisionOfferedOutsideTheLoanRequest(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	s.Players[0].Cash = 3
	play(t, s, "bank:start:container-lot:1")
	wantPhase(t, s, PhaseBankCashBid, 0)
	if !legal(t, s, "loan") {
		t.Fatal("no loan while making a Bank cash bid")
	}
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 1)
	if legal(t, s, "loan") || !slices.Equal(s.LegalMoves(nil), []Move{{Kind: Yes}, {Kind: No}}) {
		t.Fatalf("loan offer decision: %v", s.LegalMoves(nil))
	}
	play(t, s, "no", "no")
	wantPhase(t, s, PhaseBankCashBid, 0)
	if lo, hi, _ := s.amountRange(); lo != 1 || hi != 13 {
		t.Fatalf("bid range $%d-$%d after a $10 Bank loan, want $1-$13", lo, hi)
	}
	play(t, s, "$12", "produce")
	wantPhase(t, s, PhasePlace, 0)
	if !legal(t, s, "loan") {
		t.Fatal("no loan while placing")
	}
}
