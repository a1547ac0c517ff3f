package rules

import (
	"strings"
	"testing"
)

// TestRenderHidesSecrets: a player's view shows its own scoring card and no other; the
// omniscient board shows all of them.
func TestRenderHidesSecrets(t *testing.T) {
	s := loadTestPosition(t, "midgame-5p-auctions.json")
	all := s.Render(-1)
	for i := 0; i < 5; i++ {
		card := "card " + string(rune('0'+s.Players[i].Card)) + " ("
		if !strings.Contains(all, card) {
			t.Errorf("omniscient board lacks p%d's %q", i+1, card)
		}
	}
	for v := 0; v < 5; v++ {
		view := s.Render(v)
		if got := strings.Count(view, "card ?"); got != 4 {
			t.Errorf("view of p%d shows %d hidden cards, want 4:\n%s", v+1, got, view)
		}
		for i := 0; i < 5; i++ {
			card := "card " + string(rune('0'+s.Players[i].Card)) + " ("
			if (i == v) != strings.Contains(view, card) {
				t.Errorf("view of p%d: p%d's card shown = %v", v+1, i+1, i != v)
			}
		}
	}
}

// TestRenderSealedBids: during a delivery auction a bidder's amount is visible only to that
// bidder until the reveal.
func TestRenderSealedBids(t *testing.T) {
	for seed := uint64(1); seed < 40; seed++ {
		g, _ := NewGame(Options{Players: 4})
		s := g.NewInitialStateSeed(seed)
		var ids []int
		for step := 0; step < 4000 && !s.IsTerminal(); step++ {
			d := s.Decision()
			if d.Phase == PhaseDeliveryBid && s.Machine.HasBid != 0 {
				bidder := -1
				for i := 0; i < 4; i++ {
					if s.Machine.HasBid&(1<<uint(i)) != 0 {
						bidder = i
					}
				}
				s.Machine.Bids[bidder] = 77 // a recognisable sealed amount
				if !strings.Contains(s.Render(-1), "$77") || !strings.Contains(s.Render(bidder), "$77") {
					t.Fatalf("bidder or omniscient board does not show the bid:\n%s", s.Render(bidder))
				}
				other := d.Decider
				if view := s.Render(other); strings.Contains(view, "$77") || !strings.Contains(view, "sealed") {
					t.Fatalf("p%d sees p%d's sealed bid:\n%s", other+1, bidder+1, view)
				}
				return
			}
			ids = s.LegalActions(ids)
			s.Apply(ids[(int(seed)*7+step)%len(ids)])
		}
	}
	t.Fatal("no delivery auction reached a second bidder in 40 games")
}

func TestRenderShowsBoard(t *testing.T) {
	s := loadTestPosition(t, "midgame-5p-auctions.json")
	out := s.Render(-1)
	for _, want := range []string{
		"Decision: p4 decides turn",
		"Bank: containers I:g II:wy III:r | cash I:$4 II:$0 III:$6",
		"Auction on container lot III: p5 bids $3",
		"Auction on cash lot I: p1 bids 1 container (factory g, harbor -)",
		"factory  [wg] $1:w $2:- $3:gg $4:- | 3+1 reserve/4",
		"ship at harbor of p3: -",
		"loans: Bank $10, Bank $10",
		"holding: yy",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("board lacks %q:\n%s", want, out)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	g, _ := NewGame(Options{Players: 4})
	s := g.NewInitialStateSeed(1)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Render(0)
	}
}
