package bridge

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/container-rl/container/env"
)

// BenchVec measures Go's VecEnv the way env's BenchmarkVecEnv does (n 4-player games, a
// random legal action per game picked serially in Go, iters lockstep steps) and returns
// game steps per second of wall time, counting the policy. The Python benchmark calls it in
// the same process to compare its vector env with Go's under the same machine load.
func BenchVec(n, workers, iters int, seed uint64) (float64, error) {
	if n < 1 || n > MaxVecGames || iters < 1 || workers < 1 || workers > 1024 {
		return 0, fmt.Errorf("%w: bench: %d games, %d workers, %d iterations", ErrInvalid, n, workers, iters)
	}
	v, err := env.NewVec(n, env.DefaultOptions(), seed, workers)
	if err != nil {
		return 0, err
	}
	defer v.Close()
	rng := rand.New(rand.NewPCG(seed, 4))
	actions := make([]int, n)
	t0 := time.Now()
	for it := 0; it < iters; it++ {
		for g := range actions {
			legal := v.Env(g).Legal()
			actions[g] = legal[rng.IntN(len(legal))]
		}
		if err := v.Step(actions); err != nil {
			return 0, err
		}
	}
	return float64(n*iters) / time.Since(t0).Seconds(), nil
}
