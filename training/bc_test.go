package training

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// tinySamples is a learnable toy dataset: the action is the legal action whose indicator
// feature is set, and the value target is a linear function of the observation.
// tinyBCOptions is DefaultBCOptions with the given steps, batch, log and checkpoint
// intervals and network, for runs on tinySamples.
func tinyBCOptions(steps int64, batch int, logEvery, checkpointEvery int64, net NetConfig) BCOptions {
	o := DefaultBCOptions()
	o.Steps, o.Batch, o.LogEvery, o.CheckpointEvery, o.Net = steps, batch, logEvery, checkpointEvery, net
	return o
}

func tinySamples(n int) *Samples {
	const D, A, V = 16, 10, 3
	s := &Samples{EncodingVersion: "toy", Rules: rules.DefaultOptions(), ObsDim: D, NumActions: A, ValueDim: V}
	rng := rand.New(rand.NewPCG(11, 12))
	obs := make([]float32, D)
	for i := range n {
		clear(obs)
		var legal []int
		for a := range A {
			if rng.IntN(2) == 0 {
				legal = append(legal, a)
			}
		}
		if len(legal) == 0 {
			legal = []int{rng.IntN(A)}
		}
		action := legal[rng.IntN(len(legal))]
		obs[action] = 1
		obs[A+rng.IntN(D-A)] = 1
		vals := []float32{float32(action) / A, -float32(action) / A, 0.5}
		s.Append(uint64(i/7), obs, legal, action, vals)
	}
	return s
}

func TestBCSmokeLossGoesDown(t *testing.T) {
	data := tinySamples(600)
	opts := DefaultBCOptions()
	opts.Out = t.TempDir()
	opts.Steps, opts.Batch, opts.LogEvery, opts.CheckpointEvery = 60, 32, 20, 20
	opts.Net = NetConfig{Width: 32, Depth: 2, Norm: NormLayer}
	opts.Hyper.LearningRate = 3e-3
	res, err := TrainBC(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Metrics) != 3 {
		t.Fatalf("got %d metric rows, want 3", len(res.Metrics))
	}
	first, last := res.Metrics[0], res.Metrics[len(res.Metrics)-1]
	if !(last[4] < first[4]*0.7) || !(last[8] < first[8]) {
		t.Fatalf("loss did not go down: train %.4f -> %.4f, val %.4f -> %.4f", first[4], last[4], first[8], last[8])
	}
	if last[11] < 0.5 {
		t.Fatalf("validation accuracy %.3f after training, want > 0.5", last[11])
	}
	w, info, err := WeightsFromRun(opts.Out)
	if err != nil || info.Step != 60 || w.Config.ObsDim != 16 {
		t.Fatalf("run checkpoint: %v %+v", err, info)
	}
}

func TestBCResumeAfterKillMatchesUninterruptedRun(t *testing.T) {
	data := tinySamples(300)
	base := tinyBCOptions(30, 16, 5, 10, NetConfig{Width: 16, Depth: 1, Norm: NormLayer})

	straight := base
	straight.Out = t.TempDir()
	want, err := TrainBC(context.Background(), data, straight)
	if err != nil {
		t.Fatal(err)
	}

	killed := base
	killed.Out = t.TempDir()
	killed.stopAfter = 17 // dies 7 steps after the checkpoint at step 10
	if _, err := TrainBC(context.Background(), data, killed); !errors.Is(err, errKilled) {
		t.Fatalf("kill: %v", err)
	}
	killed.stopAfter = 0
	got, err := TrainBC(context.Background(), data, killed)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Resumed || got.Steps != want.Steps {
		t.Fatalf("resumed=%v steps=%d, want resumed at %d", got.Resumed, got.Steps, want.Steps)
	}
	// Every metric except wall-clock columns agrees row by row.
	if len(got.Metrics) != len(want.Metrics) {
		t.Fatalf("%d metric rows, want %d", len(got.Metrics), len(want.Metrics))
	}
	for i := range want.Metrics {
		for c, name := range BCMetricNames {
			if name == "seconds" || name == "samples_per_s" {
				continue
			}
			if got.Metrics[i][c] != want.Metrics[i][c] {
				t.Fatalf("row %d %s: resumed %v, uninterrupted %v", i, name, got.Metrics[i][c], want.Metrics[i][c])
			}
		}
	}
	requireSameWeights(t, straight.Out, killed.Out)
}

