package training

import (
	"fmt"
	"math"
	"slices"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // GoMLX graph DSL
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"
)

// Hyper holds the optimisation hyperparameters (saved with checkpoints).
type Hyper struct {
	LearningRate float64 `json:"learning_rate"`
	ValueCoef    float64 `json:"value_coef"`   // weight of the value loss
	EntropyCoef  float64 `json:"entropy_coef"` // PPO entropy bonus
	ClipEps      float64 `json:"clip_eps"`     // PPO ratio clip
	// ValueOnly makes behaviour cloning's loss the value error alone (a value network for
	// the search's value=FILE.bot; the policy head is not trained and the trunk moves under it).
	ValueOnly bool `json:"value_only,omitempty"`
}

// Batch is one training batch as contiguous float32/int32 slices (rows B).
type Batch struct {
	Rows    int
	Obs     []float32 // [B*D]
	Mask    []float32 // [B*A], non-zero = legal
	Actions []int32   // [B]
	Values  []float32 // [B*V] value targets (each seat's outcome, seats relative to the decider)
	// Policy is train exit's target distribution [B*A] (empty otherwise).
	Policy []float32
	// PPO only:
	OldLogp    []float32 // [B] behaviour log-probability of Actions
	Advantages []float32 // [B]
}

// StepMetrics are the scalars one training step reports.
type StepMetrics struct {
	Loss, PolicyLoss, ValueLoss, Accuracy, Entropy, ClipFrac float64
}

// Trainer owns a GoMLX context holding the network and optimizer state, and the compiled
// training and evaluation steps.
type Trainer struct {
	backend backends.Backend
	ctx     *context.Context
	cfg     NetConfig
	hp      Hyper
	bcStep  *context.Exec
	bcEval  *context.Exec
	ppoStep *context.Exec

	// Sharded steps (see shardedStep): per-shard loss and gradients, then one Adam update.
	shards    int
	bcGrad    *context.Exec
	ppoGrad   *context.Exec
	apply     *context.Exec
	scratch   [maxShards]batchScratch // host buffers, one set per shard
	noCompact bool                    // feed whole rows (tests compare against it)
	coarse    bool                    // few compacted widths (a compiling backend: XLA)
}

// NewTrainer starts from the given weights (fresh Adam state).
func NewTrainer(backend backends.Backend, w *Weights, hp Hyper) (*Trainer, error) {
	t := &Trainer{backend: backend, ctx: context.New(), cfg: w.Config, hp: hp, shards: defaultShards(backend), coarse: compiles(backend)}
	if err := w.Check(); err != nil {
		return nil, err
	}
	if err := setModelVariables(t.ctx, w); err != nil {
		return nil, err
	}
	return t, t.compile()
}

