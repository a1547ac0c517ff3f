package training

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
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

// TestBCAcceptsTheSmallestSettingsAndRefusesZero: a batch of one row, a log every step and a
// checkpoint every step are valid settings (and each log row counts the steps, rows and seconds since the start); a batch or log interval of 0, or a checkpoint
// interval that is not a positive multiple of the log interval, is refused as ErrConfig.
func TestBCAcceptsTheSmallestSettingsAndRefusesZero(t *testing.T) {
	data := tinySamples(40)
	base := tinyBCOptions(2, 1, 1, 1, NetConfig{Width: 4, Depth: 1, Norm: NormNone})
	o := base
	o.Out = t.TempDir()
	res, err := TrainBC(context.Background(), data, o)
	if err != nil {
		t.Fatalf("batch 1, log and checkpoint every step: %v", err)
	}
	if len(res.Metrics) != 2 {
		t.Errorf("log every step of 2: %d metric rows, want 2", len(res.Metrics))
	}
	// The step and samples columns count steps and rows seen (batch 3: 3 rows a step).
	o = base
	o.Out, o.Batch = t.TempDir(), 3
	res, err = TrainBC(context.Background(), data, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range res.Metrics {
		if row[0] != float64(i+1) || row[1] != float64(3*(i+1)) {
			t.Errorf("metrics row %d: step %g, samples %g; want %d and %d", i, row[0], row[1], i+1, 3*(i+1))
		}
		for col := 8; col < len(row); col++ {
			if math.IsNaN(row[col]) || math.IsInf(row[col], 0) {
				t.Errorf("metrics row %d: validation column %s is %g", i, BCMetricNames[col], row[col])
			}
		}
		if row[2] <= 0 || i > 0 && row[2] < res.Metrics[i-1][2] {
			t.Errorf("metrics row %d: %g seconds since the start (previous row %g)", i, row[2], res.Metrics[max(i-1, 0)][2])
		}
	}
	for _, c := range []struct {
		name            string
		batch           int
		log, checkpoint int64
	}{
		{"batch 0", 0, 1, 1},
		{"log every 0", 1, 0, 1},
		{"checkpoint before the log", 1, 2, 1},
		{"checkpoint not a multiple of the log", 1, 2, 3},
	} {
		o := base
		o.Out = t.TempDir()
		o.Batch, o.LogEvery, o.CheckpointEvery = c.batch, c.log, c.checkpoint
		if _, err := TrainBC(context.Background(), data, o); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", c.name, err)
		}
	}
}

// TestBCLogRowsAverageTheStepsSinceTheLastRow: a row logged every 2 steps holds the mean of
// the training loss, policy loss, value loss and accuracy of its 2 steps, as the same run
// logged every step shows them.
func TestBCLogRowsAverageTheStepsSinceTheLastRow(t *testing.T) {
	data := tinySamples(60)
	base := DefaultBCOptions()
	base.Steps, base.Batch, base.CheckpointEvery = 4, 3, 4
	base.Net = NetConfig{Width: 4, Depth: 1, Norm: NormNone}
	every1, every2 := base, base
	every1.Out, every1.LogEvery = t.TempDir(), 1
	every2.Out, every2.LogEvery = t.TempDir(), 2
	r1, err := TrainBC(context.Background(), data, every1)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := TrainBC(context.Background(), data, every2)
	if err != nil {
		t.Fatal(err)
	}
	if len(r1.Metrics) != 4 || len(r2.Metrics) != 2 {
		t.Fatalf("%d and %d rows, want 4 and 2", len(r1.Metrics), len(r2.Metrics))
	}
	for k, row := range r2.Metrics {
		for col := 4; col <= 7; col++ {
			want := (r1.Metrics[2*k][col] + r1.Metrics[2*k+1][col]) / 2
			if math.Abs(row[col]-want) > 1e-6*max(1, math.Abs(want)) {
				t.Errorf("row %d column %s: %g, want the mean of the two steps %g", k, BCMetricNames[col], row[col], want)
			}
		}
	}
}

// TestBCCheckpointsTheLastStepOffTheSchedule: a run of 3 steps checkpointing every 2 saves its
// last step too, so the run's weights are those of step 3, with the seconds spent.
func TestBCCheckpointsTheLastStepOffTheSchedule(t *testing.T) {
	o := DefaultBCOptions()
	o.Out = t.TempDir()
	o.Steps, o.Batch, o.LogEvery, o.CheckpointEvery = 3, 2, 1, 2
	o.Net = NetConfig{Width: 4, Depth: 1, Norm: NormNone}
	res, err := TrainBC(context.Background(), tinySamples(40), o)
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := WeightsFromRun(o.Out)
	if err != nil || info.Step != 3 {
		t.Fatalf("run checkpoint: step %d (%v), want 3", info.Step, err)
	}
	// The time spent is counted up, in the checkpoint and in the result.
	if info.Seconds <= 0 || res.Seconds < info.Seconds {
		t.Errorf("seconds: checkpoint %g, result %g; want 0 < checkpoint <= result", info.Seconds, res.Seconds)
	}
}

