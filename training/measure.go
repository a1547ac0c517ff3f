package training

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/cputime"
	"github.com/gomlx/gomlx/backends"
	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // GoMLX graph DSL
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// MeasureOptions configure MeasureTraining.
type MeasureOptions struct {
	Width, Depth int    // network trunk (the default network: 128, 2)
	Batch        int    // BC minibatch rows
	Steps        int    // timed BC steps (after Warmup untimed ones)
	Warmup       int    // untimed steps first: they compile the few compacted graph shapes
	Games        int    // scripted games whose decisions feed the BC steps
	Positions    int    // positions per batched inference call
	Seed         uint64 // games, network initialisation and minibatch sampling
}

// DefaultMeasureOptions measure the default network with the default BC batch.
func DefaultMeasureOptions() MeasureOptions {
	net := DefaultNetConfig(0, 0, 0)
	return MeasureOptions{Width: net.Width, Depth: net.Depth, Batch: 256, Steps: 100, Warmup: 20, Games: 8, Positions: 256, Seed: 1}
}

// Measurement is what MeasureTraining reports.
type Measurement struct {
	Backend        string  `json:"backend"`
	Players        int     `json:"players"`
	ObsDim         int     `json:"obs_dim"`
	Width          int     `json:"width"`
	Depth          int     `json:"depth"`
	Batch          int     `json:"batch"`
	Steps          int     `json:"steps"`
	BCSeconds      float64 `json:"bc_seconds"`
	BCSamplesPerS  float64 `json:"bc_samples_per_s"`
	Decisions      int     `json:"decisions"`
	DecisionsPerS  float64 `json:"decisions_per_s"`
	DecisionsBatch int     `json:"decisions_batch"`
	// The network's forward pass on the backend (what a GPU runs for batched inference):
	// Batch rows per call, outputs copied back to the host, encoding excluded. Bots use the
	// Go forward pass (DecisionsPerS) whatever the backend.
	ForwardRowsPerS float64 `json:"forward_rows_per_s"`
	// Per CPU-second of this process (0 where it cannot be read): what the cores did,
	// less distorted than the wall-clock rates on a machine shared with other jobs.
	BCSamplesPerCPUS float64 `json:"bc_samples_per_cpu_s"`
	DecisionsPerCPUS float64 `json:"decisions_per_cpu_s"`
}

// MeasureTraining measures, for games with opts, behaviour-cloning samples/s (full
// optimisation steps on minibatches drawn from real decisions of scripted games, batch
// assembly included, as `container train bc` runs them) and batched bot decisions/s
// (NetBot.ActBatch on positions of random games, encoding included), on the backend
// NewBackend returns. It is what `container bench --train` prints.
func MeasureTraining(opts rules.Options, m MeasureOptions) (*Measurement, error) {
	if m.Width < 1 || m.Depth < 1 || m.Batch < 1 || m.Steps < 1 || m.Warmup < 0 || m.Games < 1 || m.Positions < 1 {
		return nil, fmt.Errorf("%w: measure: width %d, depth %d, batch %d, steps %d, warm-up %d, games %d, positions %d",
			ErrConfig, m.Width, m.Depth, m.Batch, m.Steps, m.Warmup, m.Games, m.Positions)
	}
	teachers := []string{"valuer", "shipper", "manufacturer", "valuer", "shipper"}[:opts.Players]
	s, err := CollectSamples(teachers, nil, m.Games, opts, env.WinLoss, m.Seed, 0)
	if err != nil {
		return nil, err
	}
	cfg := NetConfig{ObsDim: s.ObsDim, NumActions: s.NumActions, ValueDim: s.ValueDim, Width: m.Width, Depth: m.Depth, Norm: NormLayer}
	w, err := NewWeights(cfg, m.Seed)
	if err != nil {
		return nil, err
	}
	backend, err := NewBackend()
	if err != nil {
		return nil, err
	}
	tr, err := NewTrainer(backend, w, DefaultBCOptions().Hyper)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(m.Seed, 0x6d656173))
	idx := make([]int, m.Batch)
	var b Batch
	step := func() error {
		for i := range idx {
			idx[i] = rng.IntN(s.Len())
		}
		s.fill(&b, idx)
		_, err := tr.BCStep(&b)
		return err
	}
	for range m.Warmup {
		if err := step(); err != nil {
			return nil, err
		}
	}
	start, cpu0 := time.Now(), cputime.Process()
	for range m.Steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	bcSeconds, bcCPU := time.Since(start).Seconds(), (cputime.Process() - cpu0).Seconds()
	res := &Measurement{Backend: backend.Name(), Players: opts.Players, ObsDim: cfg.ObsDim, Width: m.Width, Depth: m.Depth,
		Batch: m.Batch, Steps: m.Steps, BCSeconds: bcSeconds, BCSamplesPerS: float64(m.Steps*m.Batch) / bcSeconds,
		DecisionsBatch: m.Positions}
	if bcCPU > 0 {
		res.BCSamplesPerCPUS = float64(m.Steps*m.Batch) / bcCPU
	}

	// Batched inference with the weights just trained.
	if w, err = tr.Weights(); err != nil {
		return nil, err
	}
	if res.ForwardRowsPerS, err = measureForward(backend, w, &b); err != nil {
		return nil, err
	}
	f := newBotFile("measure", encoding.Version, opts, w, TrainingInfo{})
	nb, err := NewNetBot("measure", f, &opts, m.Seed)
	if err != nil {
		return nil, err
	}
	g, err := rules.NewGame(opts)
	if err != nil {
		return nil, err
	}
	views, legal := samplePositions(g, m.Positions, m.Seed)
	out := make([]int, len(views))
	nb.ActBatch(views, legal, out) // warm the buffers
	reps := 0
	start, cpu0 = time.Now(), cputime.Process()
	for time.Since(start) < 500*time.Millisecond || reps < 3 {
		nb.ActBatch(views, legal, out)
		reps++
	}
	if nb.Err() != nil {
		return nil, nb.Err()
	}
	res.Decisions = reps * len(views)
	res.DecisionsPerS = float64(res.Decisions) / time.Since(start).Seconds()
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		res.DecisionsPerCPUS = float64(res.Decisions) / cpu
	}
	return res, nil
}