// restoreTrainer rebuilds a trainer from checkpointed variables (network and optimizer).
func restoreTrainer(backend backends.Backend, cfg NetConfig, hp Hyper, vars map[string]*tensors.Tensor) (*Trainer, error) {
	t := &Trainer{backend: backend, ctx: context.New(), cfg: cfg, hp: hp, shards: defaultShards(backend), coarse: compiles(backend)}
	err := tryCatch(func() {
		for key, val := range vars {
			scope, name := context.SplitScope(key)
			t.ctx.InAbsPath(scope).Checked(false).VariableWithValue(name, val)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%w: checkpoint variables: %v", ErrCorrupt, err)
	}
	if _, err := modelWeights(t.ctx, cfg); err != nil {
		return nil, fmt.Errorf("%w: checkpoint: %v", ErrCorrupt, err)
	}
	return t, t.compile()
}

func (t *Trainer) optimizer() optimizers.Interface {
	return optimizers.Adam().LearningRate(t.hp.LearningRate).Done()
}

// lossGraph builds a training loss's outputs (the loss first, then the other metrics).
type lossGraph func(ctx *context.Context, cfg NetConfig, hp Hyper, in []*Node) []*Node

// stepExec compiles one optimisation step on loss: its outputs, and the optimizer's update
// of the network. It panics on a graph error (callers run it under tryCatch).
func (t *Trainer) stepExec(loss lossGraph) *context.Exec {
	cfg, hp := t.cfg, t.hp
	return context.MustNewExec(t.backend, t.ctx, func(ctx *context.Context, in []*Node) []*Node {
		g := in[0].Graph()
		ctx.SetTraining(g, true)
		outs := loss(ctx, cfg, hp, in)
		t.optimizer().UpdateGraph(ctx, g, outs[0])
		return outs
	})
}

// gradExec compiles loss's outputs followed by one gradient per trainable variable (in the
// context's variable order, which the optimizer follows too), for sharded steps (runShards).
// It panics on a graph error (callers run it under tryCatch).
func (t *Trainer) gradExec(loss lossGraph) *context.Exec {
	cfg, hp := t.cfg, t.hp
	return context.MustNewExec(t.backend, t.ctx, func(ctx *context.Context, in []*Node) []*Node {
		ctx.SetTraining(in[0].Graph(), true)
		outs := loss(ctx, cfg, hp, in)
		return append(outs, ctx.BuildTrainableVariablesGradientsGraph(outs[0])...)
	})
}

func (t *Trainer) compile() error {
	cfg, hp := t.cfg, t.hp
	return tryCatch(func() {
		t.bcStep = t.stepExec(bcLossGraph)
		t.bcEval = context.MustNewExec(t.backend, t.ctx, func(ctx *context.Context, in []*Node) []*Node {
			return bcLossGraph(ctx, cfg, hp, in)
		})
		t.ppoStep = t.stepExec(ppoLossGraph)
		t.bcGrad = t.gradExec(bcLossGraph)
		t.ppoGrad = t.gradExec(ppoLossGraph)
		// Compacted inputs (see compactColumns) vary in width from batch to batch: a graph per
		// width pair and row count, a bounded number (widths are multiples of columnBucket).
		for _, e := range []*context.Exec{t.bcStep, t.bcEval, t.ppoStep, t.bcGrad, t.ppoGrad} {
			e.SetMaxCache(-1)
		}
		// apply takes, per shard, its weight (rows/total) and its gradients, and runs the
		// optimizer on the weighted sum: the full batch's mean gradient.
		t.apply = context.MustNewExec(t.backend, t.ctx, func(ctx *context.Context, in []*Node) []*Node {
			g := in[0].Graph()
			var vars []*context.Variable
			for v := range ctx.IterVariables() {
				// The network's variables, in the order the gradient graphs return them
				// (a restored checkpoint also holds optimizer state, not trained).
				if v.Trainable && v.Scope() == context.RootScope+modelScope {
					vars = append(vars, v)
				}
			}
			per := 1 + len(vars)
			if len(in)%per != 0 {
				panic(fmt.Sprintf("training: apply: %d inputs for %d variables", len(in), len(vars)))
			}
			grads := make([]*Node, len(vars))
			for k := 0; k < len(in); k += per {
				for i := range vars {
					term := Mul(in[k+1+i], in[k])
					if grads[i] == nil {
						grads[i] = term
					} else {
						grads[i] = Add(grads[i], term)
					}
				}
			}
			for _, v := range vars {
				v.ValueGraph(g) // mark every trainable variable as used, as the gradient graphs do
			}
			t.optimizer().(interface {
				UpdateGraphWithGradients(*context.Context, []*Node, dtypes.DType)
			}).UpdateGraphWithGradients(ctx, grads, dtypes.Float32)
			return []*Node{ScalarZero(g, dtypes.Float32)}
		})
	})
}

// bcLossGraph returns [loss, policy loss, value loss, accuracy] for behaviour cloning:
// cross-entropy of the masked policy against the action taken plus ValueCoef times the mean
// squared error of the value head; with ValueOnly, the value error alone (the policy loss and
// accuracy are still reported).
func bcLossGraph(ctx *context.Context, cfg NetConfig, hp Hyper, in []*Node) []*Node {
	obs, cols, mask, acts, actions, targets := in[0], in[1], in[2], in[3], in[4], in[5]
	logits, values := modelGraph(ctx, cfg, obs, cols, mask, acts)
	logp := LogSoftmax(logits, -1)
	onehot := OneHot(actions, logits.Shape().Dim(-1), dtypes.Float32)
	policyLoss := Neg(ReduceAllMean(ReduceSum(Mul(onehot, logp), -1)))
	valueLoss := ReduceAllMean(Square(Sub(values, targets)))
	loss := Add(policyLoss, MulScalar(valueLoss, hp.ValueCoef))
	if hp.ValueOnly {
		loss = valueLoss
	}
	pred := ArgMax(logits, -1, dtypes.Int32)
	acc := ReduceAllMean(ConvertDType(Equal(pred, actions), dtypes.Float32))
	return []*Node{loss, policyLoss, valueLoss, acc}
}

// ppoLossGraph returns [loss, policy loss, value loss, entropy, clip fraction] for the
// clipped PPO objective. in: obs, mask, actions, old log-probabilities, advantages, value
// targets.
func ppoLossGraph(ctx *context.Context, cfg NetConfig, hp Hyper, in []*Node) []*Node {
	obs, cols, mask, acts, actions, oldLogp, adv, targets := in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7]
	logits, values := modelGraph(ctx, cfg, obs, cols, mask, acts)
	logp := LogSoftmax(logits, -1)
	onehot := OneHot(actions, logits.Shape().Dim(-1), dtypes.Float32)
	actLogp := ReduceSum(Mul(onehot, logp), -1)
	ratio := Exp(Sub(actLogp, oldLogp))
	g := obs.Graph()
	lo, hi := Scalar(g, dtypes.Float32, 1-hp.ClipEps), Scalar(g, dtypes.Float32, 1+hp.ClipEps)
	clipped := Min(Max(ratio, lo), hi)
	surrogate := Min(Mul(ratio, adv), Mul(clipped, adv))
	policyLoss := Neg(ReduceAllMean(surrogate))
	valueLoss := ReduceAllMean(Square(Sub(values, targets)))
	probs := Exp(logp)
	entropy := Neg(ReduceAllMean(ReduceSum(Mul(probs, logp), -1)))
	loss := Sub(Add(policyLoss, MulScalar(valueLoss, hp.ValueCoef)), MulScalar(entropy, hp.EntropyCoef))
	clipFrac := ReduceAllMean(ConvertDType(GreaterThan(Abs(Sub(ratio, OnesLike(ratio))), Scalar(g, dtypes.Float32, hp.ClipEps)), dtypes.Float32))
	return []*Node{loss, policyLoss, valueLoss, entropy, clipFrac}
}

// batchTensors turns a batch into the training graphs' inputs: the batch's non-zero
// observation columns and their indices, the mask restricted to the batch's legal actions
// and those actions' ids (see compactColumns), the actions as positions in that list, [old
// log-probabilities, advantages,] value targets. scratch is reused for the compacted rows.
func (t *Trainer) batchTensors(b *Batch, ppo bool, scratch *batchScratch) []any {
	cfg := t.cfg
	cols, obs := compactColumns(b.Obs[:b.Rows*cfg.ObsDim], b.Rows, cfg.ObsDim, b.Actions[:0], t.widths(), &scratch.obs)
	acts, mask := compactColumns(b.Mask[:b.Rows*cfg.NumActions], b.Rows, cfg.NumActions, b.Actions[:b.Rows], t.widths(), &scratch.mask)
	if cap(scratch.pos) < cfg.NumActions {
		scratch.pos = make([]int32, cfg.NumActions)
	}
	pos := scratch.pos[:cfg.NumActions]
	for i, a := range acts {
		pos[a] = int32(i)
	}
	actions := make([]int32, b.Rows)
	for r, a := range b.Actions[:b.Rows] {
		actions[r] = pos[a]
	}
	args := []any{
		tensors.FromFlatDataAndDimensions(obs, b.Rows, len(cols)),
		tensors.FromFlatDataAndDimensions(cols, len(cols)),
		tensors.FromFlatDataAndDimensions(mask, b.Rows, len(acts)),
		tensors.FromFlatDataAndDimensions(acts, len(acts)),
		tensors.FromFlatDataAndDimensions(actions, b.Rows),
	}
	if ppo {
		args = append(args,
			tensors.FromFlatDataAndDimensions(b.OldLogp[:b.Rows], b.Rows),
			tensors.FromFlatDataAndDimensions(b.Advantages[:b.Rows], b.Rows))
	}
	return append(args, tensors.FromFlatDataAndDimensions(b.Values[:b.Rows*cfg.ValueDim], b.Rows, cfg.ValueDim))
}

// columnBucket is the granularity of compacted widths on the pure-Go backend: it bounds how
// many graph shapes a run compiles (the pure-Go matrix kernel works in 32-wide blocks anyway).
const columnBucket = 32

// widthRule says how compactColumns rounds the number of columns it keeps.
type widthRule int

const (
	// widthsFine rounds up to a multiple of columnBucket: up to d/32 widths, each compiled
	// once, which costs nothing on the pure-Go backend (it builds a graph in milliseconds).
	widthsFine widthRule = iota
	// widthsFew rounds up to columnBucket times a power of two (32, 64, 128, ...): a handful
	// of widths, for backends that compile each shape (XLA). With the fine widths a short
	// XLA run spends most of its time compiling: 250 BC steps of 256 rows took 36-38 s
	// against 18-19 s with these (docs/TRAINING.md, "XLA and GPUs").
	widthsFew
	// widthsAll keeps every column (no compaction).
	widthsAll
)

// widths is the rule this trainer's steps use.
func (t *Trainer) widths() widthRule {
	switch {
	case t.noCompact:
		return widthsAll
	case t.coarse:
		return widthsFew
	}
	return widthsFine
}

// compactWidth is the number of columns of d kept when n are needed (n >= 1).
func (r widthRule) compactWidth(n, d int) int {
	switch r {
	case widthsAll:
		return d
	case widthsFew:
		w := columnBucket
		for w < n {
			w *= 2
		}
		return min(d, w)
	}
	return min(d, (n+columnBucket-1)/columnBucket*columnBucket)
}

// batchScratch holds one execution's reusable host buffers.
type batchScratch struct {
	obs, mask []float32
	pos       []int32
}

// compactColumns returns the indices of the columns of the row-major [rows, d] matrix m
// that are non-zero in at least one row or listed in keep, padded with all-zero columns up
// to the width rule's next width (see widthRule), and the rows restricted to those columns,
// written into *scratch. When every column is kept (widthsAll) the indices are 0..d-1.
//
// Observations are sparse (a 4-player game's decision sets ~120 of 771 features, and 128
// rows touch ~430 columns) and so are legal actions (~6 of 240 per decision, ~100 for 128
// rows): the first layer's and the policy head's products shrink accordingly. Dropping
// all-zero observation columns changes nothing — their products with the weights are
// zero, and so are the gradients of the weight rows they would select — and neither does
// dropping actions illegal in every row: their probabilities are exactly zero.
func compactColumns(m []float32, rows, d int, keep []int32, rule widthRule, scratch *[]float32) (cols []int32, out []float32) {
	active := make([]bool, d)
	n := 0
	if rule == widthsAll {
		for j := range active {
			active[j] = true
		}
		n = d
	}
	for _, j := range keep {
		if !active[j] {
			active[j] = true
			n++
		}
	}
	for r := range rows {
		for j, v := range m[r*d : (r+1)*d] {
			if v != 0 && !active[j] {
				active[j] = true
				n++
			}
		}
	}
	want := rule.compactWidth(max(n, 1), d)
	cols = make([]int32, 0, want)
	for j := range d {
		if active[j] {
			cols = append(cols, int32(j))
		}
	}
	for j := 0; len(cols) < want; j++ { // pad with zero columns, keeping the indices sorted
		if !active[j] {
			active[j] = true
			cols = append(cols, int32(j))
		}
	}
	slices.Sort(cols)
	if cap(*scratch) < rows*want {
		*scratch = make([]float32, rows*want)
	}
	out = (*scratch)[:rows*want]
	for r := range rows {
		src, dst := m[r*d:(r+1)*d], out[r*want:(r+1)*want]
		for i, j := range cols {
			dst[i] = src[j]
		}
	}
	return cols, out
}

func scalars(out []*tensors.Tensor) ([]float64, error) {
	res := make([]float64, len(out))
	for i, o := range out {
		v, ok := o.Value().(float32)
		if !ok {
			return nil, fmt.Errorf("training: step output %d is %s, want a float32 scalar", i, o.Shape())
		}
		res[i] = float64(v)
		o.FinalizeAll()
	}
	for _, v := range res {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("training: loss diverged (non-finite metric)")
		}
	}
	return res, nil
}