// requireSameWeights fails unless the runs in dirs a and b (uninterrupted and resumed) hold
// bit-identical network weights.
func requireSameWeights(t *testing.T, a, b string) {
	t.Helper()
	w1, _, err := WeightsFromRun(a)
	if err != nil {
		t.Fatal(err)
	}
	w2, _, err := WeightsFromRun(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range w1.Tensors {
		if !slices.Equal(w1.Tensors[i], w2.Tensors[i]) {
			t.Fatalf("tensor %d differs between the resumed and the uninterrupted run", i)
		}
	}
}

// With Init the run starts from the given network (its shape, not Net's, and its weights:
// the first checkpoint is Init moved by the steps taken, and zero steps of learning rate
// ~0 keep it), records where it came from, resumes without it but not with another, and
// refuses a network made for other games.
func TestBCInitFineTunesTheGivenNetwork(t *testing.T) {
	data := tinySamples(200)
	init, err := NewWeights(NetConfig{ObsDim: 16, NumActions: 10, ValueDim: 3, Width: 12, Depth: 1, Norm: NormLayer}, 99)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultBCOptions()
	opts.Out = t.TempDir()
	opts.Steps, opts.Batch, opts.LogEvery, opts.CheckpointEvery = 2, 8, 2, 2
	opts.Net = NetConfig{Width: 32, Depth: 2, Norm: NormLayer} // ignored: the shape is Init's
	opts.Hyper.LearningRate = 1e-12
	opts.Init, opts.InitFrom = init, "toy.bot"
	if _, err := TrainBC(context.Background(), data, opts); err != nil {
		t.Fatal(err)
	}
	w, _, err := WeightsFromRun(opts.Out)
	if err != nil {
		t.Fatal(err)
	}
	if w.Config.Width != 12 || w.Config.Depth != 1 {
		t.Fatalf("trained shape %+v, want the initial network's (width 12, depth 1)", w.Config)
	}
	if d := maxWeightDiff(w, init); !(d < 1e-6) {
		t.Fatalf("after two steps at lr 1e-12 the weights moved %g from the initial network", d)
	}
	more := opts
	more.Steps, more.Init, more.InitFrom = 4, nil, ""
	if _, err := TrainBC(context.Background(), data, more); err != nil {
		t.Fatalf("resume without --init: %v", err)
	}
	other := opts
	other.Steps, other.Init, other.InitFrom = 6, nil, "other.bot"
	if _, err := TrainBC(context.Background(), data, other); !errors.Is(err, ErrResumeMismatch) {
		t.Fatalf("resume naming another initial network: %v, want ErrResumeMismatch", err)
	}
	wrong := opts
	wrong.Out = t.TempDir()
	five := rules.DefaultOptions()
	five.Players = 5
	wrong.InitRules = &five
	if _, err := TrainBC(context.Background(), data, wrong); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "players") {
		t.Fatalf("a 5-player network for 4-player data: %v, want ErrIncompatible naming the players", err)
	}
}

// maxWeightDiff is the largest absolute difference between two networks' parameters.
func maxWeightDiff(a, b *Weights) float64 {
	d := 0.0
	for k, x := range a.Tensors {
		for i := range x {
			d = max(d, math.Abs(float64(x[i]-b.Tensors[k][i])))
		}
	}
	return d
}

// Ctrl-C (a cancelled context) stops behaviour cloning at the next log point, which is
// checkpointed between the regular checkpoints; the same call resumes to the uninterrupted
// run's network.
func TestBCStoppedByItsContextResumesToTheUninterruptedNetwork(t *testing.T) {
	data := tinySamples(300)
	base := tinyBCOptions(30, 16, 5, 20, NetConfig{Width: 16, Depth: 1, Norm: NormLayer})
	straight := base
	straight.Out = t.TempDir()
	if _, err := TrainBC(context.Background(), data, straight); err != nil {
		t.Fatal(err)
	}
	stopped := base
	stopped.Out = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped.Log = &cancelOnLine{mark: "step 5:", cancel: cancel}
	res, err := TrainBC(ctx, data, stopped)
	var se *StoppedError
	if !errors.As(err, &se) || se.Step != 5 || res == nil || res.Steps != 5 {
		t.Fatalf("stopped run: %v (result %+v), want a StoppedError at step 5", err, res)
	}
	if _, info, err := WeightsFromRun(stopped.Out); err != nil || info.Step != 5 {
		t.Fatalf("checkpoint after the stop: %+v, %v; want step 5", info, err)
	}
	stopped.Log = nil
	got, err := TrainBC(context.Background(), data, stopped)
	if err != nil || !got.Resumed || got.Steps != 30 {
		t.Fatalf("second run: %v, %+v", err, got)
	}
	requireSameWeights(t, straight.Out, stopped.Out)
}
