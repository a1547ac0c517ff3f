package cli

import (
	"fmt"
	"math"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
	"github.com/container-rl/container/training"
)

// The ranges of the numeric flags, checked up front by every command (one line naming the
// flag), so that no value can exhaust memory, overflow a size or reach a shape error deep in
// a run. flagRanges below lists them per command; container help flags prints them.
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
	// maxFlagSessions bounds serve --max-games (games and replays open at once).
	maxFlagSessions = 100_000
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

// numRange is the allowed range of one numeric flag: min..max, or (min, max] where openMin
// (the minimum itself refused).
type numRange struct {
	flag     string
	min, max float64
	openMin  bool
}

// minPlayers is the fewest players a game of Container has (rules.Options.Validate).
const minPlayers = 3

// Ranges several commands share.
var (
	// turnLimitRange: 0 is the rules' default limit.
	turnLimitRange = numRange{flag: "turn-limit", max: rules.MaxTurnLimit}
	// playersRange is --players where the command needs the count itself.
	playersRange = numRange{flag: "players", min: minPlayers, max: rules.MaxPlayers}
	// playersFromAgentsRange is --players where 0 means the number of agents (if 3 to 5, else
	// 4); 1 and 2 pass this check and are refused by the rules (rules.Options.Validate).
	playersFromAgentsRange = numRange{flag: "players", max: rules.MaxPlayers}
	// workersRange and workersOrZeroRange are --workers (0: one per CPU).
	workersRange       = numRange{flag: "workers", min: 1, max: maxFlagWorkers}
	workersOrZeroRange = numRange{flag: "workers", max: maxFlagWorkers}
	// netRanges are the network and optimiser flags of train bc and train exit (netFlags).
	netRanges = []numRange{{flag: "width", min: 1, max: training.MaxWidth}, {flag: "depth", min: 1, max: training.MaxDepth},
		{flag: "lr", max: maxFlagLR, openMin: true}, {flag: "value-coef", max: maxFlagCoef}}
	evalRanges = []numRange{{flag: "games", min: 1, max: maxFlagGames}, workersOrZeroRange,
		{flag: "batch", max: maxFlagBatch}, playersFromAgentsRange, turnLimitRange}
)

