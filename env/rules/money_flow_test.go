package rules

import "testing"

// Edge cases of the money flow (the mutation records in docs/results/ name the bug each one catches): each states
// one rule of who pays whom and checks every balance involved.

// Bank Auctions, raising a cash bid: the outbid player takes the cash of their bid back at
// once, the new bidder pays nothing until they bid, and no dollar is created or destroyed.
func TestBankCashRaiseRefundsTheOutbidPlayerAndConservesCash(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	a, b := 0, 1
	start := s.CashFlow()
	play(t, s, "bank:start:container-lot:1", "$3", "end")
	if s.Players[a].Cash != 17 || s.Auctions[ContainerLotAuction].Cash != 3 {
		t.Fatalf("opening bid: bidder $%d, tile $%d; want $17 and $3", s.Players[a].Cash, s.Auctions[ContainerLotAuction].Cash)
	}
	wantPhase(t, s, PhaseTurn, b)
	play(t, s, "bank:raise:container-lot")
	wantPhase(t, s, PhaseBankCashBid, b)
	if s.Players[a].Cash != 20 {
		t.Fatalf("outbid player has $%d after the raise, want the $3 back ($20)", s.Players[a].Cash)
	}
	if s.Players[b].Cash != 20 {
		t.Fatalf("raising player has $%d before bidding, want $20", s.Players[b].Cash)
	}
	if s.Auctions[ContainerLotAuction].Cash != 0 || int(s.Auctions[ContainerLotAuction].Bidder) != b {
		t.Fatalf("auction after the raise: %+v", s.Auctions[ContainerLotAuction])
	}
	if legal(t, s, "$3") || !legal(t, s, "$4") {
		t.Fatal("the raise must beat the old bid of $3: $3 refused, $4 offered")
	}
	play(t, s, "$4")
	if s.Players[b].Cash != 16 || s.Auctions[ContainerLotAuction].Cash != 4 || s.Players[a].Cash != 20 {
		t.Fatalf("after the $4 raise: raiser $%d, tile $%d, outbid $%d", s.Players[b].Cash, s.Auctions[ContainerLotAuction].Cash, s.Players[a].Cash)
	}
	for i := 2; i < 4; i++ {
		if s.Players[i].Cash != 20 {
			t.Fatalf("bystander seat %d has $%d", i, s.Players[i].Cash)
		}
	}
	if end := s.CashFlow(); end != start {
		t.Fatalf("cash created or destroyed by a Bank auction: %+v -> %+v", start, end)
	}
}

// Delivery Auctions, Auction Buyout: the deliverer may buy the cargo back when they hold at
// least the winning bid, so exactly enough cash is enough and a dollar less is not.
func TestBuyoutIsLegalWithExactlyTheWinningBid(t *testing.T) {
	for _, cash := range []int32{4, 3} {
		s := newTestState(t, Options{Players: 3})
		s.Players[0].Ship = Counts{White: 1}
		play(t, s, "sail:island", "$4", "$1")
		wantPhase(t, s, PhaseDeliveryAccept, 0)
		s.Players[0].Cash = cash
		if got, want := legal(t, s, "no"), cash >= 4; got != want {
			t.Fatalf("deliverer with $%d against a $4 bid: buy-out legal = %v, want %v", cash, got, want)
		}
		if cash != 4 {
			continue
		}
		play(t, s, "no")
		if s.Players[0].Cash != 0 || s.Players[0].Island != (Counts{White: 1}) || s.Players[1].Cash != 20 {
			t.Fatalf("buy-out with exactly $4: cash $%d island %v winner $%d", s.Players[0].Cash, s.Players[0].Island, s.Players[1].Cash)
		}
	}
}
