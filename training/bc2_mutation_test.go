package training

import (
	"math"
	"testing"
	"time"
)

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
