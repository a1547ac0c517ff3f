package training

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/cputime"
)

// benchShapes are the real observation and action sizes of a 4-player base game (obs-v2).
const benchObs, benchActions, benchSeats = 771, 240, 4

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

// BenchmarkBCTrainStep measures behaviour-cloning samples/s for the default network (width
// 128) and a wider one: a full optimisation step on minibatches drawn at random from real
// decisions of scripted 4-player games, batch assembly included, as `container train bc`
// runs it. data=dense feeds random inputs with a third of all features non-zero instead
// (every column of a batch active: the worst case for the sparse first layer).
func BenchmarkBCTrainStep(b *testing.B) {
	s, err := CollectSamples([]string{"valuer", "shipper", "manufacturer", "valuer"}, nil, 8,
		rules.DefaultOptions(), env.WinLoss, 1, 2)
	if err != nil {
		b.Fatal(err)
	}
	for _, data := range []string{"scripted", "dense"} {
		for _, width := range []int{128, 256} {
			for _, batch := range []int{256, 1024} {
				if data == "dense" && width != 128 {
					continue
				}
				b.Run(fmt.Sprintf("data=%s/width=%d/batch=%d", data, width, batch), func(b *testing.B) {
					cfg := NetConfig{ObsDim: s.ObsDim, NumActions: s.NumActions, ValueDim: s.ValueDim, Width: width, Depth: 2, Norm: NormLayer}
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
					rng := rand.New(rand.NewPCG(1, 2))
					idx := make([]int, batch)
					var bt Batch
					next := func() *Batch {
						if data == "dense" {
							return benchBatch(cfg, batch)
						}
						for i := range idx {
							idx[i] = rng.IntN(s.Len())
						}
						s.fill(&bt, idx)
						return &bt
					}
					dense := next()
					// Warm up: compacted batches come in a few widths, each compiled once
					// (a real run amortises that over thousands of steps).
					for range 20 {
						if _, err := tr.BCStep(next()); err != nil {
							b.Fatal(err)
						}
					}
					b.ResetTimer()
					for range b.N {
						bt := dense
						if data != "dense" {
							bt = next()
						}
						if _, err := tr.BCStep(bt); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "samples/s")
				})
			}
		}
	}
}

// BenchmarkGoForward measures batched decisions/s of the plain-Go forward pass on random
// inputs with a third of all features set and a quarter of all actions legal (denser than
// real positions: see BenchmarkNetBotActBatch for those), and rows/s of one-row calls (as
// search makes them). rows/cpu-s is what one core does, less distorted on a shared machine.
func BenchmarkGoForward(b *testing.B) {
	for _, width := range []int{128, 256} {
		for _, rows := range []int{256, 1} {
			b.Run(fmt.Sprintf("width=%d/rows=%d", width, rows), func(b *testing.B) {
				cfg := NetConfig{ObsDim: benchObs, NumActions: benchActions, ValueDim: benchSeats, Width: width, Depth: 2, Norm: NormLayer}
				w, _ := NewWeights(cfg, 1)
				net, _ := NewNet(w)
				bt := benchBatch(cfg, rows)
				logits := make([]float32, rows*cfg.NumActions)
				values := make([]float32, rows*cfg.ValueDim)
				wss := make([]Workspace, 2)
				cpu0 := cputime.Process()
				b.ResetTimer()
				for range b.N {
					net.ForwardParallel(wss, rows, bt.Obs, bt.Mask, logits, values)
				}
				b.StopTimer()
				b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
				if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
					b.ReportMetric(float64(b.N*rows)/cpu, "rows/cpu-s")
				}
			})
		}
	}
}

// BenchmarkPPOCollect measures rollout collection (env steps/s including the learner's
// batched inference and the scripted opponents) for the default network.
func BenchmarkPPOCollect(b *testing.B) {
	o := DefaultPPOOptions()
	o.Games = 32
	col := &collector{opts: &o}
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		b.Fatal(err)
	}
	col.game = g
	enc := encoding.NewEncoder(g)
	w, _ := NewWeights(NetConfig{ObsDim: enc.Size(), NumActions: enc.NumActions(), ValueDim: 4, Width: 128, Depth: 2, Norm: NormLayer}, 1)
	net, _ := NewNet(w)
	steps := 0
	b.ResetTimer()
	for i := range b.N {
		ro, err := col.collect(net, nil, rand.New(rand.NewPCG(1, uint64(i))), int64(i))
		if err != nil {
			b.Fatal(err)
		}
		steps += ro.envSteps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "env-steps/s")
}

// BenchmarkNetBotActBatch measures batched decisions/s of a bot on real positions.
func BenchmarkNetBotActBatch(b *testing.B) {
	opts := rules.DefaultOptions()
	g, _ := rules.NewGame(opts)
	enc := encoding.NewEncoder(g)
	w, _ := NewWeights(NetConfig{ObsDim: enc.Size(), NumActions: enc.NumActions(), ValueDim: 4, Width: 128, Depth: 2, Norm: NormLayer}, 1)
	f := &BotFile{Header: BotHeader{EncodingVersion: encoding.Version, Actions: CurrentActionLayout(), Rules: opts}, Weights: w}
	nb, err := NewNetBot("bench", f, &opts, 1)
	if err != nil {
		b.Fatal(err)
	}
	// 256 positions from random games.
	const n = 256
	views, legal := samplePositions(g, n, 1)
	out := make([]int, n)
	nb.ActBatch(views, legal, out) // warm the buffers
	cpu0 := cputime.Process()
	b.ResetTimer()
	for range b.N {
		nb.ActBatch(views, legal, out)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "decisions/s")
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(b.N*n)/cpu, "decisions/cpu-s")
	}
}
