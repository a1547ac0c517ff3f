package training

import (
	"math"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// oneLegalBatch is a batch of rows that each have exactly one legal action (so the policy's
// log-probability of the action taken is 0 whatever the weights), with the given old
// log-probabilities and advantages.
func oneLegalBatch(cfg NetConfig, oldLogp, adv []float32) *Batch {
	rows := len(oldLogp)
	b := &Batch{Rows: rows, Obs: make([]float32, rows*cfg.ObsDim), Mask: make([]float32, rows*cfg.NumActions),
		Actions: make([]int32, rows), Values: make([]float32, rows*cfg.ValueDim), OldLogp: oldLogp, Advantages: adv}
	for r := range rows {
		a := r % cfg.NumActions
		b.Obs[r*cfg.ObsDim+r%cfg.ObsDim] = 1
		b.Mask[r*cfg.NumActions+a] = 1
		b.Actions[r] = int32(a)
	}
	return b
}

func tinyTrainer(t *testing.T, cfg NetConfig, hp Hyper) *Trainer {
	t.Helper()
	w, err := NewWeights(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(backend, w, hp)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestPPOPolicyLossIsTheClippedSurrogateOfHandComputedRatios: with the policy's
// log-probability of each action 0 (one legal action), old log-probabilities 0, -0.5 and
// +0.5 give ratios 1, e^0.5 and e^-0.5; the PPO policy loss is minus the mean of
// min(ratio*A, clip(ratio, 1-eps, 1+eps)*A), and the clip fraction counts the ratios
// outside [1-eps, 1+eps]. An unchanged policy (ratio 1) is not clipped for either sign of
// the advantage.
func TestPPOPolicyLossIsTheClippedSurrogateOfHandComputedRatios(t *testing.T) {
	cfg := NetConfig{ObsDim: 4, NumActions: 6, ValueDim: 1, Width: 4, Depth: 1, Norm: NormNone}
	const eps = 0.2
	tr := tinyTrainer(t, cfg, Hyper{LearningRate: 1e-3, ValueCoef: 0.5, EntropyCoef: 0.01, ClipEps: eps})
	oldLogp := []float32{0, 0, -0.5, -0.5, 0.5, 0.5}
	adv := []float32{1, -1, 1, -1, 1, -1}
	var sum float64
	clipped := 0
	for i := range oldLogp {
		ratio := math.Exp(-float64(oldLogp[i]))
		a := float64(adv[i])
		sum += math.Min(ratio*a, math.Min(math.Max(ratio, 1-eps), 1+eps)*a)
		if math.Abs(ratio-1) > eps {
			clipped++
		}
	}
	wantLoss := -sum / float64(len(adv)) // (1 - 1 + 1.2 - 1.6487 + 0.6065 - 0.8) / 6, negated
	m, err := tr.PPOStep(oneLegalBatch(cfg, oldLogp, adv))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(m.PolicyLoss-wantLoss) > 1e-5 {
		t.Errorf("policy loss %.6f, want %.6f (clipped surrogate by hand)", m.PolicyLoss, wantLoss)
	}
	if want := float64(clipped) / float64(len(adv)); math.Abs(m.ClipFrac-want) > 1e-6 {
		t.Errorf("clip fraction %g, want %g", m.ClipFrac, want)
	}
	// Only the unchanged rows: the loss is minus the mean advantage, nothing clipped.
	m, err = tr.PPOStep(oneLegalBatch(cfg, []float32{0, 0, 0}, []float32{1, -1, -1}))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(m.PolicyLoss-1.0/3) > 1e-5 || m.ClipFrac != 0 {
		t.Errorf("ratio 1: policy loss %.6f, clip fraction %g; want 1/3 (minus the mean advantage) and 0", m.PolicyLoss, m.ClipFrac)
	}
}

// TestCompactColumnsPadsToTheNextMultipleOf32: the compacted width is the number of columns
// in use rounded up to a multiple of 32 (at least 32, at most all of them): a batch that
// uses exactly 32 or 64 columns is not padded with another 32 zero columns.
func TestCompactColumnsPadsToTheNextMultipleOf32(t *testing.T) {
	const d = 200
	for _, c := range []struct{ used, want int }{{0, 32}, {1, 32}, {31, 32}, {32, 32}, {33, 64}, {64, 64}, {65, 96}, {199, 200}} {
		m := make([]float32, d)
		for j := range c.used {
			m[j*d/max(c.used, 1)] = 1
		}
		var scratch []float32
		cols, out := compactColumns(m, 1, d, nil, widthsFine, &scratch)
		if len(cols) != c.want || len(out) != c.want {
			t.Errorf("%d columns in use of %d: width %d (%d values), want %d", c.used, d, len(cols), len(out), c.want)
		}
	}
}

// TestCheckpointTensorsRoundTripInt64AndFloat32OfAnyLength: a variable saved in a checkpoint
// (tensorToRaw) reads back (rawToTensor) with its shape and every value, for int64 tensors of
// several elements as well as the optimizer's scalar step counter.
func TestCheckpointTensorsRoundTripInt64AndFloat32OfAnyLength(t *testing.T) {
	for _, tt := range []*tensors.Tensor{
		tensors.FromFlatDataAndDimensions([]int64{-3}, 1),
		tensors.FromFlatDataAndDimensions([]int64{1, -2, 1 << 40, 7}, 2, 2),
		tensors.FromFlatDataAndDimensions([]float32{1.5, -2, 3}, 3),
	} {
		raw, err := tensorToRaw("v", tt)
		if err != nil {
			t.Fatal(err)
		}
		back, err := rawToTensor(raw)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.Shape().Dimensions, tt.Shape().Dimensions) || back.DType() != tt.DType() {
			t.Fatalf("%s read back as %s", tt.Shape(), back.Shape())
		}
		if got, want := back.Value(), tt.Value(); !sameValue(got, want) {
			t.Errorf("%s: read back %v, want %v", tt.Shape(), got, want)
		}
	}
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case [][]int64:
		y := b.([][]int64)
		return slices.EqualFunc(x, y, slices.Equal)
	case []int64:
		return slices.Equal(x, b.([]int64))
	case []float32:
		return slices.Equal(x, b.([]float32))
	}
	return false
}

// TestLargeBatchesRunOnTwoShardsOnThePureGoBackend: on the pure-Go backend a BC or PPO step
// of 2*minShardRows rows is split over two concurrent shards (shard 1's buffers are used), and
// a step of fewer than 2*minShardRows rows runs whole.
func TestLargeBatchesRunOnTwoShardsOnThePureGoBackend(t *testing.T) {
	cfg := NetConfig{ObsDim: 4, NumActions: 6, ValueDim: 1, Width: 4, Depth: 1, Norm: NormNone}
	hp := DefaultPPOOptions().Hyper
	for _, ppo := range []bool{false, true} {
		for _, rows := range []int{2*minShardRows - 1, 2 * minShardRows} {
			tr := tinyTrainer(t, cfg, hp)
			tr.SetShards(2)
			b := oneLegalBatch(cfg, make([]float32, rows), make([]float32, rows))
			var err error
			if ppo {
				_, err = tr.PPOStep(b)
			} else {
				_, err = tr.BCStep(b)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := tr.scratch[1].obs != nil, rows >= 2*minShardRows; got != want {
				t.Errorf("ppo %v, %d rows: second shard used %v, want %v", ppo, rows, got, want)
			}
		}
	}
}

// TestCompactWidthsPerRule: the pure-Go backend's widths are multiples of 32, a compiling
// backend's 32 times a power of two (so a run compiles at most 6 observation widths of 773),
// never more than all d columns, and widthsAll is always d.
func TestCompactWidthsPerRule(t *testing.T) {
	for _, c := range []struct {
		rule       widthRule
		n, d, want int
	}{
		{widthsFine, 1, 773, 32}, {widthsFine, 33, 773, 64}, {widthsFine, 430, 773, 448}, {widthsFine, 770, 773, 773},
		{widthsFew, 1, 773, 32}, {widthsFew, 33, 773, 64}, {widthsFew, 430, 773, 512}, {widthsFew, 513, 773, 773},
		{widthsFew, 100, 241, 128}, {widthsFew, 200, 241, 241},
		{widthsAll, 1, 773, 773},
	} {
		if got := c.rule.compactWidth(c.n, c.d); got != c.want {
			t.Errorf("rule %d: width for %d of %d columns %d, want %d", c.rule, c.n, c.d, got, c.want)
		}
	}
	seen := map[int]bool{}
	for n := 1; n <= 773; n++ {
		seen[widthsFew.compactWidth(n, 773)] = true
	}
	if len(seen) != 6 {
		t.Errorf("%d observation widths on a compiling backend, want 6", len(seen))
	}
}
