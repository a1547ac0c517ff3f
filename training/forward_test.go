package training

import (
	"math"
	"math/rand/v2"
	"slices"
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
	net, obs, mask, logits, values := smallNetAndBatch(t)
	var ws Workspace
	net.Forward(&ws, 7, obs, mask, logits, values)
	if n := testing.AllocsPerRun(20, func() { net.Forward(&ws, 7, obs, mask, logits, values) }); n != 0 {
		t.Fatalf("Forward allocates %v times per call", n)
	}
}

// paramOf returns the tensor of w named name (see NetConfig.Params).
func paramOf(t *testing.T, w *Weights, name string) []float32 {
	t.Helper()
	for i, p := range w.Config.Params() {
		if p.Name == name {
			return w.Tensors[i]
		}
	}
	t.Fatalf("no parameter %s", name)
	return nil
}

// handNet returns a network of cfg with every weight zero, for the test to set by hand.
func handNet(t *testing.T, cfg NetConfig) *Weights {
	t.Helper()
	w, err := NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range w.Tensors {
		clear(tn)
	}
	return w
}

// TestLayerNormAddsEpsilonToTheVariance: the Go forward pass normalises each hidden layer as
// (h - mean) / sqrt(variance + 1e-5) * gain + beta, like the GoMLX graph it is trained with.
// Two hidden units 0 and 0.002 (mean 0.001, variance 1e-6) become beta ∓ 0.001/sqrt(1.1e-5),
// and a layer whose units are all equal (variance 0) becomes beta exactly, not NaN. Checked for
// single rows and for blocks of four rows (layerNorm and layerNorm4).
func TestLayerNormAddsEpsilonToTheVariance(t *testing.T) {
	cfg := NetConfig{ObsDim: 1, NumActions: 1, ValueDim: 2, Width: 2, Depth: 1, Norm: NormLayer}
	w := handNet(t, cfg)
	copy(paramOf(t, w, "trunk0_w"), []float32{0, 0.002})
	copy(paramOf(t, w, "trunk0_g"), []float32{1, 1})
	copy(paramOf(t, w, "trunk0_beta"), []float32{1, 1})
	copy(paramOf(t, w, "value_w"), []float32{1, 0, 0, 1}) // values read the hidden units
	net, err := NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	d := 0.001 / math.Sqrt(1e-6+1e-5)
	for _, rows := range []int{1, 2, 5} {
		obs := make([]float32, rows)
		var want []float64
		for r := range rows {
			if r%2 == 0 {
				obs[r] = 1
				want = append(want, 1-d, 1+d)
			} else {
				want = append(want, 1, 1)
			}
		}
		values := make([]float32, rows*2)
		var ws Workspace
		net.Forward(&ws, rows, obs, nil, nil, values)
		for i, v := range values {
			if math.Abs(float64(v)-want[i]) > 1e-5 {
				t.Fatalf("%d rows: value %d = %v, want %v", rows, i, v, want[i])
			}
		}
	}
}

// TestForwardKeepsHiddenUnitsAtTheTopOfTheFloatRange: a hidden unit at the largest finite
// float32, or one that overflowed to +Inf, is positive and passes the ReLU, exactly as in the
// dense textbook pass (a diverged network shows Inf/NaN outputs instead of silently dropping
// the unit).
func TestForwardKeepsHiddenUnitsAtTheTopOfTheFloatRange(t *testing.T) {
	cfg := NetConfig{ObsDim: 1, NumActions: 1, ValueDim: 2, Width: 2, Depth: 1, Norm: NormNone}
	w := handNet(t, cfg)
	copy(paramOf(t, w, "trunk0_w"), []float32{math.MaxFloat32, 1})
	copy(paramOf(t, w, "value_w"), []float32{1e-38, 0, 0, 1})
	net, err := NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	obs := []float32{1, 2, 0} // hidden units (MaxFloat32, 1), (+Inf, 2), (0, 0)
	wantL, wantV := denseForward(w, 3, obs, nil)
	if wantV[0] < 3.4 || !math.IsInf(float64(wantV[2]), 1) {
		t.Fatalf("reference values %v: the test no longer reaches MaxFloat32 and +Inf", wantV)
	}
	logits, values := make([]float32, 3), make([]float32, 6)
	var ws Workspace
	net.Forward(&ws, 3, obs, nil, logits, values)
	sameBits(t, "logit", logits, wantL)
	sameBits(t, "value", values, wantV)
}

// TestSoftmaxDividesLogitsByTheTemperature: probabilities are exp(l/t) normalised, so a
// logit gap of 1 gives 1/(1+e^-0.5) at t = 2 and 1/(1+e^-2) at t = 0.5 (NetBot's
// --temperature).
func TestSoftmaxDividesLogitsByTheTemperature(t *testing.T) {
	for _, c := range []struct {
		t    float32
		want float64
	}{{1, 1 / (1 + math.Exp(-1))}, {2, 1 / (1 + math.Exp(-0.5))}, {0.5, 1 / (1 + math.Exp(-2))}} {
		row := []float32{1, 0}
		SoftmaxRow(row, c.t)
		if math.Abs(float64(row[0])-c.want) > 1e-6 || math.Abs(float64(row[1])-(1-c.want)) > 1e-6 {
			t.Errorf("t=%v: %v, want [%v %v]", c.t, row, c.want, 1-c.want)
		}
	}
}

