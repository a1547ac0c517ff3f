package search

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/cputime"
)

// benchPositions are mid-game 4-player positions (valuers played up to a step), one per seed.
func benchPositions(b *testing.B) ([]*rules.State, [][]int) {
	opts := rules.DefaultOptions()
	g, _ := rules.NewGame(opts)
	var views []*rules.State
	var legals [][]int
	for seed := uint64(1); len(views) < 8; seed++ {
		st := g.NewInitialStateSeed(seed)
		bs := make([]bots.Bot, opts.Players)
		for i := range bs {
			bs[i] = bots.NewValuer(seed + uint64(i))
		}
		var view rules.State
		for step := 0; !st.IsTerminal(); step++ {
			d := st.CurrentPlayer()
			legal := st.LegalActions(nil)
			st.Redact(d, &view)
			if step >= 100+int(seed)*20 && len(legal) > 3 && st.Phase() == rules.PhaseTurn {
				views = append(views, view.Clone())
				legals = append(legals, legal)
				break
			}
			st.Apply(bs[d].Act(&view, legal))
		}
	}
	return views, legals
}

// BenchmarkIsmctsDecision measures one decision of ismcts in mid-game 4-player positions:
// simulations per second (wall, all workers) and per CPU-second (what one core does, less
// distorted on a shared machine), wall time per decision, and allocations per simulation.
//
//	go test ./env/search -run XXX -bench IsmctsDecision -benchtime 20x
func BenchmarkIsmctsDecision(b *testing.B) {
	views, legals := benchPositions(b)
	for _, spec := range []string{
		"sims=200,workers=1,rollout=valuer",
		"sims=200,workers=2,rollout=valuer",
		"sims=400,workers=1,rollout=valuer,depth=60",
		"sims=400,workers=2,rollout=valuer,depth=60",
		"sims=1000,workers=1,rollout=random,depth=60",
	} {
		b.Run(spec, func(b *testing.B) {
			cfg, err := Parse(spec)
			if err != nil {
				b.Fatal(err)
			}
			bot, err := New(cfg, rules.DefaultOptions(), 1)
			if err != nil {
				b.Fatal(err)
			}
			bot.Act(views[0], legals[0]) // warm the trees' storage
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			sims := 0
			cpu0 := cputime.Process()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % len(views)
				bot.Act(views[k], legals[k])
				sims += bot.LastStats().Sims
			}
			b.StopTimer()
			cpu := (cputime.Process() - cpu0).Seconds()
			runtime.ReadMemStats(&ms1)
			if cpu > 0 {
				b.ReportMetric(float64(sims)/cpu, "sims/cpu-s")
			}
			secs := b.Elapsed().Seconds()
			b.ReportMetric(float64(sims)/secs, "sims/s")
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(sims), "allocs/sim")
			b.ReportMetric(secs*1000/float64(b.N), "ms/decision")
		})
	}
}

func ExampleParse() {
	c, _ := Parse("sims=800,rollout=valuer")
	fmt.Println(c)
	// Output: sims=800,workers=2,rollout=valuer,depth=0,c=0.7
}

// BenchmarkIsmctsInPlay plays whole 4-player games of the default ismcts (180 simulations,
// 2 workers) against three valuers, one game per iteration (its seat rotating), and reports
// the wall time of a searched decision (forced moves are not searched) averaged over the
// game: the figure the target "decides in at most 50 ms" is about.
//
//	go test ./env/search -run XXX -bench IsmctsInPlay -benchtime 6x
func BenchmarkIsmctsInPlay(b *testing.B) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		b.Fatal(err)
	}
	var view rules.State
	legal := make([]int, 0, 256)
	var searched int
	var wall time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		seed := uint64(301 + i)
		st := g.NewInitialStateSeed(seed)
		bot, err := bots.New("ismcts", opts, seed)
		if err != nil {
			b.Fatal(err)
		}
		seat := i % opts.Players
		valuers := make([]bots.Bot, opts.Players)
		for s := range valuers {
			valuers[s] = bots.NewValuer(seed*8 + uint64(s))
		}
		for !st.IsTerminal() {
			d := st.CurrentPlayer()
			legal = st.LegalActions(legal)
			st.Redact(d, &view)
			var a int
			if d == seat && len(legal) > 1 {
				t0 := time.Now()
				a = bot.Act(&view, legal)
				wall += time.Since(t0)
				searched++
			} else {
				a = valuers[d].Act(&view, legal)
			}
			st.Apply(a)
		}
	}
	b.StopTimer()
	if searched > 0 {
		b.ReportMetric(float64(wall.Microseconds())/1000/float64(searched), "ms/decision")
		b.ReportMetric(float64(searched)/float64(b.N), "decisions/game")
	}
}
