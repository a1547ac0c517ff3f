package training

import (
	"context"
	"errors"
	"math"
	"testing"
)

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
