package env

import (
	"fmt"
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// A worker claims its games in batches of vecBatch. With more games per worker than one batch
// (and with a whole number of batches per worker), every step must still step every game
// exactly once: the result equals the serial VecEnv's, step by step.
func TestVecEnvWithSeveralBatchesPerWorkerIsTheSameAsOneWorker(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}, Reward: Rank}
	for _, c := range []struct{ games, workers int }{{16, 2}, {40, 2}, {37, 3}} {
		t.Run(fmt.Sprintf("%d games on %d workers", c.games, c.workers), func(t *testing.T) {
			one, err := NewVec(c.games, o, 11, 1)
			if err != nil {
				t.Fatal(err)
			}
			many, err := NewVec(c.games, o, 11, c.workers)
			if err != nil {
				t.Fatal(err)
			}
			defer many.Close()
			var a []int
			for step := 0; step < 600; step++ {
				a = vecActions(one, step, a)
				if err := one.Step(a); err != nil {
					t.Fatal(err)
				}
				if err := many.Step(a); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(one.Obs, many.Obs) || !slices.Equal(one.Mask, many.Mask) || !slices.Equal(one.Rewards, many.Rewards) ||
					!slices.Equal(one.Agents, many.Agents) || !slices.Equal(one.Terminated, many.Terminated) || !slices.Equal(one.Episodes, many.Episodes) {
					t.Fatalf("step %d: 1 and %d workers disagree", step, c.workers)
				}
			}
		})
	}
}
