package training

import (
	"errors"
	"testing"
)

// TestBCAcceptsTheSmallestSettingsAndRefusesZero: a batch of one row, a log every step and a
// checkpoint every step are valid settings (and each log row counts the steps, rows and seconds since the start); a batch or log interval of 0, or a checkpoint
// interval that is not a positive multiple of the log interval, is refused as ErrConfig.
func TestBCAcceptsTheSmallestSettingsAndRefusesZero(t *testing.T) {
	data := tinySamples(40)
	base := DefaultBCOptions()
	base.Steps, base.Batch, base.LogEvery, base.CheckpointEvery = 2, 1, 1, 1
	base.Net = NetConfig{Width: 4, Depth: 1, Norm: NormNone}
	o := base
	o.Out = t.TempDir()
	res, err := TrainBC(data, o)
	if err != nil {
		t.Fatalf("batch 1, log and checkpoint every step: %v", err)
	}
	if len(res.Metrics) != 2 {
		t.Errorf("log every step of 2: %d metric rows, want 2", len(res.Metrics))
	}
	// The step and samples columns count steps and rows seen (batch 3: 3 rows a step).
	o = base
	o.Out, o.Batch = t.TempDir(), 3
	res, err = TrainBC(data, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range res.Metrics {
		if row[0] != float64(i+1) || row[1] != float64(3*(i+1)) {
			t.Errorf("metrics row %d: step %g, samples %g; want %d and %d", i, row[0], row[1], i+1, 3*(i+1))
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
		if _, err := TrainBC(data, o); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", c.name, err)
		}
	}
}
