package training

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Weights holds a network's configuration and its float32 weight tensors in NetConfig.Params
// order (row-major).
type Weights struct {
	Config  NetConfig
	Tensors [][]float32
}

// NewWeights returns freshly initialised weights: He-normal trunk weights, small policy and
// value head weights, zero biases, unit layer-norm gains. The result depends only on seed.
func NewWeights(cfg NetConfig, seed uint64) (*Weights, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	w := &Weights{Config: cfg}
	for _, p := range cfg.Params() {
		t := make([]float32, p.Size())
		switch {
		case len(p.Shape) == 2:
			std := math.Sqrt(2 / float64(p.Shape[0]))
			if p.Name == "policy_w" || p.Name == "value_w" {
				std = 0.01
			}
			for i := range t {
				t[i] = float32(rng.NormFloat64() * std)
			}
		case len(p.Name) > 2 && p.Name[len(p.Name)-2:] == "_g":
			for i := range t {
				t[i] = 1
			}
		}
		w.Tensors = append(w.Tensors, t)
	}
	return w, nil
}

// Check verifies that the tensors match the configuration's shapes and are finite.
func (w *Weights) Check() error {
	if err := w.Config.Validate(); err != nil {
		return err
	}
	ps := w.Config.Params()
	if len(ps) != len(w.Tensors) {
		return fmt.Errorf("%w: %d weight tensors for a network with %d", ErrConfig, len(w.Tensors), len(ps))
	}
	for i, p := range ps {
		if len(w.Tensors[i]) != p.Size() {
			return fmt.Errorf("%w: tensor %s has %d values, want %d", ErrConfig, p.Name, len(w.Tensors[i]), p.Size())
		}
		for _, v := range w.Tensors[i] {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%w: tensor %s holds a non-finite value", ErrConfig, p.Name)
			}
		}
	}
	return nil
}

// Clone returns a deep copy.
func (w *Weights) Clone() *Weights {
	c := &Weights{Config: w.Config, Tensors: make([][]float32, len(w.Tensors))}
	for i, t := range w.Tensors {
		c.Tensors[i] = append([]float32(nil), t...)
	}
	return c
}
