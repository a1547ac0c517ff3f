package bots

import (
	"math/rand/v2"

	"github.com/container-rl/container/env/rules"
)

// Random plays a uniformly random legal action.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a random bot seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
}

// Name implements Bot.
func (r *Random) Name() string { return "random" }

// Act implements Bot.
func (r *Random) Act(_ *rules.State, legal []int) int {
	if len(legal) == 0 {
		return -1
	}
	return legal[r.rng.IntN(len(legal))]
}

func init() {
	mustRegister("random", "uniformly random legal action (the baseline every bot must beat)",
		func(_ rules.Options, seed uint64) (Bot, error) { return NewRandom(seed), nil })
}

// Seed implements Seeder.
func (r *Random) Seed(seed uint64) { *r = *NewRandom(seed) }
