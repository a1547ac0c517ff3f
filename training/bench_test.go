package training

import (
	"fmt"
	"testing"
)

// benchShapes are the real observation and action sizes of a 4-player base game (obs-v1).
const benchObs, benchActions, benchSeats = 746, 240, 4

func benchBatch(cfg NetConfig, rows int) *Batch {
	obs, mask := randomBatch(cfg, rows, 9)
	b := &Batch{Rows: rows, Obs: obs, Mask: mask, Actions: make([]int32, rows), Values: make([]float32, rows*cfg.ValueDim),
		OldLogp: make([]float32, rows), Advantages: make([]float32, rows)}
	for r := range rows {
		for a := range cfg.NumActions {
			if mask[r*cfg.NumActions+a] != 0 {
				b.Actions[r] = int32(a)
				break
			}
		}
	}
	return b
}

// BenchmarkBCTrainStep measures behaviour-cloning samples/s for the default network.
func BenchmarkBCTrainStep(b *testing.B) {
	for _, width := range []int{128, 256} {
		for _, batch := range []int{256, 1024} {
			b.Run(fmt.Sprintf("width=%d/batch=%d", width, batch), func(b *testing.B) {
				cfg := NetConfig{ObsDim: benchObs, NumActions: benchActions, ValueDim: benchSeats, Width: width, Depth: 2, Norm: NormLayer}
				w, err := NewWeights(cfg, 1)
				if err != nil {
					b.Fatal(err)
				}
				backend, err := NewBackend()
				if err != nil {
					b.Fatal(err)
				}
				tr, err := NewTrainer(backend, w, DefaultBCOptions().Hyper)
				if err != nil {
					b.Fatal(err)
				}
				bt := benchBatch(cfg, batch)
				if _, err := tr.BCStep(bt); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for range b.N {
					if _, err := tr.BCStep(bt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "samples/s")
			})
		}
	}
}

// BenchmarkGoForward measures batched decisions/s of the plain-Go forward pass.
func BenchmarkGoForward(b *testing.B) {
	for _, width := range []int{128, 256} {
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			cfg := NetConfig{ObsDim: benchObs, NumActions: benchActions, ValueDim: benchSeats, Width: width, Depth: 2, Norm: NormLayer}
			w, _ := NewWeights(cfg, 1)
			net, _ := NewNet(w)
			const rows = 256
			bt := benchBatch(cfg, rows)
			logits := make([]float32, rows*cfg.NumActions)
			values := make([]float32, rows*cfg.ValueDim)
			wss := make([]Workspace, 2)
			b.ResetTimer()
			for range b.N {
				net.ForwardParallel(wss, rows, bt.Obs, bt.Mask, logits, values)
			}
			b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
