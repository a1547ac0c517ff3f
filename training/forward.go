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

// Workspace holds the scratch buffers of one forward pass; reuse it to allocate nothing.
type Workspace struct {
	a, b []float32
}

func (ws *Workspace) grow(rows, width int) {
	if need := rows * width; cap(ws.a) < need {
		ws.a = make([]float32, need)
		ws.b = make([]float32, need)
	}
}

// Forward computes, for a batch of rows, the masked logits [rows*A] (illegal actions get a
// very negative logit) and the values [rows*V]. obs is [rows*D]; mask is [rows*A] with
// non-zero meaning legal (nil: everything legal). logits or values may be nil to skip them.
func (n *Net) Forward(ws *Workspace, rows int, obs, mask, logits, values []float32) {
	h := n.trunk(ws, rows, obs)
	width := n.cfg.trunkOut()
	if logits != nil {
		if mask == nil {
			dense(h, rows, width, n.policy, logits)
		} else {
			// Only legal actions need a logit: a dot product with the transposed weights each
			// (a handful per decision instead of all A columns).
			A := n.cfg.NumActions
			for r := range rows {
				hr := h[r*width : (r+1)*width]
				lr, mr := logits[r*A:(r+1)*A], mask[r*A:(r+1)*A]
				for a, m := range mr {
					if m == 0 {
						lr[a] = maskedLogit
						continue
					}
					wa := n.policyT[a*width : (a+1)*width]
					wa = wa[:len(hr)]
					sum := n.policy.b[a]
					for i, x := range hr {
						sum += x * wa[i]
					}
					lr[a] = sum
				}
			}
		}
	}
	if values != nil {
		dense(h, rows, width, n.value, values)
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

// trunk runs the hidden layers and returns the trunk output [rows*width] (obs with depth 0).
func (n *Net) trunk(ws *Workspace, rows int, obs []float32) []float32 {
	if len(n.layers) == 0 {
		return obs[:rows*n.cfg.ObsDim]
	}
	ws.grow(rows, n.cfg.Width)
	in := obs[:rows*n.cfg.ObsDim]
	bufs := [2][]float32{ws.a[:rows*n.cfg.Width], ws.b[:rows*n.cfg.Width]}
	for i, l := range n.layers {
		out := bufs[i%2]
		if i == 0 {
			denseSparse(in, rows, l.in, l, out)
		} else {
			dense(in, rows, l.in, l, out)
		}
		for r := range rows {
			row := out[r*l.out : (r+1)*l.out]
			if l.gain != nil {
				layerNorm(row, l.gain, l.beta)
			}
			for j, v := range row {
				if v < 0 {
					row[j] = 0
				}
			}
		}
		in = out
	}
	return in
}

// dense computes out[r] = in[r] @ l.w + l.b for each row, four rows at a time so each weight
// row is loaded once per block (hidden activations are dense).
func dense(in []float32, rows, width int, l denseLayer, out []float32) {
	r := 0
	for ; r+4 <= rows; r += 4 {
		o0 := out[r*l.out : (r+1)*l.out]
		o1 := out[(r+1)*l.out : (r+2)*l.out]
		o2 := out[(r+2)*l.out : (r+3)*l.out]
		o3 := out[(r+3)*l.out : (r+4)*l.out]
		copy(o0, l.b)
		copy(o1, l.b)
		copy(o2, l.b)
		copy(o3, l.b)
		x0 := in[r*width : (r+1)*width]
		x1 := in[(r+1)*width : (r+2)*width]
		x2 := in[(r+2)*width : (r+3)*width]
		x3 := in[(r+3)*width : (r+4)*width]
		for i := range x0 {
			a, b, c, d := x0[i], x1[i], x2[i], x3[i]
			if a == 0 && b == 0 && c == 0 && d == 0 {
				continue
			}
			w := l.w[i*l.out : (i+1)*l.out]
			w = w[:len(o0)]
			o1, o2, o3 := o1[:len(w)], o2[:len(w)], o3[:len(w)]
			for j, wj := range w {
				o0[j] += a * wj
				o1[j] += b * wj
				o2[j] += c * wj
				o3[j] += d * wj
			}
		}
	}
	denseSparse(in[r*width:], rows-r, width, l, out[r*l.out:])
}

// denseSparse is dense one row at a time, skipping zero inputs: the observation is mostly
// zeros (one-hot groups), so the first layer touches only the weight rows of its non-zero
// features.
func denseSparse(in []float32, rows, width int, l denseLayer, out []float32) {
	for r := 0; r < rows; r++ {
		o := out[r*l.out : (r+1)*l.out]
		copy(o, l.b)
		x := in[r*width : (r+1)*width]
		for i, xv := range x {
			if xv == 0 {
				continue
			}
			w := l.w[i*l.out : (i+1)*l.out]
			w = w[:len(o)]
			for j := range o {
				o[j] += xv * w[j]
			}
		}
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
	variance /= float32(len(row))
	inv := float32(1 / math.Sqrt(float64(variance)+layerNormEpsilon))
	for j, v := range row {
		row[j] = (v-mean)*inv*gain[j] + beta[j]
	}
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