// flagRanges lists, per command (its path without "container"), the ranges its numeric flags
// are checked against before any work: the checks read them from here (intIn, floatIn) and
// container help flags prints them, so the two cannot disagree (help_flags_test.go checks
// that every entry names a flag of its command and that a value outside it is refused).
var flagRanges = map[string][]numRange{
	"selfplay": {{flag: "games", min: 1, max: maxFlagGames}, workersOrZeroRange,
		{flag: "shard-games", min: 1, max: maxFlagGames}, playersFromAgentsRange, turnLimitRange},
	"eval": evalRanges,
	"rate": evalRanges, // rate runs eval's code
	"bench": {{flag: "games", min: 1, max: maxFlagMemGames}, workersRange, {flag: "batch", min: 1, max: maxFlagBatch},
		{flag: "steps", min: 1, max: maxFlagSteps}, {flag: "width", min: 1, max: training.MaxWidth}, playersRange,
		turnLimitRange},
	"spec":          {playersRange},
	"play":          {playersRange, turnLimitRange},
	"dataset stats": {{flag: "top", max: maxFlagRows}},
	"dataset head":  {{flag: "rows", max: maxFlagRows}},
	"demo": {{flag: "games", min: 1, max: maxFlagMemGames}, {flag: "eval-games", min: 1, max: maxFlagMemGames},
		{flag: "train-steps", min: 1, max: maxFlagSteps}},
	"serve": {{flag: "max-games", min: 1, max: maxFlagSessions}},
	"train bc": append(netRanges[:len(netRanges):len(netRanges)], numRange{flag: "steps", min: 1, max: maxFlagSteps},
		numRange{flag: "batch", min: 1, max: maxFlagBatch}, numRange{flag: "log-every", min: 1, max: maxFlagSteps},
		numRange{flag: "checkpoint-every", min: 1, max: maxFlagSteps}, numRange{flag: "val-percent", max: 50},
		numRange{flag: "games", min: 1, max: maxFlagMemGames}, numRange{flag: "buffer", min: 1, max: maxFlagBuffer}),
	"train ppo": append(netRanges[:len(netRanges):len(netRanges)], numRange{flag: "iterations", min: 1, max: maxFlagSteps},
		numRange{flag: "games", min: 1, max: maxFlagBatch}, numRange{flag: "epochs", min: 1, max: maxFlagEpochs},
		numRange{flag: "minibatch", min: 1, max: maxFlagBatch}, numRange{flag: "pool-every", max: maxFlagSteps},
		numRange{flag: "snapshot-every", max: maxFlagSteps}, numRange{flag: "eval-every", max: maxFlagSteps},
		numRange{flag: "eval-games", min: 1, max: maxFlagMemGames},
		numRange{flag: "checkpoint-every", min: 1, max: maxFlagSteps},
		numRange{flag: "max-steps", max: rules.MaxTurnLimit * rules.MaxStepsPerTurn},
		numRange{flag: "entropy-coef", max: maxFlagCoef}, playersRange),
	"train exit": append(netRanges[:len(netRanges):len(netRanges)], numRange{flag: "generations", min: 1, max: maxFlagSteps},
		numRange{flag: "games", min: 1, max: maxFlagMemGames}, numRange{flag: "shard-games", min: 1, max: maxFlagMemGames},
		numRange{flag: "sims", min: 1, max: search.MaxSims}, numRange{flag: "explore", max: search.MaxExplore},
		numRange{flag: "window", min: 1, max: 1000}, numRange{flag: "buffer", min: 1, max: maxFlagBuffer},
		numRange{flag: "steps", min: 1, max: maxFlagSteps},
		numRange{flag: "batch", min: 1, max: maxFlagBatch}, numRange{flag: "gate-every", max: maxFlagSteps},
		numRange{flag: "gate-games", min: 1, max: maxFlagMemGames},
		numRange{flag: "selfplay-turn-limit", max: rules.MaxTurnLimit}, workersRange,
		numRange{flag: "c", max: 100}, numRange{flag: "value-mix", max: 1}, numRange{flag: "gate-margin", min: -1, max: 1},
		numRange{flag: "gate-turn-limit-share", max: 1}, numRange{flag: "gate-opponent-drop", max: 1}, playersRange),
}

// rangeOf returns cmd's range for flag. A missing entry is a mistake in this file, caught by
// help_flags_test.go, which runs every check.
func rangeOf(cmd, flag string) numRange {
	r, ok := findRange(flagRanges[cmd], flag)
	if !ok {
		panic("cli: no range for " + cmd + " --" + flag)
	}
	return r
}

// findRange returns flag's range in rs.
func findRange(rs []numRange, flag string) (numRange, bool) {
	for _, r := range rs {
		if r.flag == flag {
			return r, true
		}
	}
	return numRange{}, false
}

// netRange is the range of a network or optimiser flag (netRanges).
func netRange(flag string) numRange {
	r, ok := findRange(netRanges, flag)
	if !ok {
		panic("cli: no range for --" + flag)
	}
	return r
}

// intIn is the integer flag cmd --flag with value v and its range from flagRanges.
func intIn(cmd, flag string, v int) intFlag { return rangeOf(cmd, flag).with(v) }

// floatIn is the float flag cmd --flag with value v and its range from flagRanges.
func floatIn(cmd, flag string, v float64) floatFlag { return rangeOf(cmd, flag).withFloat(v) }

// with is r as an integer flag with value v (for the ranges several commands share).
func (r numRange) with(v int) intFlag { return intFlag{r.flag, v, int(r.min), int(r.max)} }

// withFloat is r as a float flag with value v.
func (r numRange) withFloat(v float64) floatFlag {
	return floatFlag{r.flag, v, r.min, r.max, r.openMin}
}
