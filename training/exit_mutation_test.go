package training

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
)

// Tests written to kill surviving mutants of the search-target (train exit) step and run
// (docs/TESTING.md).

// exitTestNet is the network of the search-target step tests: 20 features, 12 actions, 3
// seats.
var exitTestNet = NetConfig{ObsDim: 20, NumActions: 12, ValueDim: 3, Width: 16, Depth: 1, Norm: NormLayer}

// randomExitBatch is a batch of rows search targets: sparse observations, 2 to 6 legal
// actions per row, a visit distribution over the legal ones and value targets in [-1, 1].
func randomExitBatch(rng *rand.Rand, rows int) *exitBatch {
	D, A, V := exitTestNet.ObsDim, exitTestNet.NumActions, exitTestNet.ValueDim
	b := &exitBatch{Rows: rows, Obs: make([]float32, rows*D), Mask: make([]float32, rows*A),
		Policy: make([]float32, rows*A), Values: make([]float32, rows*V)}
	for r := range rows {
		for j := range D {
			if rng.IntN(3) == 0 {
				b.Obs[r*D+j] = float32(rng.IntN(4))
			}
		}
		legal := rng.Perm(A)[:2+rng.IntN(5)]
		sum := float32(0)
		for _, a := range legal {
			b.Mask[r*A+a] = 1
			b.Policy[r*A+a] = float32(1 + rng.IntN(9))
			sum += b.Policy[r*A+a]
		}
		for _, a := range legal {
			b.Policy[r*A+a] /= sum
		}
		for s := range V {
			b.Values[r*V+s] = float32(rng.IntN(3) - 1)
		}
	}
	return b
}

func newTestExitStepper(t *testing.T, w *Weights, shards int, noCompact bool) (*Trainer, *exitStepper) {
	t.Helper()
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(backend, w, Hyper{LearningRate: 1e-2, ValueCoef: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	tr.SetShards(shards)
	tr.noCompact = noCompact
	s, err := newExitStepper(tr)
	if err != nil {
		t.Fatal(err)
	}
	return tr, s
}

// A train exit run steps on batches of whatever size its buffer yields (the last batch of a
// window, a short first generation): search-target steps on batches of several sizes, small
// ones in one execution and large ones split into shards, one after another on the same
// stepper, all run and give finite metrics.
func TestExItStepsOnBatchesOfEverySizeRun(t *testing.T) {
	w, err := NewWeights(exitTestNet, 3)
	if err != nil {
		t.Fatal(err)
	}
	tr, s := newTestExitStepper(t, w, 2, false)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, rows := range []int{3, 40, 100, 130, 200} {
		if k := tr.shardCount(rows); (k > 1) != (rows >= 2*minShardRows) {
			t.Fatalf("%d rows: %d shards", rows, k)
		}
		m, err := s.Step(randomExitBatch(rng, rows))
		if err != nil {
			t.Fatalf("a step on %d rows after smaller ones: %v", rows, err)
		}
		for i, v := range []float64{m.Loss, m.PolicyLoss, m.ValueLoss, m.Accuracy, m.Entropy} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%d rows: metric %d is %v", rows, i, v)
			}
		}
	}
}

// The search-target step split over shards, with observation columns and actions compacted,
// computes what the plain step computes (shard.go): the same metrics before each update and,
// after several updates, the same weights up to float rounding.
func TestShardedExItStepMatchesThePlainStep(t *testing.T) {
	w, err := NewWeights(exitTestNet, 5)
	if err != nil {
		t.Fatal(err)
	}
	fastTr, fast := newTestExitStepper(t, w, 2, false)
	plainTr, plain := newTestExitStepper(t, w, 1, true)
	rng := rand.New(rand.NewPCG(9, 10))
	const rows = 160 // two shards of 80
	if k := fastTr.shardCount(rows); k != 2 {
		t.Fatalf("%d rows split into %d shards, want 2", rows, k)
	}
	for step := range 3 {
		b := randomExitBatch(rng, rows)
		mf, err := fast.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		mp, err := plain.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		for i, pair := range [][2]float64{{mf.Loss, mp.Loss}, {mf.PolicyLoss, mp.PolicyLoss}, {mf.ValueLoss, mp.ValueLoss},
			{mf.Accuracy, mp.Accuracy}, {mf.Entropy, mp.Entropy}} {
			if !closeRel(pair[0], pair[1], 1e-4) {
				t.Fatalf("step %d metric %d: sharded %.7f, plain %.7f", step, i, pair[0], pair[1])
			}
		}
	}
	wf, err := fastTr.Weights()
	if err != nil {
		t.Fatal(err)
	}
	wp, err := plainTr.Weights()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range exitTestNet.Params() {
		for k := range wf.Tensors[i] {
			if d := math.Abs(float64(wf.Tensors[i][k] - wp.Tensors[i][k])); d > 1e-4 {
				t.Fatalf("%s[%d]: sharded %v, plain %v", p.Name, k, wf.Tensors[i][k], wp.Tensors[i][k])
			}
		}
	}
}

// A context cancelled before train exit starts stops it before the first generation: the
// result counts no generation and the error is the cancellation, with the run directory
// left to resume.
func TestTrainExItWithACancelledContextTrainsNoGeneration(t *testing.T) {
	o := tinyExIt(t)
	o.Generations = 1
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := TrainExIt(ctx, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before the start: %v, want context.Canceled", err)
	}
	if res == nil || res.Generations != 0 {
		t.Fatalf("cancelled before the start: %+v, want no generation", res)
	}
	if _, err := os.Stat(filepath.Join(o.Out, "nets", genName(0)+".bot")); err != nil {
		t.Errorf("the initial network of the cancelled run: %v", err)
	}
}

// An initial network read from a bot file of another observation encoding is refused with
// ErrIncompatible naming both encodings, before anything is written; one of this build's
// encoding is accepted (the run starts).
func TestExItRefusesAnInitialNetworkOfAnotherEncoding(t *testing.T) {
	o := tinyExIt(t)
	f, err := DefaultBot()
	if err != nil {
		t.Fatal(err)
	}
	o.Rules = f.Header.Rules
	o.Rules.TurnLimit = 30
	o.Init, o.InitRules, o.InitFrom = f.Weights, &f.Header.Rules, "old.bot"
	o.InitEncoding = encoding.VersionV1
	_, err = TrainExIt(context.Background(), o)
	if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), encoding.VersionV1) || !strings.Contains(err.Error(), encoding.Version) {
		t.Fatalf("an initial network reading %s: %v, want ErrIncompatible naming both encodings", encoding.VersionV1, err)
	}
	if ents, _ := os.ReadDir(o.Out); len(ents) != 0 {
		t.Errorf("a refused start left %d entries in the run directory", len(ents))
	}
	// The same network with this build's encoding gets past the check: a cancelled context
	// then stops the run before its first generation.
	o.Out, o.InitEncoding = t.TempDir(), encoding.Version
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TrainExIt(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("an initial network reading %s: %v, want the run to start (and stop at once)", encoding.Version, err)
	}
}
