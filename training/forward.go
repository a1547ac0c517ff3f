package training

import (
	"math"
	"sync"
)

// layerNormEpsilon is added to the variance in layer normalisation (graph and Go alike).
const layerNormEpsilon = 1e-5

// maskedLogit is the logit given to illegal actions: exp of it underflows to exactly 0.
const maskedLogit = -1e9

// Net is a plain-Go forward pass over exported float32 weights: no GoMLX graph. It is safe
// for concurrent use by several goroutines, each with its own Workspace.
type Net struct {
	cfg     NetConfig
	layers  []denseLayer
	policy  denseLayer
	policyT []float32 // policy weights transposed, [A, width]: one contiguous row per action
	value   denseLayer
}

type denseLayer struct {
	in, out    int
	w, b       []float32
	gain, beta []float32 // layer norm; nil without
}

// NewNet wraps the weights (not copied) for inference after checking them.
func NewNet(w *Weights) (*Net, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	cfg := w.Config
	n := &Net{cfg: cfg}
	k := 0
	in := cfg.ObsDim
	for range cfg.Depth {
		l := denseLayer{in: in, out: cfg.Width, w: w.Tensors[k], b: w.Tensors[k+1]}
		k += 2
		if cfg.Norm == NormLayer {
			l.gain, l.beta = w.Tensors[k], w.Tensors[k+1]
			k += 2
		}
		n.layers = append(n.layers, l)
		in = cfg.Width
	}
	n.policy = denseLayer{in: in, out: cfg.NumActions, w: w.Tensors[k], b: w.Tensors[k+1]}
	n.policyT = make([]float32, in*cfg.NumActions)
	for i := range in {
		for a := range cfg.NumActions {
			n.policyT[a*in+i] = n.policy.w[i*cfg.NumActions+a]
		}
	}
	n.value = denseLayer{in: in, out: cfg.ValueDim, w: w.Tensors[k+2], b: w.Tensors[k+3]}
	return n, nil
}

// Config returns the network configuration.
func (n *Net) Config() NetConfig { return n.cfg }

// rowBlock is how many rows go through the trunk together: their layer normalisations run
// side by side, four independent chains of additions instead of one.
const rowBlock = 4

// Workspace holds the scratch buffers of one forward pass; reuse it to allocate nothing.
type Workspace struct {
	h        [rowBlock][]float32 // each row's hidden activations
	idx, jdx [rowBlock][]int32   // each row's non-zero inputs of the current and the next layer
	val, wal [rowBlock][]float32 // and their values
	outIdx   [rowBlock][]int32   // the trunk outputs' non-zero entries (into idx or jdx)
	outVal   [rowBlock][]float32
}

func (ws *Workspace) grow(n *Net) {
	d := max(n.cfg.ObsDim, n.cfg.Width)
	if len(ws.idx[0]) < d || len(ws.h[0]) < n.cfg.Width {
		for i := range rowBlock {
			ws.h[i] = make([]float32, n.cfg.Width)
			ws.idx[i], ws.jdx[i] = make([]int32, d), make([]int32, d)
			ws.val[i], ws.wal[i] = make([]float32, d), make([]float32, d)
		}
	}
}

// Forward computes, for a batch of rows, the masked logits [rows*A] (illegal actions get a
// very negative logit) and the values [rows*V]. obs is [rows*D]; mask is [rows*A] with
// non-zero meaning legal (nil: everything legal). logits or values may be nil to skip them.
//
// It works on each row's non-zero inputs only (rowBlock rows at a time): the observation is mostly
// zeros (one-hot groups: ~115 of 773 features set in a 4-player game) and so is about half
// of each hidden layer after its ReLU. Every output is its bias plus the products of the
// non-zero inputs in ascending input order, the order a dense pass sums in, so skipping the
// zeros changes no bit of the result (a zero input adds an exact zero).
func (n *Net) Forward(ws *Workspace, rows int, obs, mask, logits, values []float32) {
	ws.grow(n)
	D := n.cfg.ObsDim
	for r0 := 0; r0 < rows; r0 += rowBlock {
		m := min(rowBlock, rows-r0)
		n.trunkBlock(ws, m, obs[r0*D:(r0+m)*D])
		for i := range m {
			n.heads(ws.outIdx[i], ws.outVal[i], r0+i, mask, logits, values)
		}
	}
}

