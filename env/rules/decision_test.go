package rules

import (
	"fmt"
	"testing"
)

// Decision copies each public fact of the machine into its area: a machine with a distinct
// value in every copied field reads back the same values from the Decision.
func TestDecisionCopiesTheMachineByArea(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: AllModules})
	m := &s.machine
	m.ActionsUsed, m.Produced, m.CalledBank, m.WonAuction, m.Repays, m.LuxuryUsed, m.LoansBlocked = 1, true, true, true, 2, true, true
	m.Action, m.Bought, m.PickLeft = SailIsland, 3, 4
	m.Fixed[2][Blue] = 5
	m.Pending[Red] = 2
	m.BidKind, m.Returner = CashLotAuction, 3
	m.ReturnFactory[White], m.ReturnHarbor[Green] = 1, 2
	m.Unpaid, m.SeizeAt = 2, seizeHarbor
	m.Seized[Yellow] = 1
	m.Pay[Green], m.Payer, m.PayPlaced = 3, 2, 4
	m.Bids, m.Runoff = [MaxPlayers]int32{1, 2, 3, 4}, [MaxPlayers]int32{5, 6, 7, 8}
	m.HasBid, m.Tied, m.HasRunoff, m.Revealed, m.RunoffRevealed, m.Winner = 0b1110, 0b0110, 0b0100, true, true, 2
	m.InterestDue, m.UnpaidLoans = 2, 0b10
	m.Borrower, m.Offers, m.HasIncentive, m.IncentiveRevealed, m.LoanTied, m.Lender = 1, 0b1100, 0b1000, true, 0b0100, 3
	m.Incentives = [MaxPlayers]int32{0, 0, 9, 11}
	m.LoanRejected, m.LoanOffered, m.LoanReturnPhase = 0b0001, 0b0010, PhaseRunoffBid
	d := s.Decision()
	if d.Turn != (TurnCounters{1, true, true, true, 2, true, true}) {
		t.Errorf("Turn %+v", d.Turn)
	}
	if d.Action.Kind != SailIsland || d.Action.Bought != 3 || d.Action.PickLeft != 4 || d.Action.Fixed[2][Blue] != 5 || d.Action.Pending[Red] != 2 {
		t.Errorf("Action %+v", d.Action)
	}
	if d.BankBid.Kind != CashLotAuction || d.BankBid.Returner != 3 || d.BankBid.ReturnFactory[White] != 1 || d.BankBid.ReturnHarbor[Green] != 2 {
		t.Errorf("BankBid %+v", d.BankBid)
	}
	if d.Default.Unpaid != 2 || d.Default.At != SeizeHarbor || d.Default.At.String() != "harbor" || d.Default.Seized[Yellow] != 1 {
		t.Errorf("Default %+v", d.Default)
	}
	if d.Payment.Left[Green] != 3 || d.Payment.Payer != 2 || d.Payment.Placed != 4 {
		t.Errorf("Payment %+v", d.Payment)
	}
	want := DeliveryAuction{Bids: m.Bids, Runoff: m.Runoff, HasBid: 0b1110, Tied: 0b0110, HasRunoff: 0b0100, Revealed: true, RunoffRevealed: true, Winner: 2}
	if d.Delivery != want {
		t.Errorf("Delivery %+v, want %+v", d.Delivery, want)
	}
	if d.Interest != (InterestDue{Loans: 2, Unpaid: 0b10}) {
		t.Errorf("Interest %+v", d.Interest)
	}
	wantLoan := LoanRequest{Borrower: 1, Offers: 0b1100, Incentives: m.Incentives, HasIncentive: 0b1000, IncentiveRevealed: true,
		Tied: 0b0100, Lender: 3, Rejected: 0b0001, Offered: 0b0010, ReturnPhase: PhaseRunoffBid}
	if d.Loan != wantLoan {
		t.Errorf("Loan %+v, want %+v", d.Loan, wantLoan)
	}
	if s.Phase() != d.Phase {
		t.Errorf("Phase() %s, Decision().Phase %s", s.Phase(), d.Phase)
	}
}

// DecisionFor(seat) hides exactly what seat's redacted view hides: the other seats'
// unrevealed sealed values; revealed ones and the seat's own stay.
func TestDecisionForHidesOtherSeatsUnrevealedSealedValues(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	m := &s.machine
	m.Bids, m.Runoff, m.Incentives = [MaxPlayers]int32{1, 2, 3, 4}, [MaxPlayers]int32{5, 6, 7, 8}, [MaxPlayers]int32{9, 10, 11, 12}
	m.HasBid, m.HasRunoff, m.HasIncentive = 0b1111, 0b1111, 0b1111
	m.RunoffRevealed = true
	d := Decision{Phase: PhaseTerminal, MinAmount: 99, ToBeat: 7} // overwritten
	s.DecisionFor(1, &d)
	if d.Delivery.Bids != [MaxPlayers]int32{0, 2, 0, 0} || d.Loan.Incentives != [MaxPlayers]int32{0, 10, 0, 0} {
		t.Errorf("unrevealed: bids %v incentives %v, want only seat 1's", d.Delivery.Bids, d.Loan.Incentives)
	}
	if d.Delivery.Runoff != m.Runoff {
		t.Errorf("revealed runoff %v, want %v", d.Delivery.Runoff, m.Runoff)
	}
	var view State
	s.Redact(1, &view)
	if view.Decision() != d {
		t.Errorf("the view's decision differs from DecisionFor")
	}
}

