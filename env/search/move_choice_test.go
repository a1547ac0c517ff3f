package search

import (
	"testing"
	"time"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// The move played is the one with the most root visits summed over the trees, then the
// higher mean outcome, then the lower id: checked against the trees themselves after every
// search, at budgets where ties are common (one visit per move) and where they are not.
func TestIsmcts_PlaysTheMostVisitedThenTheBestMeanMove(t *testing.T) {
	opts := rules.Options{Players: 3, Length: rules.Short}
	ties, searched := 0, 0
	for _, seed := range []uint64{3, 5, 8} {
		st := hiddenBidPosition(t, opts, seed)
		var positions []*rules.State
		positions = append(positions, st)
		decisionsOf(t, opts, seed, func(s *rules.State, legal []int) {
			if len(legal) > 2 && s.Steps%23 == 0 {
				positions = append(positions, s.Clone())
			}
		})
		for _, p := range positions {
			seat := p.CurrentPlayer()
			var view rules.State
			p.Redact(seat, &view)
			legal := p.LegalActions(nil)
			for _, c := range []struct{ sims, workers int }{{2, 1}, {5, 1}, {6, 2}, {40, 2}} {
				cfg := DefaultConfig()
				cfg.Sims, cfg.Workers, cfg.Depth = c.sims, c.workers, 6
				b, err := New(cfg, opts, seed)
				if err != nil {
					t.Fatal(err)
				}
				got := b.Act(&view, legal)
				want, bestN, bestMean, tied := -1, -1, 0.0, false
				total := 0
				for _, a := range legal {
					n, v := 0, 0.0
					for _, w := range b.workers {
						if e := w.rootEdge(a, seat); e != nil {
							n += int(e.visits)
							v += e.value
						}
					}
					total += n
					mean := 0.0
					if n > 0 {
						mean = v / float64(n)
					}
					if n == bestN {
						tied = true
					}
					if n > bestN || n == bestN && mean > bestMean {
						want, bestN, bestMean = a, n, mean
					}
				}
				if got != want {
					t.Fatalf("seed %d step %d, %d simulations on %d trees: played %s, the most visited (then best mean) is %s",
						seed, p.Steps, c.sims, c.workers, p.ActionToMove(got), p.ActionToMove(want))
				}
				// Every simulation passes the root and adds one visit to one of its moves.
				if total != c.sims {
					t.Fatalf("seed %d step %d: %d simulations left %d root visits", seed, p.Steps, c.sims, total)
				}
				searched++
				if tied {
					ties++
				}
			}
		}
	}
	if searched < 40 || ties < 10 {
		t.Fatalf("%d searches, %d with tied visit counts: too few to mean much", searched, ties)
	}
}

// explore=N samples the first N turns' moves; from turn N on the bot plays exactly what it
// plays without explore, whatever its seed.
func TestExplore_EndsExactlyAtItsTurn(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(11)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	legal := st.LegalActions(nil)
	differs := 0
	for seed := uint64(1); seed <= 20; seed++ {
		for _, turn := range []int32{4, 5} {
			v := view
			v.Turn = turn
			b, _ := bots.New("ismcts:sims=30,depth=5,workers=1,explore=5", opts, seed)
			plain, _ := bots.New("ismcts:sims=30,depth=5,workers=1", opts, seed)
			a, want := b.Act(&v, legal), plain.Act(&v, legal)
			if turn == 5 && a != want {
				t.Fatalf("seed %d, turn 5 with explore=5: played %d, the most visited is %d", seed, a, want)
			}
			if turn == 4 && a != want {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Error("turn 4 with explore=5 never sampled another move than the most visited")
	}
}

// A time budget whose deadline has already passed still runs one simulation, so the bot
// always has a visited move to play.
func TestIsmcts_ALateDeadlineStillRunsOneSimulation(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	cfg := DefaultConfig()
	cfg.Depth = 5
	w := &worker{cfg: &cfg, legal: make([]int, 0, 256)}
	w.search(&view, st.CurrentPlayer(), 0, time.Now().Add(-time.Second))
	if w.sims != 1 {
		t.Errorf("a passed deadline: %d simulations, want 1", w.sims)
	}
}