// TestBCValidationMetricsDoNotDependOnTheBatchSplit: the validation loss, policy loss, value
// MSE and accuracy of a BC log row are means over the validation rows, whatever batch size
// splits them: 7 rows evaluated in batches of 3 (3+3+1) or 2 (2+2+2+1) give the metrics of
// one batch of 7.
func TestBCValidationMetricsDoNotDependOnTheBatchSplit(t *testing.T) {
	data := tinySamples(7)
	cfg := NetConfig{ObsDim: data.ObsDim, NumActions: data.NumActions, ValueDim: data.ValueDim, Width: 8, Depth: 1, Norm: NormNone}
	tr := tinyTrainer(t, cfg, DefaultBCOptions().Hyper)
	idx := []int{0, 1, 2, 3, 4, 5, 6}
	var b Batch
	whole, err := evalBC(tr, data, idx, &b, len(idx))
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{3, 2} {
		got, err := evalBC(tr, data, idx, &b, batch)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if !closeRel(got[i], whole[i], 1e-5) {
				t.Errorf("batches of %d: %s %.6f, one batch gives %.6f", batch, BCMetricNames[8+i], got[i], whole[i])
			}
		}
	}
}

// TestBCLogRowSamplesPerSecondIsTheIntervalsRowsOverItsWallTime: the samples/s column of a
// BC log row is the rows trained since the last row (steps x batch) divided by the seconds
// since then: 10 steps of 4 rows over 2 seconds are 20 samples/s.
func TestBCLogRowSamplesPerSecondIsTheIntervalsRowsOverItsWallTime(t *testing.T) {
	opts := BCOptions{Batch: 4}
	b := &bcRun{opts: &opts, acc: [4]float64{10, 10, 10, 10}, accSteps: 10}
	now := time.Now()
	r := &run{Step: 10, runStart: now.Add(-2 * time.Second), interval: now.Add(-2 * time.Second)}
	row, err := b.record(r)
	if err != nil {
		t.Fatal(err)
	}
	// The interval is 2 s plus the time record itself takes (well under half a second).
	if got := row[3]; got > 20 || got < 16 {
		t.Errorf("samples/s %g for 40 rows in 2 s, want 20 (or a little less)", got)
	}
	if row[4] != 1 || math.Abs(row[2]-2) > 0.5 {
		t.Errorf("interval mean loss %g, seconds %g; want 1 and 2", row[4], row[2])
	}
}

func tinyBC(t *testing.T) BCOptions {
	o := DefaultBCOptions()
	o.Out = t.TempDir()
	o.Steps, o.Batch, o.LogEvery, o.CheckpointEvery = 10, 16, 5, 5
	o.Net = NetConfig{Width: 8, Depth: 1, Norm: NormLayer}
	return o
}

func TestTwoBCRunsCannotWriteOneDirectory(t *testing.T) {
	o := tinyBC(t)
	d, err := rundir.Open(o.Out, rundir.TrainBC)
	if err != nil {
		t.Fatal(err)
	}
	_, err = TrainBC(context.Background(), tinySamples(100), o)
	d.Close()
	if !errors.Is(err, rundir.ErrBusy) {
		t.Fatalf("second run into a locked directory: %v, want rundir.ErrBusy", err)
	}
	if _, err := TrainBC(context.Background(), tinySamples(100), o); err != nil {
		t.Fatalf("after the first run released it: %v", err)
	}
}

func TestBCResumeRefusesOtherSettingsAndOtherData(t *testing.T) {
	o := tinyBC(t)
	data := tinySamples(100)
	data.Source = "dataset A"
	if _, err := TrainBC(context.Background(), data, o); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, want string
		edit       func(*BCOptions, *Samples)
	}{
		{"lr", "--lr", func(o *BCOptions, _ *Samples) { o.Hyper.LearningRate *= 2 }},
		{"width", "--width", func(o *BCOptions, _ *Samples) { o.Net.Width = 16 }},
		{"batch", "--batch", func(o *BCOptions, _ *Samples) { o.Batch = 8 }},
		{"log-every", "--log-every", func(o *BCOptions, _ *Samples) { o.LogEvery = 1 }},
		{"classic data", "classic", func(_ *BCOptions, s *Samples) { s.Rules.Variant = rules.Classic }},
		{"short data", "short", func(_ *BCOptions, s *Samples) { s.Rules.Length = rules.Short }},
		{"other dataset", "--data", func(_ *BCOptions, s *Samples) { s.Source = "dataset B" }},
	} {
		o2, d2 := o, *data
		o2.Steps = 20
		c.edit(&o2, &d2)
		_, err := TrainBC(context.Background(), &d2, o2)
		if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrResumeMismatch naming %s", c.name, err, c.want)
		}
	}
	o.Steps = 20 // more steps is the one change allowed
	res, err := TrainBC(context.Background(), data, o)
	if err != nil || !res.Resumed || res.Steps != 20 {
		t.Fatalf("extending the run: %+v %v", res, err)
	}
}

