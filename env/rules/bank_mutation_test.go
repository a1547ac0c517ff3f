package rules

import "testing"

// Call Bank Action: Calling the Bank is one of the two actions of a turn, so it is offered
// after one action and no longer after two.
func TestCallBankIsNotOfferedAfterTwoActions(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	play(t, s, "build:warehouse")
	if s.Machine.ActionsUsed != 1 || !legal(t, s, "bank:start:container-lot:1") {
		t.Fatalf("after one action (%d used): Call Bank should be offered", s.Machine.ActionsUsed)
	}
	play(t, s, "produce", "place:$1")
	wantPhase(t, s, PhaseTurn, 0)
	if s.Machine.ActionsUsed != 2 {
		t.Fatalf("%d actions used, want 2", s.Machine.ActionsUsed)
	}
	if legal(t, s, "bank:start:container-lot:1") || legal(t, s, "bank:start:container-lot:2") {
		t.Fatal("Call Bank offered as a third action")
	}
}

// Bank Auctions: a cash auction on a Bank container lot opens with at least $1, so a player
// with exactly $1 may start one (and must bid that dollar); a player with $0 may not.
func TestStartingABankContainerAuctionNeedsOnlyOneDollar(t *testing.T) {
	for _, cash := range []int32{1, 0} {
		s := newTestState(t, DefaultOptions())
		s.Players[0].Cash = cash
		if got := legal(t, s, "bank:start:container-lot:1"); got != (cash >= 1) {
			t.Fatalf("with $%d: start legal = %v", cash, got)
		}
		if cash == 0 {
			continue
		}
		play(t, s, "bank:start:container-lot:1")
		if !legal(t, s, "$1") || legal(t, s, "$2") {
			t.Fatal("with $1 the only opening bid is $1")
		}
		play(t, s, "$1")
		if s.Players[0].Cash != 0 || s.Auctions[ContainerLotAuction].Cash != 1 {
			t.Fatalf("after the $1 bid: cash $%d, tile $%d", s.Players[0].Cash, s.Auctions[ContainerLotAuction].Cash)
		}
	}
}