// heads writes row r's logits and values from its trunk output's non-zero entries.
func (n *Net) heads(idx []int32, val []float32, r int, mask, logits, values []float32) {
	A, V := n.cfg.NumActions, n.cfg.ValueDim
	if logits != nil {
		lr := logits[r*A : (r+1)*A]
		if mask == nil {
			sparseAffine(idx, val, n.policy.w, A, n.policy.b, lr)
		} else {
			n.legalLogits(idx, val, mask[r*A:(r+1)*A], lr)
		}
	}
	if values != nil {
		sparseAffine(idx, val, n.value.w, V, n.value.b, values[r*V:(r+1)*V])
	}
}

// ForwardParallel is Forward split over workers goroutines by rows; wss needs one Workspace
// per worker.
func (n *Net) ForwardParallel(wss []Workspace, rows int, obs, mask, logits, values []float32) {
	workers := len(wss)
	if workers <= 1 || rows < 2*workers {
		n.Forward(&wss[0], rows, obs, mask, logits, values)
		return
	}
	D, A, V := n.cfg.ObsDim, n.cfg.NumActions, n.cfg.ValueDim
	per := (rows + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, rows)
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			var m, l, v []float32
			if mask != nil {
				m = mask[lo*A : hi*A]
			}
			if logits != nil {
				l = logits[lo*A : hi*A]
			}
			if values != nil {
				v = values[lo*V : hi*V]
			}
			n.Forward(&wss[w], hi-lo, obs[lo*D:hi*D], m, l, v)
		}(w, lo, hi)
	}
	wg.Wait()
}

// trunkBlock runs the hidden layers on m <= rowBlock observations (x is [m*D]) and leaves in
// ws.outIdx and ws.outVal each trunk output's non-zero entries (indices ascending, and
// values); with depth 0 those of the observation itself.
func (n *Net) trunkBlock(ws *Workspace, m int, x []float32) {
	D := n.cfg.ObsDim
	var idx, nidx [rowBlock][]int32
	var val, nval [rowBlock][]float32
	for i := range m {
		k := gatherNonzero(x[i*D:(i+1)*D], ws.idx[i], ws.val[i])
		idx[i], val[i] = ws.idx[i][:k], ws.val[i][:k]
		nidx[i], nval[i] = ws.jdx[i], ws.wal[i]
	}
	for _, l := range n.layers {
		for i := range m {
			sparseAffine(idx[i], val[i], l.w, l.out, l.b, ws.h[i][:l.out])
		}
		if l.gain != nil {
			if m == rowBlock {
				layerNorm4(ws.h[0][:l.out], ws.h[1][:l.out], ws.h[2][:l.out], ws.h[3][:l.out], l.gain, l.beta)
			} else {
				for i := range m {
					layerNorm(ws.h[i][:l.out], l.gain, l.beta)
				}
			}
		}
		// ReLU, keeping only the positive units as the next layer's inputs.
		for i := range m {
			h := ws.h[i][:l.out]
			k := 0
			ni, nv := nidx[i][:len(h)], nval[i][:len(h)]
			for j, v := range h {
				ni[k], nv[k] = int32(j), v
				// v > 0 without a branch: positive numbers up to +Inf have bits 1..0x7f800000.
				k += int((uint64(math.Float32bits(v)-1) - 0x7f800000) >> 63)
			}
			idx[i], val[i], nidx[i], nval[i] = ni[:k], nv[:k], idx[i][:cap(idx[i])], val[i][:cap(val[i])]
		}
	}
	for i := range m {
		ws.outIdx[i], ws.outVal[i] = idx[i], val[i]
	}
}

