package training

import (
	"fmt"
	"sync"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Sharded training steps.
//
// The pure-Go backend runs a graph's operations one after another: only the matrix products
// use more than one core, and the element-wise work around them (bias, layer norm, softmax,
// their gradients) runs on one. A sharded step therefore splits the batch into K row
// ranges, computes each range's loss and gradients in its own concurrent execution, and then
// applies the optimizer once to the row-weighted sum of the shard gradients — the gradient
// of the full batch's mean loss, so the update is the same as an unsharded step up to float
// rounding. It is only used where it pays: the pure-Go backend, at least minShardRows rows
// per shard (so the split depends only on the batch size, never on the machine).

// minShardRows is the smallest shard worth its own execution.
const minShardRows = 64

// maxShards caps SetShards.
const maxShards = 4

// goBackendShards is the shard count on the pure-Go backend. It is fixed rather than the
// number of cores so that a run computes the same numbers on any machine (the backend's
// matrix products sum in a fixed order whatever its parallelism; splitting a batch
// differently would round differently). Two shards measured fastest on two cores; on one
// core they still interleave the same work.
const goBackendShards = 2

// defaultShards is the shard count used for a backend: goBackendShards on the pure-Go
// backend, none on others (XLA parallelises a graph itself).
func defaultShards(b backends.Backend) int {
	if _, ok := b.(*simplego.Backend); !ok {
		return 1
	}
	return goBackendShards
}

// compiles reports whether a backend compiles each graph shape ahead of running it (XLA),
// as opposed to the pure-Go backend, which interprets graphs: such backends get few
// compacted widths (widthsFew) so that their compiled-graph caches hit.
func compiles(b backends.Backend) bool {
	_, ok := b.(*simplego.Backend)
	return !ok
}

// SetShards sets how many concurrent shards a training step may split its batch into (1
// turns sharding off). The result of a step does not depend on it beyond float rounding.
func (t *Trainer) SetShards(n int) { t.shards = max(1, min(maxShards, n)) }

// shardCount is the number of shards a batch of the given rows is split into.
func (t *Trainer) shardCount(rows int) int {
	k := t.shards
	for k > 1 && rows/k < minShardRows {
		k--
	}
	return k
}

// rowsView returns rows [lo, hi) of b without copying.
func (b *Batch) rowsView(cfg NetConfig, lo, hi int) *Batch {
	v := &Batch{Rows: hi - lo,
		Obs:     b.Obs[lo*cfg.ObsDim : hi*cfg.ObsDim],
		Mask:    b.Mask[lo*cfg.NumActions : hi*cfg.NumActions],
		Actions: b.Actions[lo:hi],
		Values:  b.Values[lo*cfg.ValueDim : hi*cfg.ValueDim],
	}
	if len(b.OldLogp) >= hi {
		v.OldLogp = b.OldLogp[lo:hi]
	}
	if len(b.Advantages) >= hi {
		v.Advantages = b.Advantages[lo:hi]
	}
	return v
}

// shardedStep runs grad (bcGrad or ppoGrad) on k row ranges of b concurrently, then one
// optimizer update with their row-weighted gradients. Metrics are row-weighted means.
func (t *Trainer) shardedStep(grad *context.Exec, b *Batch, ppo bool, k int) (StepMetrics, error) {
	nMetrics := 4
	if ppo {
		nMetrics = 5
	}
	metrics, err := t.runShards(b.Rows, k, nMetrics, func(s, lo, hi int) []*tensors.Tensor {
		return grad.MustExec(t.batchTensors(b.rowsView(t.cfg, lo, hi), ppo, &t.scratch[s])...)
	})
	if err != nil {
		return StepMetrics{}, err
	}
	return stepMetrics(metrics, ppo), nil
}

// runShards splits rows into k ranges and runs exec(s, lo, hi) on each range [lo, hi)
// concurrently (shard s may use scratch slot s). exec returns nMetrics scalar metrics
// followed by the gradients of the trainable variables; the shards' gradients, weighted by
// each shard's share of the rows, feed one optimizer update, and the metrics returned are
// the row-weighted means. Every tensor exec returns is released, on error too.
func (t *Trainer) runShards(rows, k, nMetrics int, exec func(s, lo, hi int) []*tensors.Tensor) ([]float64, error) {
	outs := make([][]*tensors.Tensor, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for s := range k {
		lo, hi := s*rows/k, (s+1)*rows/k
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[s] = tryCatch(func() { outs[s] = exec(s, lo, hi) })
		}()
	}
	wg.Wait()
	release := func() {
		for _, o := range outs {
			for _, tt := range o {
				tt.FinalizeAll()
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			release()
			return nil, fmt.Errorf("training: step: %w", err)
		}
	}
	metrics := make([]float64, nMetrics)
	args := make([]any, 0, k*len(outs[0]))
	for s := range k {
		weight := float64((s+1)*rows/k-s*rows/k) / float64(rows)
		v, err := scalars(outs[s][:nMetrics]) // also releases the metric tensors
		if err != nil {
			release()
			return nil, err
		}
		for i := range metrics {
			metrics[i] += weight * v[i]
		}
		args = append(args, float32(weight))
		for _, g := range outs[s][nMetrics:] {
			args = append(args, g)
		}
	}
	var res []*tensors.Tensor
	err := tryCatch(func() { res = t.apply.MustExec(args...) })
	for s := range k {
		for _, g := range outs[s][nMetrics:] {
			g.FinalizeAll()
		}
	}
	for _, r := range res {
		r.FinalizeAll()
	}
	if err != nil {
		return nil, fmt.Errorf("training: step: %w", err)
	}
	return metrics, nil
}
