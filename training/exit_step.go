package training

import (
	"fmt"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // GoMLX graph DSL
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// exitMetricCount is the number of scalars exitLossGraph returns.
const exitMetricCount = 5

// exitLossGraph returns [loss, policy loss, value loss, accuracy, entropy] for search
// targets: the cross-entropy of the masked policy against the search's visit distribution,
// plus ValueCoef times the mean squared error of the value head; accuracy is how often the
// network's most likely action is the search's most visited one, entropy that of the
// network's policy. in: obs, obs columns, mask, action ids, target distribution (over the
// mask's columns), value targets.
func exitLossGraph(ctx *context.Context, cfg NetConfig, hp Hyper, in []*Node) []*Node {
	obs, cols, mask, acts, target, values := in[0], in[1], in[2], in[3], in[4], in[5]
	logits, pred := modelGraph(ctx, cfg, obs, cols, mask, acts)
	logp := LogSoftmax(logits, -1)
	policyLoss := Neg(ReduceAllMean(ReduceSum(Mul(target, logp), -1)))
	valueLoss := ReduceAllMean(Square(Sub(pred, values)))
	loss := Add(policyLoss, MulScalar(valueLoss, hp.ValueCoef))
	same := Equal(ArgMax(logits, -1, dtypes.Int32), ArgMax(target, -1, dtypes.Int32))
	acc := ReduceAllMean(ConvertDType(same, dtypes.Float32))
	entropy := Neg(ReduceAllMean(ReduceSum(Mul(Exp(logp), logp), -1)))
	return []*Node{loss, policyLoss, valueLoss, acc, entropy}
}

// exitStepper runs search-target training steps on a Trainer's network and optimizer (the
// same Adam state a behaviour-cloning or PPO step would update).
type exitStepper struct {
	t          *Trainer
	step, grad *context.Exec
	scratch    [maxShards]batchScratch
	target     [maxShards][]float32
}

func newExitStepper(t *Trainer) (*exitStepper, error) {
	s := &exitStepper{t: t}
	err := tryCatch(func() {
		s.step = t.stepExec(exitLossGraph)
		s.grad = t.gradExec(exitLossGraph)
		s.step.SetMaxCache(-1)
		s.grad.SetMaxCache(-1)
	})
	return s, err
}

// tensors turns rows [lo, hi) of b into the loss graph's inputs (compacted like the other
// steps: the batch's non-zero observation columns and legal actions only).
func (s *exitStepper) tensors(b *exitBatch, lo, hi, k int) []any {
	cfg := s.t.cfg
	D, A, V := cfg.ObsDim, cfg.NumActions, cfg.ValueDim
	rows := hi - lo
	sc := &s.scratch[k]
	cols, obs := compactColumns(b.Obs[lo*D:hi*D], rows, D, nil, s.t.widths(), &sc.obs)
	acts, mask := compactColumns(b.Mask[lo*A:hi*A], rows, A, nil, s.t.widths(), &sc.mask)
	w := len(acts)
	if cap(s.target[k]) < rows*w {
		s.target[k] = make([]float32, rows*w)
	}
	target := s.target[k][:rows*w]
	for r := range rows {
		src := b.Policy[(lo+r)*A : (lo+r+1)*A]
		for i, a := range acts {
			target[r*w+i] = src[a]
		}
	}
	return []any{
		tensors.FromFlatDataAndDimensions(obs, rows, len(cols)),
		tensors.FromFlatDataAndDimensions(cols, len(cols)),
		tensors.FromFlatDataAndDimensions(mask, rows, w),
		tensors.FromFlatDataAndDimensions(acts, w),
		tensors.FromFlatDataAndDimensions(target, rows, w),
		tensors.FromFlatDataAndDimensions(b.Values[lo*V:hi*V], rows, V),
	}
}

// Step runs one optimisation step on b: one execution, or (on the pure-Go backend, large
// enough batches) concurrent shards whose row-weighted gradients feed one optimizer update,
// exactly as the behaviour-cloning and PPO steps do (shard.go).
func (s *exitStepper) Step(b *exitBatch) (StepMetrics, error) {
	k := s.t.shardCount(b.Rows)
	if k <= 1 {
		var out []*tensors.Tensor
		if err := tryCatch(func() { out = s.step.MustExec(s.tensors(b, 0, b.Rows, 0)...) }); err != nil {
			return StepMetrics{}, fmt.Errorf("training: step: %w", err)
		}
		v, err := scalars(out)
		if err != nil {
			return StepMetrics{}, err
		}
		return exitMetrics(v), nil
	}
	metrics, err := s.t.runShards(b.Rows, k, exitMetricCount, func(sh, lo, hi int) []*tensors.Tensor {
		return s.grad.MustExec(s.tensors(b, lo, hi, sh)...)
	})
	if err != nil {
		return StepMetrics{}, err
	}
	return exitMetrics(metrics), nil
}

func exitMetrics(v []float64) StepMetrics {
	return StepMetrics{Loss: v[0], PolicyLoss: v[1], ValueLoss: v[2], Accuracy: v[3], Entropy: v[4]}
}
