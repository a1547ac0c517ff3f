package rules

import (
	"fmt"
	"strings"
	"testing"
)

// TestRenderSeatOutsideGameIsOmniscient: a viewer number that is no seat of the game
// (Render's documented fallback) draws the same board as viewer -1.
func TestRenderSeatOutsideGameIsOmniscient(t *testing.T) {
	s := loadTestPosition(t, "midgame-5p-auctions.json")
	all := s.Render(-1)
	for _, v := range []int{5, 6, 100} {
		if got := s.Render(v); got != all {
			t.Errorf("Render(%d) differs from the omniscient board:\n%s", v, got)
		}
	}
}

// TestRenderContainerBidsCountBothDistricts: a container bid on a cash lot or a truck
// company counts the containers from the factory and the harbor together.
func TestRenderContainerBidsCountBothDistricts(t *testing.T) {
	s := loadTestPosition(t, "midgame-5p-auctions.json")
	s.Auctions[CashLotAuction].FromHarbor[Red] = 2
	s.Auctions[TruckAuction] = Auction{Active: true, Target: 1, Bidder: 3}
	s.Auctions[TruckAuction].FromFactory[White] = 1
	s.Auctions[TruckAuction].FromHarbor[Yellow] = 3
	out := s.Render(-1)
	for _, want := range []string{
		"Auction on cash lot I: p1 bids 3 containers (factory g, harbor rr)",
		"Auction on p2's truck company: p4 bids 4 containers",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("board lacks %q:\n%s", want, out)
		}
	}
}

// TestRenderTruckCompanyOwnedBySeatOne: a truck company bought by the first seat is shown
// as owned by p1 (seat 0 is an owner, not "independent").
func TestRenderTruckCompanyOwnedBySeatOne(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: Trucks})
	s.Companies[1].Owner = 0
	if out := s.Render(-1); !strings.Contains(out, "truck company owned by p1") {
		t.Errorf("company owned by seat 0 not shown:\n%s", out)
	}
}

// TestRenderOutOfRangeFieldsDoNotPanic: the board drawer tolerates fields outside their
// ranges (a lot index past III, a scoring card number past the last, more loans than loan
// slots, a factory bit past the normal colours) without panicking or inventing content.
func TestRenderOutOfRangeFieldsDoNotPanic(t *testing.T) {
	if got := romanLot(3); got != "lot(3)" {
		t.Errorf("romanLot(3) = %q", got)
	}
	s := newTestState(t, Options{Players: 3})
	s.Players[0].Card = NumScoringCards
	s.Players[1].NumLoans = MaxLoans + 1
	s.Players[2].Factories = 1<<uint(White) | 1<<NumNormalColours
	out := s.Render(-1)
	if !strings.Contains(out, "p1 cash $") || !strings.Contains(strings.SplitN(out, "p1 cash", 2)[1], "card ?") {
		t.Errorf("an out-of-range card is not drawn as unknown:\n%s", out)
	}
	p3 := strings.SplitN(out, "p3 cash", 2)[1]
	if !strings.Contains(p3, "factory  [w]") || !strings.Contains(p3, "/2\n") {
		t.Errorf("a factory bit past the normal colours is drawn:\n%s", out)
	}
}

// TestRenderSealedBidsAndRunoffs: during a delivery auction, an unrevealed bid or runoff
// of a seat is shown to that seat and to the omniscient board only; every other seat,
// seat p1 included, sees "sealed"; once revealed everyone sees the amount. A 4-player
// board never names a fifth seat.
func TestRenderSealedBidsAndRunoffs(t *testing.T) {
	for seed := uint64(1); seed < 60; seed++ {
		g, _ := NewGame(Options{Players: 4})
		s := g.NewInitialStateSeed(seed)
		var ids []int
		for step := 0; step < 4000 && !s.IsTerminal(); step++ {
			m := &s.machine
			if s.Decision().Phase == PhaseDeliveryBid && m.HasBid&^1 != 0 && !m.Revealed {
				b := 1
				for m.HasBid&(1<<uint(b)) == 0 {
					b++
				}
				m.Bids[b] = 77
				m.HasRunoff |= 1 << uint(b)
				m.Runoff[b] = 55
				m.RunoffRevealed = false
				m.HasBid |= 1 << 4 // a stray bit past the last seat is ignored
				lb := fmt.Sprintf("p%d", b+1)
				for _, v := range []int{-1, b} {
					if out := s.Render(v); !strings.Contains(out, lb+" $77 +$55") {
						t.Fatalf("viewer %d does not see %s's bid and runoff:\n%s", v, lb, out)
					}
				}
				for v := 0; v < 4; v++ {
					out := s.Render(v)
					if strings.Contains(out, "p5") {
						t.Fatalf("a 4-player board names p5:\n%s", out)
					}
					if v != b && (!strings.Contains(out, lb+" sealed +sealed") || strings.Contains(out, "$77") || strings.Contains(out, "$55")) {
						t.Fatalf("p%d sees %s's sealed bid or runoff:\n%s", v+1, lb, out)
					}
				}
				m.Revealed, m.RunoffRevealed = true, true
				if out := s.Render(0); !strings.Contains(out, lb+" $77 +$55") {
					t.Fatalf("revealed bid and runoff not shown to p1:\n%s", out)
				}
				return
			}
			ids = s.LegalActions(ids)
			s.Apply(ids[(int(seed)*7+step)%len(ids)])
		}
	}
	t.Fatal("no delivery auction with a bidder other than p1 in 60 games")
}
