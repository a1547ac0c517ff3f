package rules

import (
	"slices"
	"testing"
)

// bidByIDs makes the pending amount decision's bid of amount using action ids only: one
// AmountHundred per $100, then the Amount id of the rest, checking each id is legal.
func bidByIDs(t *testing.T, s *State, amount int32) {
	t.Helper()
	hundred, _ := KindBase(AmountHundred)
	first, _ := KindBase(Amount)
	for a := amount; a > MaxAmountID; a -= 100 {
		if !slices.Contains(s.LegalActions(nil), hundred) {
			t.Fatalf("phase %s: +$100 not legal (legal %v)", s.Machine.Phase, s.LegalMoves(nil))
		}
		s.Apply(hundred)
	}
	id := first + int(amount%100)
	if amount < 100 {
		id = first + int(amount)
	}
	if err := s.ApplyChecked(id); err != nil {
		t.Fatalf("phase %s: $%d: %v", s.Machine.Phase, amount, err)
	}
}

// Every legal bid must be reachable through action ids (docs/RULES.md, section 11): a player
// holding $150 bids $120 in each kind of amount decision, delivery bid, runoff addition, Bank
// cash bid and player-loan incentive bid, as +$100 then the $20 id. The partial amount is
// the decider's alone: other seats' views read 0.
func TestEveryLegalBidHasActionIDs(t *testing.T) {
	// Delivery bid and runoff addition (Rulebook, Delivery Auctions).
	s := newTestState(t, DefaultOptions())
	s.Players[0].Ship = Counts{Red: 1}
	s.Players[1].Cash = 150
	s.Players[2].Cash = 300
	play(t, s, "sail:island")
	wantPhase(t, s, PhaseDeliveryBid, 1)
	hundred, _ := KindBase(AmountHundred)
	s.Apply(hundred)
	if d := s.Decision(); d.AmountBase != 100 || s.ActionToMove(kindBaseOf(Amount)+20).Amount != 120 {
		t.Fatalf("after +$100: decision %+v", d)
	}
	var v State
	s.Redact(2, &v)
	if v.Machine.AmountBase != 0 {
		t.Fatal("a sealed bid in progress leaks to another seat")
	}
	if legal(t, s, "$99") || !legal(t, s, "$120") || legal(t, s, "loan") {
		t.Fatalf("after +$100: %v", s.LegalMoves(nil))
	}
	s.Apply(kindBaseOf(Amount) + 20)
	if s.Machine.Bids[1] != 120 || s.Machine.AmountBase != 0 {
		t.Fatalf("bid %d base %d", s.Machine.Bids[1], s.Machine.AmountBase)
	}
	bidByIDs(t, s, 120) // seat 2 ties
	play(t, s, "$0")    // seat 3
	wantPhase(t, s, PhaseRunoffBid, 1)
	s.Players[1].Cash = 270 // a runoff addition of $120 on top of the $120 bid
	bidByIDs(t, s, 120)
	if s.Machine.Runoff[1] != 120 {
		t.Fatalf("runoff %d", s.Machine.Runoff[1])
	}

	// Bank cash bid (Rulebook, Bank Auctions): $120 on a container lot.
	s = newTestState(t, DefaultOptions())
	s.Players[0].Cash = 150
	play(t, s, "bank:start:container-lot:1")
	bidByIDs(t, s, 120)
	if a := s.Auctions[ContainerLotAuction]; a.Cash != 120 || s.Players[0].Cash != 30 {
		t.Fatalf("cash bid %+v", a)
	}

	// Incentive bid (More, Player Loans, Competing Offers): up to cash - $10.
	s = newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	s.Players[1].Cash = 150
	play(t, s, "loan", "yes", "yes", "yes")
	wantPhase(t, s, PhaseIncentiveBid, 1)
	bidByIDs(t, s, 120)
	if s.Machine.Incentives[1] != 120 {
		t.Fatalf("incentive %d", s.Machine.Incentives[1])
	}
	// +$100 is offered only while $100 more still fits: $99 is the most seat 1 may offer here.
	s = newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	s.Players[1].Cash = 109
	play(t, s, "loan", "yes", "yes", "yes")
	if slices.Contains(s.LegalActions(nil), hundred) {
		t.Fatal("+$100 offered with at most $99 to bid")
	}
}

// kindBaseOf is the first action id of kind k.
func kindBaseOf(k MoveKind) int { f, _ := KindBase(k); return f }
