package search

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrSpec is wrapped by every error about a bad ismcts spec.
var ErrSpec = errors.New("search: bad ismcts spec")

// Config is an ismcts bot's settings; the spec "ismcts:key=value,..." sets them (Parse).
type Config struct {
	// Sims is the number of simulations per decision, split over the workers (a
	// simulation budget makes the bot deterministic for a seed). Ignored when Time is set.
	Sims int
	// Time, when above 0, is a time budget per decision instead (not deterministic).
	Time time.Duration
	// Workers is the number of independent trees searched in parallel (root parallelism);
	// their root visit counts are summed. A fixed number, not the machine's core count, so
	// that a seed gives the same play everywhere.
	Workers int
	// Rollout is the policy that plays every seat from a new leaf: "random" or a scripted bot
	// ("manufacturer", "shipper", "valuer"). Ignored with a net unless set explicitly.
	Rollout string
	// Depth truncates rollouts after this many decisions (0: play to the end); a truncated
	// rollout is scored with the as-if-ended score margin.
	Depth int
	// C is the exploration constant (UCT: c*sqrt(ln N / n); PUCT: c*P*sqrt(N)/(1+n)).
	// Defaults: DefaultC without a net, DefaultNetC with one, DefaultNetRolloutC with a net
	// and rollouts.
	C float64
	// FPU is the first-play-urgency reduction of PUCT (with a net): a move not yet visited
	// at a node is valued at the mean outcome of the deciding seat's visited moves there
	// minus FPU (0.5 while none is visited), so that the prior, not optimism about untried
	// moves, decides what the search looks at. -1 (the default) means the old rule: every
	// untried move is valued 0.5, above the typical 4-player outcome, so the search spreads
	// its visits over all moves. Ignored without a net (UCT tries every move once).
	FPU float64
	// Net names a network that guides the search ("default" or a .bot file): PUCT with its
	// policy as the prior, and its value head scores the leaves (unless Rollout is set too).
	Net string
	// Value names a second network ("default", an embedded value network's name such as
	// "value-4p" (models/MANIFEST.json), or a .bot file, e.g. one trained with
	// container train bc --value-only) whose value head scores the leaves instead of Net's,
	// while Net's policy stays the prior: a separate policy and value network, as in AlphaGo.
	// Needs Net and a leaf that reads a value (leaf=value or leaf=mix).
	Value string
	// Explore, when above 0, plays a move drawn in proportion to the root visit counts
	// (instead of the most visited one) while fewer than Explore turns have been played: the
	// opening variety that search-guided self-play (container train exit) needs.
	Explore int
	// AnyLoan makes every legal loan a candidate move (spec loans=any), as before commit
	// 21aadbd (2026-12-02); by default (loans=useful) the search considers a loan only where its cash would make
	// another move legal at that decision (see loanUseful).
	AnyLoan bool
	// Leaf says how a new leaf is scored with a net: LeafValue (the value head), LeafRollout
	// (a rollout by Rollout; naming rollout= with a net means this too) or LeafMix ((1-Mix)
	// times the value head plus Mix times a rollout's outcome, AlphaGo's mixed evaluation;
	// with Depth the rollouts are short). Without a net leaves are always rollouts.
	Leaf string
	// Mix is the rollout's weight in a LeafMix evaluation, 0 to 1.
	Mix float64
	// rolloutSet records that the spec named a rollout (with a net: rollouts score leaves).
	rolloutSet bool
}

// Leaf evaluations (Config.Leaf).
const (
	LeafValue   = "value"
	LeafRollout = "rollout"
	LeafMix     = "mix"
	// DefaultMix is the rollout's weight of leaf=mix.
	DefaultMix = 0.5
)

// rollouts reports whether the search's leaves play rollouts (all of them, or mixed).
func (c *Config) rollouts() bool { return c.Net == "" || c.rolloutSet || c.Leaf == LeafMix }

