package bridge

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/container-rl/container/env"
)

// newTestEnv makes a bridge env with Go-allocated buffers.
func newTestEnv(tb testing.TB, opts string) (int64, EnvBuffers) {
	tb.Helper()
	s, err := SizesOf(opts)
	if err != nil {
		tb.Fatal(err)
	}
	b := EnvBuffers{Obs: make([]float32, s.Obs), Mask: make([]int8, s.Actions), Legal: make([]int32, s.Actions),
		Rewards: make([]float32, s.Players), Since: make([]float32, s.Players), Total: make([]float32, s.Players),
		Status: make([]int64, StatusLen)}
	h, err := NewEnv(opts, b)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = Free(h) })
	return h, b
}

// BenchmarkBridgeEnvStep is one random step through the bridge (what ctr_env_step does
// after the cgo transition): step, encode, copy into the caller's buffers. Compare with
// env's BenchmarkEnvStep for the bridge's own cost.
func BenchmarkBridgeEnvStep(b *testing.B) {
	h, buf := newTestEnv(b, "")
	rng := rand.New(rand.NewPCG(1, 2))
	if err := EnvReset(h, 1, ""); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if buf.Status[StAgent] < 0 {
			_ = EnvReset(h, rng.Uint64(), "")
		}
		n := buf.Status[StNumLegal]
		if err := EnvStep(h, int(buf.Legal[rng.IntN(int(n))])); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkBridgeEnvOnly is env.Env stepping alone, in the same run, for comparison.
func BenchmarkBridgeEnvOnly(b *testing.B) {
	e, err := env.New(env.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	e.Reset(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if e.Done() {
			e.Reset(rng.Uint64())
		}
		l := e.Legal()
		if _, err := e.Step(l[rng.IntN(len(l))]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkBridgeVecStep is the vector env as the Python package drives it (every output
// buffer, legal lists and byte masks included; the policy picks from the legal rows), 256
// games on one worker, next to Go's plain VecEnv with the same policy cost: the difference
// is the bridge's extra outputs.
func BenchmarkBridgeVecStep(b *testing.B) {
	const n = 256
	for _, outputs := range []bool{true, false} {
		b.Run(fmt.Sprintf("outputs=%v", outputs), func(b *testing.B) {
			s, _ := VecSizes(n, "")
			vb := env.VecBuffers{Obs: make([]float32, n*s.Obs), Mask: make([]float32, n*s.Actions), Rewards: make([]float32, n*s.Players),
				Agents: make([]int, n), Terminated: make([]bool, n), Truncated: make([]bool, n)}
			if outputs {
				vb.Legal, vb.NumLegal, vb.Mask8 = make([]int32, n*s.Actions), make([]int32, n), make([]int8, n*s.Actions)
			}
			v, err := env.NewVecInto(n, env.DefaultOptions(), 1, 1, vb)
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			rng := rand.New(rand.NewPCG(1, 2))
			actions := make([]int, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for g := range actions {
					if outputs {
						actions[g] = int(vb.Legal[g*s.Actions+rng.IntN(int(vb.NumLegal[g]))])
					} else {
						l := v.Env(g).Legal()
						actions[g] = l[rng.IntN(len(l))]
					}
				}
				if err := v.Step(actions); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
