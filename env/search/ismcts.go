package search

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Name is the bot's registry name.
const Name = "ismcts"

// Bot is an Information Set Monte Carlo Tree Search player (single-observer ISMCTS with
// partially observable moves; Cowling, Powley and Whitehouse 2012). It searches from its own
// redacted view only: every simulation samples a determinization of the hidden parts
// (Determinize), descends a tree of the searching seat's information sets in which every seat
// picks its moves by UCT (or PUCT with a network prior) on its own outcome, expands one
// node, scores it with a rollout or a network's value, and backs up each seat's outcome into
// the moves that seat chose. Other seats' sealed bids are not seen by the searching seat, so
// they all lead to one shared child node. Root parallelism: Workers trees, each with its own
// seed derived from the bot's seed and the position; their root visit counts are summed and
// the most visited move is played.
type Bot struct {
	cfg     Config
	opts    rules.Options
	seed    uint64
	workers []*worker
	spec    string
	last    Stats
}

// New makes an ismcts bot for games with opts. A net that cannot play opts is refused here.
func New(cfg Config, opts rules.Options, seed uint64) (*Bot, error) {
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	if cfg.Sims < 1 && cfg.Time <= 0 {
		return nil, fmt.Errorf("%w: no budget (sims or ms)", ErrSpec)
	}
	b := &Bot{cfg: cfg, opts: opts, seed: seed, spec: Name + ":" + cfg.String()}
	for k := 0; k < cfg.Workers; k++ {
		w := &worker{cfg: &b.cfg, legal: make([]int, 0, 256)}
		if cfg.Net != "" {
			ev, err := newEvaluator(cfg.Net, opts)
			if err != nil {
				return nil, err
			}
			if cfg.Value != "" {
				vev, err := newEvaluator(cfg.Value, opts)
				if err != nil {
					return nil, fmt.Errorf("search: value=%s: %w", cfg.Value, err)
				}
				ev = &splitEvaluator{prior: ev, value: vev}
			}
			w.eval = ev
			w.prior = make([]float32, 0, 256)
		}
		if cfg.rollouts() {
			switch cfg.Rollout {
			case "random":
			default:
				p, err := bots.New(cfg.Rollout, opts, seed+uint64(k))
				if err != nil {
					return nil, fmt.Errorf("search: rollout policy: %w", err)
				}
				w.policy = p
			}
		}
		b.workers = append(b.workers, w)
	}
	return b, nil
}

// Name implements bots.Bot: the spec with every setting spelled out.
func (b *Bot) Name() string { return b.spec }

// Seed implements bots.Seeder.
func (b *Bot) Seed(seed uint64) { b.seed = seed }

// Config returns the bot's settings.
func (b *Bot) Config() Config { return b.cfg }

// Stats are the figures of the last decision (for benchmarks and reports).
type Stats struct {
	Sims    int           // simulations run, all workers together
	Elapsed time.Duration // wall time of the search
	Nodes   int           // tree nodes, all workers together
}

// Err returns the first error a worker's network evaluation gave (nil if none). A failed
// evaluation does not stop the search: that leaf gets a uniform prior and the value 0.5 for
// every seat, so the move is still legal, and Err tells a caller the play was degraded.
func (b *Bot) Err() error {
	for _, w := range b.workers {
		if w.err != nil {
			return w.err
		}
	}
	return nil
}

// LastStats returns the figures of the last searched decision.
func (b *Bot) LastStats() Stats { return b.last }

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Act implements bots.Bot: it searches view (the bot's redacted view) and plays the most
// visited legal action. A single legal action is played without a search.
func (b *Bot) Act(view *rules.State, legal []int) int {
	if len(legal) == 0 {
		return -1
	}
	if len(legal) == 1 {
		return legal[0]
	}
	start := time.Now()
	seat := view.CurrentPlayer()
	base := mix(b.seed ^ mix(view.Hash()))
	var deadline time.Time
	if b.cfg.Time > 0 {
		deadline = start.Add(b.cfg.Time)
	}
	W := len(b.workers)
	var wg sync.WaitGroup
	for k, w := range b.workers {
		sims := 0
		if b.cfg.Time <= 0 {
			sims = b.cfg.Sims / W
			if k < b.cfg.Sims%W {
				sims++
			}
		}
		w.pcg.Seed(base, uint64(k)+1)
		if sd, ok := w.policy.(bots.Seeder); ok {
			sd.Seed(mix(base + uint64(k) + 1)) // the rollouts too depend on the seed and view only
		}
		if k == W-1 {
			w.search(view, seat, sims, deadline)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.search(view, seat, sims, deadline)
		}()
	}
	wg.Wait()
	// Sum the root visits over the workers; the most visited legal action wins (then the
	// higher value, then the lower id).
	best, bestN, bestV := -1, -1, math.Inf(-1)
	st := Stats{Elapsed: time.Since(start)}
	for _, a := range legal {
		n, v := 0, 0.0
		for _, w := range b.workers {
			if e := w.rootEdge(a, seat); e != nil {
				n += int(e.visits)
				v += e.value
			}
		}
		mean := 0.0
		if n > 0 {
			mean = v / float64(n)
		}
		if n > bestN || (n == bestN && mean > bestV) {
			best, bestN, bestV = a, n, mean
		}
	}
	for _, w := range b.workers {
		st.Sims += w.sims
		st.Nodes += len(w.nodes)
	}
	b.last = st
	if best < 0 {
		return legal[0]
	}
	if b.cfg.Explore > 0 && int(view.Turn) < b.cfg.Explore {
		return b.sampleVisits(legal, seat, base, best)
	}
	return best
}
