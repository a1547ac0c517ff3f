package training

import (
	"runtime"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
	"github.com/container-rl/container/internal/cputime"
)

// BenchmarkIsmctsNet measures one decision of ismcts guided by the default network (PUCT
// prior and value head) in mid-game 4-player positions: simulations per second (wall, all
// workers) and per CPU-second, wall time per decision and allocations per simulation.
//
//	go test ./training -run XXX -bench IsmctsNet -benchtime 40x
func BenchmarkIsmctsNet(b *testing.B) {
	opts := rules.DefaultOptions()
	g, _ := rules.NewGame(opts)
	// Mid-game positions: valuers played up to a step, one per seed.
	var views []*rules.State
	var legals [][]int
	for seed := uint64(1); len(views) < 8; seed++ {
		st := g.NewInitialStateSeed(seed)
		var view rules.State
		v := bots.NewValuer(seed)
		for step := 0; !st.IsTerminal(); step++ {
			legal := st.LegalActions(nil)
			st.Redact(st.CurrentPlayer(), &view)
			if step >= 100+int(seed)*20 && len(legal) > 3 && st.Phase() == rules.PhaseTurn {
				views, legals = append(views, view.Clone()), append(legals, legal)
				break
			}
			st.Apply(v.Act(&view, legal))
		}
	}
	for _, spec := range []string{"sims=200,workers=1,net=default", "sims=200,workers=2,net=default", "sims=800,workers=2,net=default",
		// The leaf evaluations measured against each other (docs/BOTS.md, "Searching with the value head").
		"sims=200,workers=1,net=default,rollout=valuer", "sims=200,workers=1,net=default,leaf=mix",
		"sims=200,workers=1,net=default,leaf=mix,depth=40"} {
		b.Run(spec, func(b *testing.B) {
			cfg, err := search.Parse(spec)
			if err != nil {
				b.Fatal(err)
			}
			bot, err := search.New(cfg, opts, 1)
			if err != nil {
				b.Skip(err)
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
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(sims), "B/sim")
			b.ReportMetric(secs*1000/float64(b.N), "ms/decision")
		})
	}
}