// TestSoftmaxOfLargeOrSmallLogitsStaysFinite: softmax depends only on the logits'
// differences, so rows far from zero (a network's logits are not bounded) give the same
// probabilities as the row shifted to zero, not Inf/NaN or all zeros from overflow.
func TestSoftmaxOfLargeOrSmallLogitsStaysFinite(t *testing.T) {
	want := 1 / (1 + math.Exp(-1))
	for _, base := range []float32{0, 100, -100, 1e4, -1e4} {
		row := []float32{base + 1, base, maskedLogit}
		SoftmaxRow(row, 1)
		if math.Abs(float64(row[0])-want) > 1e-6 || math.Abs(float64(row[1])-(1-want)) > 1e-6 || row[2] != 0 {
			t.Errorf("logits %v+[1 0 masked]: %v, want [%v %v 0]", base, row, want, 1-want)
		}
	}
}

// TestSoftmaxGivesMaskedActionsExactlyZero: a masked logit (and anything at or below half
// of it, -5e8, far below any real logit) gets probability exactly 0 at every temperature,
// even a huge one that would otherwise flatten the row; a row with every action masked
// stays all zeros rather than becoming uniform over illegal actions.
func TestSoftmaxGivesMaskedActionsExactlyZero(t *testing.T) {
	for _, c := range []struct {
		name string
		row  []float32
		t    float32
		want []float32
	}{
		{"masked at t=1", []float32{0, maskedLogit}, 1, []float32{1, 0}},
		{"masked at t=1e9", []float32{0, maskedLogit}, 1e9, []float32{1, 0}},
		{"half the mask at t=1e9", []float32{0, maskedLogit / 2}, 1e9, []float32{1, 0}},
		{"all masked", []float32{maskedLogit, maskedLogit, maskedLogit}, 1, []float32{0, 0, 0}},
		{"all at half the mask", []float32{maskedLogit / 2, maskedLogit / 2}, 1, []float32{0, 0}},
	} {
		row := slices.Clone(c.row)
		SoftmaxRow(row, c.t)
		if !slices.Equal(row, c.want) {
			t.Errorf("%s: %v, want %v", c.name, row, c.want)
		}
	}
}

// rowsRun tells what Forward did with ws: -1 if it never ran on it, else how many rows it
// ran, capped at rowBlock (each row of a block leaves its trunk output in ws.outIdx).
func rowsRun(ws *Workspace) int {
	if len(ws.h[0]) == 0 {
		return -1
	}
	n := 0
	for _, o := range ws.outIdx {
		if o != nil {
			n++
		}
	}
	return n
}

// TestForwardParallelSplitsRowsIntoEqualChunks: ForwardParallel gives the workers contiguous
// chunks of ceil(rows/workers) rows, one workspace each (the slowest worker does as few rows as
// possible; a workspace with no rows left is not touched), keeps batches of fewer than two rows
// per worker on one workspace, and returns exactly what Forward returns.
func TestForwardParallelSplitsRowsIntoEqualChunks(t *testing.T) {
	cfg := NetConfig{ObsDim: 6, NumActions: 5, ValueDim: 2, Width: 4, Depth: 1, Norm: NormNone}
	w, err := NewWeights(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	net, err := NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rows int
		want []int // rows each workspace got (-1: untouched), capped at rowBlock
	}{
		{1, []int{1}},
		{3, []int{3, -1}},
		{4, []int{2, 2}},
		{5, []int{3, 2}},
		{8, []int{4, 4}},
		{5, []int{4, -1, -1}},
		{6, []int{2, 2, 2}},
		{7, []int{3, 3, 1}},
		{7, []int{4, -1, -1, -1}},
		{9, []int{3, 3, 3, -1}},
		{10, []int{3, 3, 3, 1}},
	} {
		obs, mask := randomBatch(cfg, c.rows, uint64(c.rows))
		wantL, wantV := make([]float32, c.rows*cfg.NumActions), make([]float32, c.rows*cfg.ValueDim)
		net.Forward(&Workspace{}, c.rows, obs, mask, wantL, wantV)
		wss := make([]Workspace, len(c.want))
		logits, values := make([]float32, len(wantL)), make([]float32, len(wantV))
		net.ForwardParallel(wss, c.rows, obs, mask, logits, values)
		got := make([]int, len(wss))
		for i := range wss {
			got[i] = rowsRun(&wss[i])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%d rows on %d workers: rows per workspace %v, want %v", c.rows, len(wss), got, c.want)
		}
		sameBits(t, "logit", logits, wantL)
		sameBits(t, "value", values, wantV)
	}
}

// TestForwardParallelOnOneWorkerOrASmallBatchAllocatesNothing: with one workspace, or fewer
// than two rows per workspace (NetBot's single decisions), ForwardParallel is a plain
// Forward: no goroutine, no allocation once warm.
func TestForwardParallelOnOneWorkerOrASmallBatchAllocatesNothing(t *testing.T) {
	net, obs, mask, logits, values := smallNetAndBatch(t)
	for _, workers := range []int{1, 4} {
		wss := make([]Workspace, workers)
		net.ForwardParallel(wss, 7, obs, mask, logits, values)
		if n := testing.AllocsPerRun(20, func() { net.ForwardParallel(wss, 7, obs, mask, logits, values) }); n != 0 {
			t.Errorf("7 rows on %d workers: %v allocations per call", workers, n)
		}
	}
}

// smallNetAndBatch returns a small network (30 features, 12 actions, 3 values, width 16,
// depth 2, layer norm), a random 7-row batch for it and its output buffers.
func smallNetAndBatch(t *testing.T) (net *Net, obs, mask, logits, values []float32) {
	t.Helper()
	cfg := NetConfig{ObsDim: 30, NumActions: 12, ValueDim: 3, Width: 16, Depth: 2, Norm: NormLayer}
	w, _ := NewWeights(cfg, 1)
	net, err := NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	obs, mask = randomBatch(cfg, 7, 1)
	return net, obs, mask, make([]float32, 7*12), make([]float32, 7*3)
}