// gatherNonzero writes the indices and values of x's non-zero entries into idx and val (each
// at least len(x) long) and returns how many there are. Groups of eight zeros (most of an
// observation) are skipped at once; within a group it writes every entry and advances past
// the non-zero ones without a branch: which features are set varies from row to row, and a
// mispredicted branch per feature costs more than the writes.
func gatherNonzero(x []float32, idx []int32, val []float32) int {
	i, k := gatherNonzeroAsm(x, idx, val)
	idx, val = idx[:len(x)], val[:len(x)]
	for ; i+8 <= len(x); i += 8 {
		g := x[i : i+8 : i+8]
		// ±0 differ only in the sign bit, which the shift drops.
		if (math.Float32bits(g[0])|math.Float32bits(g[1])|math.Float32bits(g[2])|math.Float32bits(g[3])|
			math.Float32bits(g[4])|math.Float32bits(g[5])|math.Float32bits(g[6])|math.Float32bits(g[7]))<<1 == 0 {
			continue
		}
		for j, v := range g {
			idx[k], val[k] = int32(i+j), v
			u := math.Float32bits(v) << 1
			k += int((u | -u) >> 31)
		}
	}
	for ; i < len(x); i++ {
		v := x[i]
		idx[k], val[k] = int32(i), v
		u := math.Float32bits(v) << 1
		k += int((u | -u) >> 31)
	}
	return k
}

// legalLogits writes one row's logits: a dot product with the transposed policy weights for
// each legal action (a handful per decision instead of all A columns), four actions at a
// time so the four sums proceed side by side, and maskedLogit for the others.
func (n *Net) legalLogits(idx []int32, val []float32, mask, out []float32) {
	width := n.cfg.trunkOut()
	val = val[:len(idx)]
	var legal [4]int
	k := 0
	flush := func() {
		switch k {
		case 4:
			a0, a1, a2, a3 := legal[0], legal[1], legal[2], legal[3]
			w0 := n.policyT[a0*width : (a0+1)*width]
			w1 := n.policyT[a1*width : (a1+1)*width]
			w2 := n.policyT[a2*width : (a2+1)*width]
			w3 := n.policyT[a3*width : (a3+1)*width]
			s0, s1, s2, s3 := n.policy.b[a0], n.policy.b[a1], n.policy.b[a2], n.policy.b[a3]
			for j, i := range idx {
				x := val[j]
				s0 += float32(x * w0[i])
				s1 += float32(x * w1[i])
				s2 += float32(x * w2[i])
				s3 += float32(x * w3[i])
			}
			out[a0], out[a1], out[a2], out[a3] = s0, s1, s2, s3
		default:
			for _, a := range legal[:k] {
				wa := n.policyT[a*width : (a+1)*width]
				s := n.policy.b[a]
				for j, i := range idx {
					s += float32(val[j] * wa[i])
				}
				out[a] = s
			}
		}
		k = 0
	}
	for a, m := range mask[:len(out)] {
		if m == 0 {
			out[a] = maskedLogit
			continue
		}
		legal[k] = a
		k++
		if k == len(legal) {
			flush()
		}
	}
	flush()
}

// sparseAffine computes out[j] = b[j] + sum over k of val[k] * w[idx[k]*stride + j] for every
// j < len(out), summing in the order of idx. Eight outputs at a time stay in registers while
// the loop runs over the inputs, so each weight is loaded once and nothing is stored until the
// end. Each product is rounded before it is added (the float32 conversions): with GOAMD64=v3
// the compiler would otherwise fuse multiply and add, and the pure-Go and assembly paths
// would differ in the last bit.
func sparseAffine(idx []int32, val []float32, w []float32, stride int, b, out []float32) {
	c := sparseAffineAsm(idx, val, w, stride, b, out)
	sparseAffineGo(idx, val, w, stride, b, out, c)
}