// BCStep runs one behaviour-cloning optimisation step.
func (t *Trainer) BCStep(b *Batch) (StepMetrics, error) {
	if k := t.shardCount(b.Rows); k > 1 {
		return t.shardedStep(t.bcGrad, b, false, k)
	}
	return t.run(t.bcStep, b, false)
}

// BCEval computes the behaviour-cloning metrics on a batch without updating anything.
func (t *Trainer) BCEval(b *Batch) (StepMetrics, error) {
	return t.run(t.bcEval, b, false)
}

// PPOStep runs one PPO optimisation step on a minibatch.
func (t *Trainer) PPOStep(b *Batch) (StepMetrics, error) {
	if k := t.shardCount(b.Rows); k > 1 {
		return t.shardedStep(t.ppoGrad, b, true, k)
	}
	return t.run(t.ppoStep, b, true)
}

func (t *Trainer) run(e *context.Exec, b *Batch, ppo bool) (StepMetrics, error) {
	var out []*tensors.Tensor
	err := tryCatch(func() { out = e.MustExec(t.batchTensors(b, ppo, &t.scratch[0])...) })
	if err != nil {
		return StepMetrics{}, fmt.Errorf("training: step: %w", err)
	}
	v, err := scalars(out)
	if err != nil {
		return StepMetrics{}, err
	}
	return stepMetrics(v, ppo), nil
}

