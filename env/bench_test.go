package env

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/cputime"
)

// BenchmarkEnvStep is one random-play step with the next decider's observation and mask
// encoded (what self-play with a network costs, minus the network). It reports steps/s.
func BenchmarkEnvStep(b *testing.B) {
	for _, p := range []int{3, 4, 5} {
		b.Run(fmt.Sprintf("players=%d", p), func(b *testing.B) {
			e, err := New(Options{Rules: rules.Options{Players: p}})
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			e.Reset(rng.Uint64())
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if e.Done() {
					e.Reset(rng.Uint64())
				}
				legal := e.Legal()
				e.step(legal[rng.IntN(len(legal))])
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkVecEnv steps 64 or 256 4-player games in lockstep on 1 and 2 workers; steps/s
// counts game steps (one per game per VecEnv.Step). The policy picks a random legal action
// per game. "cores" is the CPU actually used, "steps/cpu-s" the throughput per CPU-second,
// "helped" the share of game steps the helper goroutines took.
func BenchmarkVecEnv(b *testing.B) {
	for _, n := range []int{64, 256} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("games=%d/workers=%d", n, w), func(b *testing.B) { benchVec(b, n, w) })
		}
	}
}

func benchVec(b *testing.B, n, w int) {
	v, err := NewVec(n, DefaultOptions(), 1, w)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	actions := make([]int, v.N)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	var stepTime time.Duration
	for i := 0; i < b.N; i++ {
		for g := range actions {
			legal := v.Env(g).Legal()
			actions[g] = legal[rng.IntN(len(legal))]
		}
		t0 := time.Now()
		if err := v.Step(actions); err != nil {
			b.Fatal(err)
		}
		stepTime += time.Since(t0)
	}
	b.ReportMetric(float64(b.N*v.N)/b.Elapsed().Seconds(), "steps/s")
	// The policy above runs serially on the caller; env-steps/s counts only the time spent in
	// VecEnv.Step, which is what the worker count parallelises.
	b.ReportMetric(float64(b.N*v.N)/stepTime.Seconds(), "env-steps/s")
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		// Cores actually used: below the worker count when other jobs share the machine.
		b.ReportMetric(cpu/b.Elapsed().Seconds(), "cores")
		b.ReportMetric(float64(b.N*v.N)/cpu, "steps/cpu-s")
	}
	if w > 1 {
		// Share of the game steps the helper goroutines took (ideal: (w-1)/w).
		b.ReportMetric(float64(v.helped.Load())/float64(b.N*v.N), "helped")
	}
}
