package training

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// denseForward is the textbook forward pass: every product of every layer, summed in input
// order from the bias, ReLU as max(0, v). Net.Forward must give the same bits.
func denseForward(w *Weights, rows int, obs, mask []float32) (logits, values []float32) {
	cfg := w.Config
	affine := func(x, wt, b []float32, in, out int) []float32 {
		y := make([]float32, out)
		for j := range out {
			s := b[j]
			for i := range in {
				s += float32(x[i] * wt[i*out+j]) // rounded: no fused multiply-add
			}
			y[j] = s
		}
		return y
	}
	for r := range rows {
		h := obs[r*cfg.ObsDim : (r+1)*cfg.ObsDim]
		k, in := 0, cfg.ObsDim
		for range cfg.Depth {
			h = affine(h, w.Tensors[k], w.Tensors[k+1], in, cfg.Width)
			k += 2
			if cfg.Norm == NormLayer {
				layerNorm(h, w.Tensors[k], w.Tensors[k+1])
				k += 2
			}
			for j := range h {
				h[j] = max(h[j], 0)
			}
			in = cfg.Width
		}
		l := affine(h, w.Tensors[k], w.Tensors[k+1], in, cfg.NumActions)
		for a := range l {
			if mask != nil && mask[r*cfg.NumActions+a] == 0 {
				l[a] = maskedLogit
			}
		}
		logits = append(logits, l...)
		values = append(values, affine(h, w.Tensors[k+2], w.Tensors[k+3], in, cfg.ValueDim)...)
	}
	return logits, values
}

// realBatch encodes n positions of random 4-player games with their legal-action masks.
func realBatch(t testing.TB, n int) (obs, mask []float32) {
	g, err := rules.NewGame(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	enc := encoding.NewEncoder(g)
	views, legal := samplePositions(g, n, 3)
	obs = make([]float32, n*enc.Size())
	mask = make([]float32, n*enc.NumActions())
	for i, v := range views {
		d := v.Decision()
		if err := enc.Encode(v, d.Decider, d, obs[i*enc.Size():(i+1)*enc.Size()]); err != nil {
			t.Fatal(err)
		}
		for _, a := range legal[i] {
			mask[i*enc.NumActions()+a] = 1
		}
	}
	return obs, mask
}

// sameBits fails unless got and want hold the same float32 values (+0 and -0 count as
// equal: a skipped zero input may flip the sign of an exact-zero sum, nothing else).
func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] && !(math.IsNaN(float64(got[i])) && math.IsNaN(float64(want[i]))) {
			t.Fatalf("%s %d: %v (bits %08x), want %v (bits %08x)", what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// Skipping zero inputs, the sparse layers, the four-at-a-time policy dot products and the
// assembly kernels change no bit of the result: the shipped 4-player network on real
// positions, and small random networks of every shape (odd widths exercise the kernels'
// tails), give exactly the dense textbook pass's logits and values. So the bots' moves and
// everything trained or measured with the old pass stay the same.
func TestGoForwardIsBitForBitTheDensePass(t *testing.T) {
	f, err := DefaultBot()
	if err != nil {
		t.Fatal(err)
	}
	const rows = 64
	obs, mask := realBatch(t, rows)
	type tc struct {
		name      string
		w         *Weights
		obs, mask []float32
	}
	cases := []tc{{"default.bot", f.Weights, obs, mask}, {"default.bot, no mask", f.Weights, obs, nil}}
	for _, cfg := range []NetConfig{
		{ObsDim: 37, NumActions: 23, ValueDim: 4, Width: 16, Depth: 2, Norm: NormLayer},
		{ObsDim: 100, NumActions: 75, ValueDim: 5, Width: 77, Depth: 3, Norm: NormLayer},
		{ObsDim: 11, NumActions: 7, ValueDim: 1, Width: 9, Depth: 1, Norm: NormNone},
		{ObsDim: 70, NumActions: 9, ValueDim: 2, Width: 136, Depth: 1, Norm: NormNone},
		{ObsDim: 5, NumActions: 3, ValueDim: 2, Width: 1, Depth: 0, Norm: NormNone},
	} {
		w, err := NewWeights(cfg, 7)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 3))
		for _, tn := range w.Tensors {
			for i := range tn {
				tn[i] += float32(rng.NormFloat64() * 0.1)
			}
		}
		o, m := randomBatch(cfg, 13, 5)
		cases = append(cases, tc{"random", w, o, m}, tc{"random, no mask", w, o, nil})
	}
	for _, c := range cases {
		cfg := c.w.Config
		n := len(c.obs) / cfg.ObsDim
		wantL, wantV := denseForward(c.w, n, c.obs, c.mask)
		net, err := NewNet(c.w)
		if err != nil {
			t.Fatal(err)
		}
		for _, asm := range []bool{false, true} {
			if asm && !hasAVX {
				continue
			}
			func() {
				saved := hasAVX
				hasAVX = asm
				defer func() { hasAVX = saved }()
				logits := make([]float32, n*cfg.NumActions)
				values := make([]float32, n*cfg.ValueDim)
				net.ForwardParallel(make([]Workspace, 2), n, c.obs, c.mask, logits, values)
				sameBits(t, c.name+" logit", logits, wantL)
				sameBits(t, c.name+" value", values, wantV)
			}()
		}
	}
}

// On amd64 the assembly kernels run (the speed of `container bench --train` depends on it);
// elsewhere, or built with -tags purego, the pure-Go loops do.
func TestAVXKernelsAreUsedWhereAvailable(t *testing.T) {
	if !hasAVX {
		t.Skip("no AVX kernels in this build or on this processor: pure Go only")
	}
	idx := []int32{0, 2}
	val := []float32{2, 3}
	w := make([]float32, 3*64)
	b := make([]float32, 64)
	for i := range w {
		w[i] = float32(i % 64)
	}
	out := make([]float32, 64)
	if c := sparseAffineAsm(idx, val, w, 64, b, out); c != 64 {
		t.Fatalf("kernels did %d of 64 columns", c)
	}
	for j, v := range out {
		if v != 5*float32(j) {
			t.Fatalf("out[%d] = %v, want %v", j, v, 5*float32(j))
		}
	}
}