// Defaults of the spec keys.
const (
	DefaultSims    = 180
	DefaultWorkers = 2
	DefaultRollout = "valuer"
	DefaultDepth   = 0
	DefaultC       = 0.7
	DefaultNetC    = 1.5
	// DefaultNetRolloutC is c with a net whose leaves rollouts score (net= with rollout=):
	// a lighter prior, measured better against both yardsticks (2026-12-02, commit 151c8ff;
	// docs/BOTS.md).
	DefaultNetRolloutC = 0.5
	DefaultFPU         = -1
	// MaxSims bounds sims; MaxTime bounds ms; MaxWorkers bounds workers.
	MaxSims    = 10_000_000
	MaxTime    = 10 * time.Minute
	MaxWorkers = 256
	MaxDepth   = 100_000
	// MaxExplore bounds explore (turns); rules.MaxTurnLimit.
	MaxExplore = 100_000
)

// Rollouts are the accepted rollout policies.
var Rollouts = []string{"random", "manufacturer", "shipper", "valuer"}

// Keys are the accepted spec keys.
var Keys = []string{"sims", "ms", "workers", "rollout", "depth", "c", "fpu", "net", "value", "leaf", "mix", "explore", "loans"}

// DefaultConfig is the configuration of the bare spec "ismcts".
func DefaultConfig() Config {
	return Config{Sims: DefaultSims, Workers: DefaultWorkers, Rollout: DefaultRollout, Depth: DefaultDepth, C: DefaultC, FPU: DefaultFPU, Mix: DefaultMix}
}

// Parse reads the parameters of a spec "ismcts:PARAMS": comma-separated key=value pairs
// (Keys) over DefaultConfig. An unknown key or a bad value is an error naming the key and
// what it accepts.
func Parse(params string) (Config, error) {
	c := DefaultConfig()
	seen := map[string]bool{}
	cSet := false
	for _, kv := range strings.Split(params, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(strings.ToLower(k)), strings.TrimSpace(v)
		if !ok || v == "" {
			return c, fmt.Errorf("%w: %q is not key=value (keys: %s)", ErrSpec, kv, strings.Join(Keys, ", "))
		}
		if seen[k] {
			return c, fmt.Errorf("%w: key %q given twice", ErrSpec, k)
		}
		seen[k] = true
		intIn := func(lo, hi int) (int, error) {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				return 0, fmt.Errorf("%w: %s=%s: want a whole number from %d to %d", ErrSpec, k, v, lo, hi)
			}
			return n, nil
		}
		var err error
		switch k {
		case "sims":
			c.Sims, err = intIn(1, MaxSims)
		case "ms":
			var ms int
			ms, err = intIn(1, int(MaxTime/time.Millisecond))
			c.Time = time.Duration(ms) * time.Millisecond
		case "workers":
			c.Workers, err = intIn(1, MaxWorkers)
		case "depth":
			c.Depth, err = intIn(0, MaxDepth)
		case "c":
			f, perr := strconv.ParseFloat(v, 64)
			if perr != nil || math.IsNaN(f) || f < 0 || f > 100 {
				err = fmt.Errorf("%w: c=%s: want an exploration constant from 0 to 100", ErrSpec, v)
			}
			c.C, cSet = f, true
		case "fpu":
			f, perr := strconv.ParseFloat(v, 64)
			if perr != nil || (f != -1 && !(f >= 0 && f <= 1)) {
				err = fmt.Errorf("%w: fpu=%s: want a first-play-urgency reduction from 0 to 1 (or -1: untried moves valued 0.5)", ErrSpec, v)
			}
			c.FPU = f
		case "rollout":
			v = strings.ToLower(v)
			found := false
			for _, r := range Rollouts {
				found = found || r == v
			}
			if !found {
				err = fmt.Errorf("%w: rollout=%s: want one of %s", ErrSpec, v, strings.Join(Rollouts, ", "))
			}
			c.Rollout, c.rolloutSet = v, true
		case "net":
			c.Net = v
		case "value":
			c.Value = v
		case "leaf":
			v = strings.ToLower(v)
			if v != LeafValue && v != LeafRollout && v != LeafMix {
				err = fmt.Errorf("%w: leaf=%s: want value (the net's value head), rollout or mix (both)", ErrSpec, v)
			}
			c.Leaf = v
		case "mix":
			f, perr := strconv.ParseFloat(v, 64)
			if perr != nil || !(f >= 0 && f <= 1) {
				err = fmt.Errorf("%w: mix=%s: want the rollout's weight in leaf=mix from 0 to 1", ErrSpec, v)
			}
			c.Mix = f
		case "explore":
			c.Explore, err = intIn(0, MaxExplore)
		case "loans":
			switch strings.ToLower(v) {
			case "useful":
				c.AnyLoan = false
			case "any":
				c.AnyLoan = true
			default:
				err = fmt.Errorf("%w: loans=%s: want useful (a loan only where its cash opens a move) or any", ErrSpec, v)
			}
		default:
			err = fmt.Errorf("%w: unknown key %q (keys: %s)", ErrSpec, k, strings.Join(Keys, ", "))
		}
		if err != nil {
			return c, err
		}
	}
	if seen["sims"] && seen["ms"] {
		return c, fmt.Errorf("%w: sims and ms both given; a budget is simulations (sims=N) or time (ms=N), not both", ErrSpec)
	}
	switch {
	case c.Net == "" && (c.Leaf == LeafValue || c.Leaf == LeafMix):
		return c, fmt.Errorf("%w: leaf=%s needs a value head: add net=default or net=FILE.bot", ErrSpec, c.Leaf)
	case seen["mix"] && c.Leaf != LeafMix:
		return c, fmt.Errorf("%w: mix=%s weighs the rollouts of leaf=mix; add leaf=mix", ErrSpec, strconv.FormatFloat(c.Mix, 'g', -1, 64))
	case c.Leaf == LeafValue && c.rolloutSet:
		return c, fmt.Errorf("%w: rollout=%s with leaf=value: the value head alone scores the leaves; drop one", ErrSpec, c.Rollout)
	case c.Value != "" && c.Net == "":
		return c, fmt.Errorf("%w: value=%s scores the leaves of a search guided by a net's prior: add net=default or net=FILE.bot", ErrSpec, c.Value)
	case c.Value != "" && (c.Leaf == LeafRollout || (c.Leaf == "" && c.rolloutSet)):
		return c, fmt.Errorf("%w: value=%s with rollout leaves: rollouts alone score the leaves; use leaf=value or leaf=mix, or drop value", ErrSpec, c.Value)
	}
	if c.Net == "" {
		c.rolloutSet = false // without a net, rollouts always score the leaves
		c.Leaf = ""
	}
	if c.Leaf == LeafRollout && c.Net != "" {
		c.rolloutSet = true
	}
	if c.Leaf == LeafMix {
		c.rolloutSet = false
	}
	if c.Net != "" && c.Leaf == "" {
		c.Leaf = LeafValue
		if c.rolloutSet {
			c.Leaf = LeafRollout
		}
	}
	if c.Net != "" && !cSet {
		c.C = DefaultNetC
		if c.rolloutSet || c.Leaf == LeafMix {
			c.C = DefaultNetRolloutC
		}
	}
	return c, nil
}

