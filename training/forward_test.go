package training

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomBatch returns sparse-ish observations and masks with at least one legal action per row.
func randomBatch(cfg NetConfig, rows int, seed uint64) (obs, mask []float32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	obs = make([]float32, rows*cfg.ObsDim)
	for i := range obs {
		if rng.IntN(3) == 0 {
			obs[i] = float32(rng.NormFloat64())
		}
	}
	mask = make([]float32, rows*cfg.NumActions)
	for r := range rows {
		mask[r*cfg.NumActions+rng.IntN(cfg.NumActions)] = 1
		for a := range cfg.NumActions {
			if rng.IntN(4) == 0 {
				mask[r*cfg.NumActions+a] = 1
			}
		}
	}
	return obs, mask
}

func TestGoForwardMatchesGoMLXGraph(t *testing.T) {
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []NetConfig{
		{ObsDim: 37, NumActions: 23, ValueDim: 4, Width: 16, Depth: 2, Norm: NormLayer},
		{ObsDim: 11, NumActions: 7, ValueDim: 1, Width: 9, Depth: 1, Norm: NormNone},
		{ObsDim: 5, NumActions: 3, ValueDim: 2, Width: 1, Depth: 0, Norm: NormNone},
	} {
		w, err := NewWeights(cfg, 7)
		if err != nil {
			t.Fatal(err)
		}
		// Non-trivial biases and gains so every parameter matters.
		rng := rand.New(rand.NewPCG(3, 3))
		for _, tn := range w.Tensors {
			for i := range tn {
				tn[i] += float32(rng.NormFloat64() * 0.1)
			}
		}
		const rows = 13
		obs, mask := randomBatch(cfg, rows, 5)
		gl, gv, err := GraphForward(backend, w, rows, obs, mask)
		if err != nil {
			t.Fatal(err)
		}
		net, err := NewNet(w)
		if err != nil {
			t.Fatal(err)
		}
		logits := make([]float32, rows*cfg.NumActions)
		values := make([]float32, rows*cfg.ValueDim)
		wss := make([]Workspace, 3)
		net.ForwardParallel(wss, rows, obs, mask, logits, values)
		for i := range logits {
			if math.Abs(float64(logits[i]-gl[i])) > 1e-4*(1+math.Abs(float64(gl[i]))) {
				t.Fatalf("%+v: logit %d: go %v, gomlx %v", cfg, i, logits[i], gl[i])
			}
		}
		for i := range values {
			if math.Abs(float64(values[i]-gv[i])) > 1e-4 {
				t.Fatalf("%+v: value %d: go %v, gomlx %v", cfg, i, values[i], gv[i])
			}
		}
		// Probabilities of illegal actions are exactly zero and argmax is always legal.
		for r := range rows {
			row := logits[r*cfg.NumActions : (r+1)*cfg.NumActions]
			best := 0
			for a := range row {
				if row[a] > row[best] {
					best = a
				}
			}
			if mask[r*cfg.NumActions+best] == 0 {
				t.Fatalf("row %d: argmax %d is illegal", r, best)
			}
			SoftmaxRow(row, 1)
			for a, p := range row {
				if mask[r*cfg.NumActions+a] == 0 && p != 0 {
					t.Fatalf("row %d: illegal action %d has probability %v", r, a, p)
				}
			}
		}
	}
}

func TestGoForwardAllocatesNothingOnceWarm(t *testing.T) {
	cfg := NetConfig{ObsDim: 30, NumActions: 12, ValueDim: 3, Width: 16, Depth: 2, Norm: NormLayer}
	w, _ := NewWeights(cfg, 1)
	net, err := NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	obs, mask := randomBatch(cfg, 7, 1)
	logits, values := make([]float32, 7*12), make([]float32, 7*3)
	var ws Workspace
	net.Forward(&ws, 7, obs, mask, logits, values)
	if n := testing.AllocsPerRun(20, func() { net.Forward(&ws, 7, obs, mask, logits, values) }); n != 0 {
		t.Fatalf("Forward allocates %v times per call", n)
	}
}