// Extending a finished run whose steps were not a multiple of the log interval: the first
// interval after the resume has fewer steps, and its means must be over those steps only
// (they were halved when the full interval length was assumed).
func TestBCFirstIntervalAfterResumeIsAveragedOverItsOwnSteps(t *testing.T) {
	o := tinyBC(t)
	o.Steps, o.LogEvery, o.CheckpointEvery = 15, 10, 10
	o.Hyper.LearningRate = 1e-9 // the loss stays where it is: rows differ only by batch noise
	data := tinySamples(300)
	if _, err := TrainBC(context.Background(), data, o); err != nil {
		t.Fatal(err)
	}
	o.Steps = 20
	res, err := TrainBC(context.Background(), data, o)
	if err != nil {
		t.Fatal(err)
	}
	var at15, at20 []float64
	for _, r := range res.Metrics {
		switch r[0] {
		case 15:
			at15 = r
		case 20:
			at20 = r
		}
	}
	if at15 == nil || at20 == nil {
		t.Fatalf("metric rows %v: want rows at steps 15 and 20", res.Metrics)
	}
	for _, c := range []int{4, 5} { // loss, policy loss
		if ratio := at20[c] / at15[c]; ratio < 0.8 || ratio > 1.25 {
			t.Errorf("%s at step 20 is %.4f, at 15 %.4f: the 5-step interval was not averaged over 5 steps",
				BCMetricNames[c], at20[c], at15[c])
		}
	}
}

// With Hyper.ValueOnly the loss is the value error alone: the policy head's parameters keep
// their initial values while the value error falls, and the resumed run refuses a change of
// the setting.
func TestBCValueOnlyTrainsTheValueHeadAlone(t *testing.T) {
	data := tinySamples(400)
	init, err := NewWeights(NetConfig{ObsDim: 16, NumActions: 10, ValueDim: 3, Width: 16, Depth: 1, Norm: NormLayer}, 5)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultBCOptions()
	opts.Out = t.TempDir()
	opts.Steps, opts.Batch, opts.LogEvery, opts.CheckpointEvery = 60, 32, 20, 20
	opts.Hyper.LearningRate, opts.Hyper.ValueOnly = 3e-3, true
	opts.Init, opts.InitFrom = init, "toy.bot"
	res, err := TrainBC(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	first, last := res.Metrics[0], res.Metrics[len(res.Metrics)-1]
	if !(last[6] < first[6]) || !(last[4] == last[6]) {
		t.Errorf("value mse %.4f -> %.4f, loss %.4f: want the loss to be the falling value error", first[6], last[6], last[4])
	}
	w, _, err := WeightsFromRun(opts.Out)
	if err != nil {
		t.Fatal(err)
	}
	moved := map[string]bool{}
	for i, p := range w.Config.Params() {
		d := 0.0
		for j, x := range w.Tensors[i] {
			d = max(d, math.Abs(float64(x-init.Tensors[i][j])))
		}
		moved[p.Name] = d > 0
	}
	if moved["policy_w"] || moved["policy_b"] {
		t.Errorf("the policy head moved in a value-only run: %v", moved)
	}
	if !moved["value_w"] || !moved["trunk0_w"] {
		t.Errorf("the value head or the trunk did not move: %v", moved)
	}
	again := opts
	again.Steps, again.Init, again.InitFrom, again.Hyper.ValueOnly = 80, nil, "", false
	if _, err := TrainBC(context.Background(), data, again); !errors.Is(err, ErrResumeMismatch) {
		t.Errorf("resume without value-only: %v, want ErrResumeMismatch", err)
	}
}

// A run started without ValueOnly refuses to resume with it (the setting is recorded only
// when set, so its absence from a saved run means "off"), naming --value-only.
func TestBCResumeRefusesTurningValueOnlyOn(t *testing.T) {
	data := tinySamples(200)
	opts := DefaultBCOptions()
	opts.Out = t.TempDir()
	opts.Steps, opts.Batch, opts.LogEvery, opts.CheckpointEvery = 4, 8, 2, 2
	opts.Net = NetConfig{Width: 8, Depth: 1, Norm: NormLayer}
	if _, err := TrainBC(context.Background(), data, opts); err != nil {
		t.Fatal(err)
	}
	on := opts
	on.Steps, on.Hyper.ValueOnly = 6, true
	if _, err := TrainBC(context.Background(), data, on); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--value-only") {
		t.Fatalf("resume turning value-only on: %v, want ErrResumeMismatch naming --value-only", err)
	}
	same := opts
	same.Steps = 6
	if _, err := TrainBC(context.Background(), data, same); err != nil {
		t.Fatalf("resume with the same settings: %v", err)
	}
}
