package training

import (
	"testing"

	"github.com/container-rl/container/env/rules"
)

// ActBatch, which encodes and evaluates its rows on two goroutines, plays exactly what Act
// plays row by row, greedy and sampling (the same seed draws in the same order); a row with
// no legal action gets -1 and the others still play.
func TestNetBotActBatchPlaysWhatActPlaysRowByRow(t *testing.T) {
	opts := rules.DefaultOptions()
	f, err := DefaultBotFor(opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	views, legal := samplePositions(g, 37, 11)
	for _, temp := range []float64{0, 0.7} {
		batched, err := NewNetBot("b", f, &opts, 5)
		if err != nil {
			t.Fatal(err)
		}
		single, _ := NewNetBot("s", f, &opts, 5)
		if err := batched.SetTemperature(temp); err != nil {
			t.Fatal(err)
		}
		_ = single.SetTemperature(temp)
		for round := range 3 {
			out := make([]int, len(views))
			batched.ActBatch(views, legal, out)
			for i := range views {
				if want := single.Act(views[i], legal[i]); out[i] != want {
					t.Fatalf("temperature %v, round %d, row %d: ActBatch played %d, Act %d", temp, round, i, out[i], want)
				}
			}
		}
	}
	b, _ := NewNetBot("b", f, &opts, 5)
	s, _ := NewNetBot("s", f, &opts, 5)
	withEmpty := append([][]int{}, legal...)
	withEmpty[3] = nil
	out := make([]int, len(views))
	b.ActBatch(views, withEmpty, out)
	for i := range views {
		if want := s.Act(views[i], withEmpty[i]); out[i] != want {
			t.Fatalf("row %d of a batch with an empty row: %d, want %d", i, out[i], want)
		}
	}
	if out[3] != -1 {
		t.Fatalf("the row without legal actions played %d, want -1", out[3])
	}
}
