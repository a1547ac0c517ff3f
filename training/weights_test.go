package training

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestNewWeightsUsesHeInitForTheTrunkAndSmallHeads: fresh weights draw each trunk matrix
// from a normal distribution with standard deviation sqrt(2 / fan-in) (He initialisation, so
// the ReLU layers neither vanish nor explode), the policy and value head matrices with
// standard deviation 0.01 (an untrained bot plays near-uniformly and predicts values near 0),
// biases 0 and layer-norm gains 1.
func TestNewWeightsUsesHeInitForTheTrunkAndSmallHeads(t *testing.T) {
	cfg := NetConfig{ObsDim: 200, NumActions: 40, ValueDim: 16, Width: 64, Depth: 2, Norm: NormLayer}
	w, err := NewWeights(cfg, 9)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range cfg.Params() {
		tn := w.Tensors[i]
		var sum, sq float64
		for _, v := range tn {
			sum += float64(v)
			sq += float64(v) * float64(v)
		}
		n := float64(len(tn))
		mean, std := sum/n, math.Sqrt(sq/n)
		switch {
		case p.Name == "policy_w" || p.Name == "value_w":
			if math.Abs(std-0.01) > 0.001 || math.Abs(mean) > 0.001 {
				t.Errorf("%s: mean %.4f std %.4f, want 0 and 0.01", p.Name, mean, std)
			}
		case strings.HasSuffix(p.Name, "_w"):
			want := math.Sqrt(2 / float64(p.Shape[0]))
			if math.Abs(std-want) > 0.05*want || math.Abs(mean) > 0.05*want {
				t.Errorf("%s: mean %.4f std %.4f, want 0 and %.4f", p.Name, mean, std, want)
			}
		case strings.HasSuffix(p.Name, "_g"):
			if mean != 1 || std != 1 {
				t.Errorf("%s: not all ones", p.Name)
			}
		default:
			if sq != 0 {
				t.Errorf("%s: not all zeros", p.Name)
			}
		}
	}
}

// TestWeightsCheckRefusesTensorsThatDoNotFitTheConfig: Check (run on every loaded bot file
// and checkpoint) refuses a missing tensor, a tensor of the wrong size and a NaN or infinite
// weight, naming the tensor, and accepts the weights as made.
func TestWeightsCheckRefusesTensorsThatDoNotFitTheConfig(t *testing.T) {
	cfg := NetConfig{ObsDim: 5, NumActions: 4, ValueDim: 2, Width: 3, Depth: 1, Norm: NormLayer}
	good, err := NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := good.Check(); err != nil {
		t.Fatalf("fresh weights: %v", err)
	}
	for _, c := range []struct {
		name  string
		spoil func(w *Weights)
		want  string
	}{
		{"missing tensor", func(w *Weights) { w.Tensors = w.Tensors[:len(w.Tensors)-1] }, "weight tensors"},
		{"short tensor", func(w *Weights) { w.Tensors[1] = w.Tensors[1][:2] }, "trunk0_b has 2 values, want 3"},
		{"NaN", func(w *Weights) { w.Tensors[4][3] = float32(math.NaN()) }, "policy_w holds a non-finite value"},
		{"+Inf", func(w *Weights) { w.Tensors[7][1] = float32(math.Inf(1)) }, "value_b holds a non-finite value"},
		{"-Inf", func(w *Weights) { w.Tensors[0][0] = float32(math.Inf(-1)) }, "trunk0_w holds a non-finite value"},
	} {
		w := good.Clone()
		c.spoil(w)
		err := w.Check()
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want an ErrConfig naming %q", c.name, err, c.want)
		}
	}
}