// String writes the configuration as a spec's parameters (Parse reads it back).
func (c Config) String() string {
	var parts []string
	if c.Time > 0 {
		parts = append(parts, fmt.Sprintf("ms=%d", c.Time/time.Millisecond))
	} else {
		parts = append(parts, fmt.Sprintf("sims=%d", c.Sims))
	}
	parts = append(parts, fmt.Sprintf("workers=%d", c.Workers))
	if c.rollouts() {
		parts = append(parts, "rollout="+c.Rollout, fmt.Sprintf("depth=%d", c.Depth))
	}
	parts = append(parts, "c="+strconv.FormatFloat(c.C, 'g', -1, 64))
	if c.Net != "" {
		parts = append(parts, "fpu="+strconv.FormatFloat(c.FPU, 'g', -1, 64), "net="+c.Net)
		if c.Value != "" {
			parts = append(parts, "value="+c.Value)
		}
		if c.Leaf == LeafMix {
			parts = append(parts, "leaf=mix", "mix="+strconv.FormatFloat(c.Mix, 'g', -1, 64))
		}
	}
	if c.Explore > 0 {
		parts = append(parts, fmt.Sprintf("explore=%d", c.Explore))
	}
	if c.AnyLoan {
		parts = append(parts, "loans=any")
	}
	return strings.Join(parts, ",")
}