// measureForward times the network's forward pass on backend for b's rows (at least 0.5 s
// and 3 calls after one untimed call that compiles it) and returns rows per second.
func measureForward(backend backends.Backend, w *Weights, b *Batch) (float64, error) {
	cfg := w.Config
	ctx := context.New()
	if err := setModelVariables(ctx, w); err != nil {
		return 0, err
	}
	var rate float64
	err := tryCatch(func() {
		exec := context.MustNewExec(backend, ctx, func(ctx *context.Context, obs, mask *Node) (*Node, *Node) {
			return modelGraph(ctx, cfg, obs, nil, mask, nil)
		})
		defer exec.Finalize()
		obs := tensors.FromFlatDataAndDimensions(b.Obs[:b.Rows*cfg.ObsDim], b.Rows, cfg.ObsDim)
		mask := tensors.FromFlatDataAndDimensions(b.Mask[:b.Rows*cfg.NumActions], b.Rows, cfg.NumActions)
		call := func() {
			for _, o := range exec.MustExec(obs, mask) {
				_ = tensors.MustCopyFlatData[float32](o)
				o.FinalizeAll()
			}
		}
		call()
		reps, start := 0, time.Now()
		for time.Since(start) < 500*time.Millisecond || reps < 3 {
			call()
			reps++
		}
		rate = float64(reps*b.Rows) / time.Since(start).Seconds()
	})
	if err != nil {
		return 0, fmt.Errorf("training: measure forward: %w", err)
	}
	return rate, nil
}

// samplePositions returns n positions of random games (up to 300 random moves into game i,
// seeded from seed and i), as the decider's redacted view with its legal actions.
func samplePositions(g *rules.Game, n int, seed uint64) (views []*rules.State, legal [][]int) {
	views = make([]*rules.State, n)
	legal = make([][]int, n)
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := range n {
		st := g.NewInitialStateSeed(seed + uint64(i))
		for k := rng.IntN(300); k > 0 && !st.IsTerminal(); k-- {
			l := st.LegalActions(nil)
			st.Apply(l[rng.IntN(len(l))])
		}
		if st.IsTerminal() {
			st = g.NewInitialStateSeed(seed + uint64(i))
		}
		views[i] = &rules.State{}
		st.Redact(st.CurrentPlayer(), views[i])
		legal[i] = st.LegalActions(nil)
	}
	return views, legal
}
