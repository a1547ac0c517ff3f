package rules

import (
	"testing"
)

// An edge case of the money flow (the mutation records in docs/results/ name the bug it catches): it states one
// rule of who pays whom and checks every balance involved.
//
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
