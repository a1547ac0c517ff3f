package rules

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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
			if d.Phase == PhaseDeliveryBid && s.machine.HasBid != 0 {
				bidder := -1
				for i := 0; i < 4; i++ {
					if s.machine.HasBid&(1<<uint(i)) != 0 {
						bidder = i
					}
				}
				s.machine.Bids[bidder] = 77 // a recognisable sealed amount
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

var updateGolden = flag.Bool("update", false, "rewrite the golden playthrough files in testdata/playthroughs")

// playthroughConfigs are the golden games: short turn limits keep the files readable.
var playthroughConfigs = []struct {
	name string
	opts Options
	seed uint64
}{
	{"3p-base-seed1", Options{Players: 3, TurnLimit: 8}, 1},
	{"4p-classic-seed2", Options{Players: 4, Variant: Classic, TurnLimit: 8}, 2},
	{"5p-base-short-seed3", Options{Players: 5, Length: Short, TurnLimit: 6}, 3},
	// All modules: the seed shows a truck auction won, a player-loan offer and Acquire Luxury.
	{"4p-all-modules-seed11", Options{Players: 4, Modules: AllModules, TurnLimit: 8}, 11},
}

// writePlaythrough plays a seeded random game and writes every step: the decider and
// phase, the legal moves with their ids and notation, the chosen move and the omniscient
// board after it (OpenSpiel-style playthroughs).
func writePlaythrough(o Options, seed uint64) (string, error) {
	g, err := NewGame(o)
	if err != nil {
		return "", err
	}
	s := g.NewInitialStateSeed(seed)
	r := rand.New(rand.NewPCG(seed, 0x706c6179)) // "play"
	var b strings.Builder
	fmt.Fprintf(&b, "# Playthrough: %d players, %s rules, %s length, seed %d, turn limit %d\n", o.Players, o.Variant, o.Length, seed, o.TurnLimit)
	fmt.Fprintf(&b, "# Regenerate: go test ./env/rules/ -run Playthrough -update\n\n")
	b.WriteString(s.Render(-1))
	var ids []int
	for step := 0; !s.IsTerminal(); step++ {
		ids = s.LegalActions(ids)
		d := s.Decision()
		fmt.Fprintf(&b, "\n--- step %d: p%d decides %s\nlegal:", step, d.Decider+1, d.Phase)
		for i, id := range ids {
			if i%8 == 0 {
				b.WriteString("\n ")
			}
			fmt.Fprintf(&b, " %d=%s", id, s.ActionToMove(id))
		}
		id := ids[r.IntN(len(ids))]
		fmt.Fprintf(&b, "\nchosen: %d=%s\n", id, s.ActionToMove(id))
		if err := s.ApplyChecked(id); err != nil {
			return "", err
		}
		b.WriteString(s.Render(-1))
	}
	b.WriteString("\nFinal scores:\n")
	for i, sc := range s.Scores() {
		fmt.Fprintf(&b, "  p%d %s\n", i+1, sc)
	}
	return b.String(), nil
}

// TestPlaythroughGolden replays the golden games and compares every step with the files in
// testdata/playthroughs; any change to rules, notation, action ids or rendering shows up as a
// diff. Regenerate with -update after an intended change.
func TestPlaythroughGolden(t *testing.T) {
	for _, pc := range playthroughConfigs {
		t.Run(pc.name, func(t *testing.T) {
			got, err := writePlaythrough(pc.opts, pc.seed)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "playthroughs", pc.name+".txt")
			checkGolden(t, path, got)
		})
	}
}

// TestRenderGoldenBoards draws every example position (omniscient and from seat 0) and
// compares with testdata/boards; regenerate with -update.
func TestRenderGoldenBoards(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "positions", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example positions: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			s := loadTestPosition(t, filepath.Base(f))
			got := "# omniscient\n" + s.Render(-1) + "\n# view of p1\n" + s.Render(0)
			checkGolden(t, filepath.Join("testdata", "boards", name+".txt"), got)
		})
	}
}

// checkGolden compares got with the golden file at path, or rewrites it with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(regenerate with -update if the change is intended)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d (regenerate with -update if intended)", path, len(gl), len(wl))
	}
}

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