// sparseAffineGo is sparseAffine in pure Go for the columns from c on.
func sparseAffineGo(idx []int32, val []float32, w []float32, stride int, b, out []float32, c int) {
	val = val[:len(idx)]
	for ; c+8 <= len(out); c += 8 {
		bb := b[c : c+8 : c+8]
		a0, a1, a2, a3, a4, a5, a6, a7 := bb[0], bb[1], bb[2], bb[3], bb[4], bb[5], bb[6], bb[7]
		for k, i := range idx {
			x := val[k]
			p := int(i)*stride + c
			wr := w[p : p+8 : p+8]
			a0 += float32(x * wr[0])
			a1 += float32(x * wr[1])
			a2 += float32(x * wr[2])
			a3 += float32(x * wr[3])
			a4 += float32(x * wr[4])
			a5 += float32(x * wr[5])
			a6 += float32(x * wr[6])
			a7 += float32(x * wr[7])
		}
		o := out[c : c+8 : c+8]
		o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = a0, a1, a2, a3, a4, a5, a6, a7
	}
	if c+4 <= len(out) {
		bb := b[c : c+4 : c+4]
		a0, a1, a2, a3 := bb[0], bb[1], bb[2], bb[3]
		for k, i := range idx {
			x := val[k]
			p := int(i)*stride + c
			wr := w[p : p+4 : p+4]
			a0 += float32(x * wr[0])
			a1 += float32(x * wr[1])
			a2 += float32(x * wr[2])
			a3 += float32(x * wr[3])
		}
		o := out[c : c+4 : c+4]
		o[0], o[1], o[2], o[3] = a0, a1, a2, a3
		c += 4
	}
	for ; c < len(out); c++ {
		a := b[c]
		for k, i := range idx {
			a += float32(val[k] * w[int(i)*stride+c])
		}
		out[c] = a
	}
}

// layerNorm4 is layerNorm on four rows at once, each computed exactly as layerNorm computes
// it: the four running sums are independent, so they proceed side by side.
func layerNorm4(r0, r1, r2, r3, gain, beta []float32) {
	r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
	var m0, m1, m2, m3 float32
	for j := range r0 {
		m0 += r0[j]
		m1 += r1[j]
		m2 += r2[j]
		m3 += r3[j]
	}
	n := float32(len(r0))
	m0 /= n
	m1 /= n
	m2 /= n
	m3 /= n
	var v0, v1, v2, v3 float32
	for j := range r0 {
		d0 := r0[j] - m0
		v0 += d0 * d0
		d1 := r1[j] - m1
		v1 += d1 * d1
		d2 := r2[j] - m2
		v2 += d2 * d2
		d3 := r3[j] - m3
		v3 += d3 * d3
	}
	normalize(r0, m0, v0/n, gain, beta)
	normalize(r1, m1, v1/n, gain, beta)
	normalize(r2, m2, v2/n, gain, beta)
	normalize(r3, m3, v3/n, gain, beta)
}

// normalize is layerNorm's last step: row = (row - mean) / sqrt(variance + ε) * gain + beta.
func normalize(row []float32, mean, variance float32, gain, beta []float32) {
	inv := float32(1 / math.Sqrt(float64(variance)+layerNormEpsilon))
	gain, beta = gain[:len(row)], beta[:len(row)]
	for j, v := range row {
		row[j] = (v-mean)*inv*gain[j] + beta[j]
	}
}

func layerNorm(row, gain, beta []float32) {
	var mean float32
	for _, v := range row {
		mean += v
	}
	mean /= float32(len(row))
	var variance float32
	for _, v := range row {
		d := v - mean
		variance += d * d
	}
	normalize(row, mean, variance/float32(len(row)), gain, beta)
}

// SoftmaxRow turns one row of masked logits into probabilities in place (at temperature t > 0);
// masked entries become exactly 0.
func SoftmaxRow(logits []float32, t float32) {
	maxv := float32(math.Inf(-1))
	for _, v := range logits {
		maxv = max(maxv, v)
	}
	var sum float64
	for i, v := range logits {
		if v <= maskedLogit/2 {
			logits[i] = 0
			continue
		}
		e := float32(math.Exp(float64((v - maxv) / t)))
		logits[i] = e
		sum += float64(e)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / sum)
	for i := range logits {
		logits[i] *= inv
	}
}