// SetSealed writes one seat's three sealed values, leaves the others', and makes a redacted
// view a position again (its Hidden mark goes).
func TestSetSealedWritesOneSeatAndUnmarksTheView(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	m := &s.machine
	m.Bids, m.HasBid = [MaxPlayers]int32{1, 2, 3, 4}, 0b1111
	var view State
	s.Redact(0, &view)
	if !view.machine.Hidden {
		t.Fatal("test setup: the view hides no bid")
	}
	view.SetSealed(2, Sealed{Bid: 7, Runoff: 8, Incentive: 9})
	d := view.Decision()
	if d.Delivery.Bids != [MaxPlayers]int32{1, 0, 7, 0} || d.Delivery.Runoff[2] != 8 || d.Loan.Incentives[2] != 9 {
		t.Errorf("after SetSealed: bids %v runoff %v incentives %v", d.Delivery.Bids, d.Delivery.Runoff, d.Loan.Incentives)
	}
	if view.machine.Hidden {
		t.Error("still marked as a redacted view")
	}
	view.SetSealed(-1, Sealed{Bid: 1})
	view.SetSealed(MaxPlayers, Sealed{Bid: 1})
	if view.Decision().Delivery != d.Delivery {
		t.Error("a seat outside 0..4 changed something")
	}
}

// An incentive bid during a delivery auction (Player Loans): a lender's largest incentive is
// its cash less its sealed delivery bid, less the $10 lent. The lender's own DecisionFor has
// that limit and its amount in progress; every other seat, which has not seen the bid, gets
// the bound it can work out (cash - $10) and no amount in progress, as its redacted view has.
func TestDecisionForHidesTheDecidersSealedBidInItsAmountLimits(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	m := &s.machine
	s.Active = 0
	m.Action, m.LoanReturnPhase, m.Phase = SailIsland, PhaseDeliveryBid, PhaseIncentiveBid
	m.Decider, m.Borrower = 2, 3
	s.Players[2].Cash = 250
	m.Bids[2], m.HasBid = 30, 0b0110 // seats 1 and 2 have bid, seat 3 (the borrower) not yet
	m.Bids[1] = 4
	m.AmountBase = 100
	var d Decision
	s.DecisionFor(2, &d)
	if d.MinAmount != 0 || d.MaxAmount != 250-30-LoanAmount || d.AmountBase != 100 {
		t.Errorf("the lender's own decision: amounts %d..%d base %d, want 0..%d base 100", d.MinAmount, d.MaxAmount, d.AmountBase, 250-30-LoanAmount)
	}
	for _, seat := range []int{0, 1, 3} {
		s.DecisionFor(seat, &d)
		if d.MinAmount != 0 || d.MaxAmount != 250-LoanAmount || d.AmountBase != 0 {
			t.Errorf("seat %d: amounts %d..%d base %d, want 0..%d base 0", seat, d.MinAmount, d.MaxAmount, d.AmountBase, 250-LoanAmount)
		}
		var view State
		s.Redact(seat, &view)
		if view.Decision() != d {
			t.Errorf("seat %d: the view's decision differs from DecisionFor", seat)
		}
	}
}

// Every seize location has its name, and the value just past the table (a corrupt file, a
// caller's arithmetic) is written "seize(?)" instead of panicking.
func TestSeizeLocationNamesEndAtTheLastLocation(t *testing.T) {
	want := []string{"island", "ship", "holding", "harbor", "factory", "nothing", "anywhere"}
	for l := SeizeLocation(0); l < NumSeizeLocations; l++ {
		if got := l.String(); got != want[l] {
			t.Errorf("SeizeLocation(%d) = %q, want %q", l, got, want[l])
		}
	}
	noPanic(t, "SeizeLocation.String past the table", func() {
		if got := NumSeizeLocations.String(); got != "seize(?)" {
			t.Errorf("NumSeizeLocations.String() = %q, want seize(?)", got)
		}
	})
}

// SetSealed writes the sealed values of every seat 0..MaxPlayers-1, the first and the last
// included (a search fills in each opponent's hidden bid).
func TestSetSealedWritesTheFirstAndTheLastSeat(t *testing.T) {
	for _, seat := range []int{0, MaxPlayers - 1} {
		t.Run(fmt.Sprint("seat ", seat), func(t *testing.T) {
			s := newTestState(t, Options{Players: 5, Modules: PlayerLoans})
			s.SetSealed(seat, Sealed{Bid: 7, Runoff: 8, Incentive: 9})
			d := s.Decision()
			if d.Delivery.Bids[seat] != 7 || d.Delivery.Runoff[seat] != 8 || d.Loan.Incentives[seat] != 9 {
				t.Errorf("seat %d: bids %v runoff %v incentives %v", seat, d.Delivery.Bids, d.Delivery.Runoff, d.Loan.Incentives)
			}
		})
	}
}
