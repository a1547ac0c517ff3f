package cli

import (
	"fmt"
	"math"

	"github.com/container-rl/container/env/rules"
)

// The ranges of the numeric flags, checked up front by every command (one line naming the
// flag), so that no value can exhaust memory, overflow a size or reach a shape error deep in
// a run. docs/CLI.md lists them.
const (
	// maxFlagGames bounds the games of one selfplay run, tournament or demo.
	maxFlagGames = 100_000_000
	// maxFlagShards bounds a selfplay run's shards (--games / --shard-games, rounded up).
	maxFlagShards = 1_000_000
	// maxFlagMemGames bounds games held in memory at once or played for a training set
	// (train bc --games, train ppo --games and --eval-games, bench --games).
	maxFlagMemGames = 1_000_000
	// maxFlagWorkers bounds parallel workers (a worker holds a game, its bots and buffers).
	maxFlagWorkers = 4096
	// maxFlagBatch bounds rows per optimisation step (--batch, --minibatch) and games per
	// lockstep evaluation batch.
	maxFlagBatch = 65_536
	// maxFlagBuffer bounds train bc's shuffle buffer (decisions; 3.2 KB each at 773 features).
	maxFlagBuffer = 100_000_000
	// maxFlagSteps bounds optimisation steps, PPO iterations and logging intervals.
	maxFlagSteps = 100_000_000
	// maxFlagRows bounds rows printed by dataset head and actions by dataset stats --top.
	maxFlagRows = 1_000_000
	// maxFlagEpochs bounds PPO passes over one iteration's data.
	maxFlagEpochs = 1000
	// maxFlagLR and maxFlagCoef bound the learning rate and the loss weights.
	maxFlagLR   = 10.0
	maxFlagCoef = 1000.0
)

// intFlag is one integer flag's value and its allowed range.
type intFlag struct {
	name     string
	v        int
	min, max int
}

// checkIntFlags returns an error naming the first flag outside its range.
func checkIntFlags(flags ...intFlag) error {
	for _, f := range flags {
		if f.v < 0 && f.min == 0 {
			return fmt.Errorf("--%s %d is negative", f.name, f.v)
		}
		if f.v < f.min || f.v > f.max {
			return fmt.Errorf("--%s %d is outside %d..%d", f.name, f.v, f.min, f.max)
		}
	}
	return nil
}

// floatFlag is one float flag's value and its allowed range; positive excludes the minimum.
type floatFlag struct {
	name     string
	v        float64
	min, max float64
	positive bool
}

// checkFloatFlags returns an error naming the first flag outside its range (NaN and the
// infinities included).
func checkFloatFlags(flags ...floatFlag) error {
	for _, f := range flags {
		low := f.v < f.min || (f.positive && f.v <= f.min)
		if math.IsNaN(f.v) || low || f.v > f.max {
			lo := "["
			if f.positive {
				lo = "("
			}
			return fmt.Errorf("--%s %g is outside %s%g, %g]", f.name, f.v, lo, f.min, f.max)
		}
	}
	return nil
}

// turnLimitFlag is the --turn-limit flag's range (0: the rules' default).
func turnLimitFlag(v int) intFlag {
	return intFlag{"turn-limit", v, 0, rules.MaxTurnLimit}
}

// workersFlag is a --workers flag's range; zeroOK allows 0 (one per CPU).
func workersFlag(v int, zeroOK bool) intFlag {
	lo := 1
	if zeroOK {
		lo = 0
	}
	return intFlag{"workers", v, lo, maxFlagWorkers}
}