func stepMetrics(v []float64, ppo bool) StepMetrics {
	if ppo {
		return StepMetrics{Loss: v[0], PolicyLoss: v[1], ValueLoss: v[2], Entropy: v[3], ClipFrac: v[4]}
	}
	return StepMetrics{Loss: v[0], PolicyLoss: v[1], ValueLoss: v[2], Accuracy: v[3]}
}

// Weights copies the current network weights out of the trainer.
func (t *Trainer) Weights() (*Weights, error) { return modelWeights(t.ctx, t.cfg) }

// Config is the network configuration.
func (t *Trainer) Config() NetConfig { return t.cfg }

// variables copies every context variable (network, optimizer moments, step counters).
func (t *Trainer) variables() ([]rawTensor, error) {
	var out []rawTensor
	var err error
	for v := range t.ctx.IterVariables() {
		val, verr := v.Value()
		if verr != nil {
			return nil, fmt.Errorf("training: read %s: %w", v.ScopeAndName(), verr)
		}
		rt, cerr := tensorToRaw(v.ScopeAndName(), val)
		if cerr != nil {
			err = cerr
			break
		}
		out = append(out, rt)
	}
	return out, err
}

func tensorToRaw(name string, t *tensors.Tensor) (rawTensor, error) {
	ti := tensorInfo{Name: name, Shape: append([]int{}, t.Shape().Dimensions...)}
	var data []byte
	switch t.DType() {
	case dtypes.Float32:
		ti.DType = "float32"
		data = float32Bytes(tensors.MustCopyFlatData[float32](t))
	case dtypes.Int64:
		ti.DType = "int64"
		v := tensors.MustCopyFlatData[int64](t)
		data = make([]byte, 8*len(v))
		for i, x := range v {
			putUint64(data[8*i:], uint64(x))
		}
	default:
		return rawTensor{}, fmt.Errorf("training: variable %s has unsupported dtype %s", name, t.DType())
	}
	ti.DType = map[dtypes.DType]string{dtypes.Float32: "float32", dtypes.Int64: "int64"}[t.DType()]
	return rawTensor{info: ti, data: data}, nil
}

func rawToTensor(r rawTensor) (*tensors.Tensor, error) {
	switch r.info.DType {
	case "float32":
		return tensors.FromFlatDataAndDimensions(bytesFloat32(r.data), r.info.Shape...), nil
	case "int64":
		v := make([]int64, len(r.data)/8)
		for i := range v {
			v[i] = int64(getUint64(r.data[8*i:]))
		}
		return tensors.FromFlatDataAndDimensions(v, r.info.Shape...), nil
	}
	return nil, fmt.Errorf("%w: variable %s has unsupported dtype %s", ErrCorrupt, r.info.Name, r.info.DType)
}

func putUint64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

func getUint64(b []byte) uint64 {
	var v uint64
	for i := range 8 {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}
