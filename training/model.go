package training

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gomlx/gomlx/backends"
	_ "github.com/gomlx/gomlx/backends/simplego" // the pure-Go backend, registered as "go"
	. "github.com/gomlx/gomlx/pkg/core/graph"    //nolint:staticcheck // GoMLX graph DSL
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// ErrBackend is wrapped when the GoMLX backend cannot be created.
var ErrBackend = errors.New("training: backend")

// DefaultBackend is the GoMLX backend used when GOMLX_BACKEND is not set: the pure-Go one.
const DefaultBackend = "go"

// simpleGoOptions are added to the pure-Go backend's configuration unless GOMLX_BACKEND sets
// ops_*, dotgeneral_* or parallelism options itself. Ops run one at a time (each matrix
// product still splits its blocks over the cores): in v0.26, running ops in parallel
// deadlocks the CPU-bounded worker pool when two matrix products wait for workers at once
// (2-core machine), and with an unlimited pool the race detector reports in-place ops
// (Adam's Pow) writing buffers that other ops are still reading. The large-matrix kernel is
// about 1.5x faster for these shapes.
const simpleGoOptions = "ops_sequential,dotgeneral_large"

// CheckBackend reports, without creating it, why NewBackend would fail for the backend
// BackendConfig names: XLA not compiled in, its plugin missing or not a plugin, or a name no
// backend has. Commands call it before work that takes minutes (teacher games, reading
// data), so a wrong backend costs nothing. A nil result does not promise that the plugin
// starts: only NewBackend loads it.
func CheckBackend() error {
	_, _, err := resolveBackend()
	return err
}

// resolveBackend turns BackendConfig into the backend's name and the configuration to create
// it with (the pure-Go backend's default options added, an XLA plugin found and checked), or
// says why no such backend can be made.
func resolveBackend() (name, config string, err error) {
	config = BackendConfig()
	name, opts, _ := strings.Cut(config, ":")
	if name == "go" && !strings.Contains(opts, "ops_") && !strings.Contains(opts, "dotgeneral_") && !strings.Contains(opts, "parallelism") {
		if opts == "" {
			config = name + ":" + simpleGoOptions
		} else {
			config = config + "," + simpleGoOptions
		}
	}
	if name == "xla" {
		if xlaConfig == nil {
			return "", "", fmt.Errorf("%w: %w", ErrBackend, errNoXLA)
		}
		if config, err = xlaConfig(config); err != nil {
			return "", "", fmt.Errorf("%w: %w", ErrBackend, err)
		}
	}
	if !slices.Contains(backends.List(), name) {
		return "", "", fmt.Errorf("%w: %q is not compiled in (have %s)", ErrBackend, name, strings.Join(backends.List(), ", "))
	}
	return name, config, nil
}

// NewBackend returns the GoMLX backend BackendConfig names (format "name" or "name:config"):
// SetBackend's choice, else $GOMLX_BACKEND, else the pure-Go backend. Only backends compiled
// in are available (XLA needs the "xla" build tag); nothing is downloaded, and a missing or
// unloadable XLA plugin is an error naming XLAScript, never a panic.
func NewBackend() (backends.Backend, error) {
	name, config, err := resolveBackend()
	if err != nil {
		return nil, err
	}
	var b backends.Backend
	err = tryCatch(func() {
		// The pure-Go backend prints a line to stdout when given a parallelism option; keep
		// command output clean.
		if strings.Contains(config, "parallelism=") {
			if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
				saved := os.Stdout
				os.Stdout = null
				defer func() { os.Stdout = saved; null.Close() }()
			}
		}
		create := func() {
			var err error
			b, err = backends.NewWithConfig(config)
			if err != nil {
				panic(err)
			}
		}
		if name == "xla" && xlaQuiet != nil {
			xlaQuiet(create)
		} else {
			create()
		}
	})
	if err != nil {
		if name == "xla" {
			advice := "reinstall the plugin with " + XLAScript
			if _, opts, _ := strings.Cut(BackendConfig(), ":"); strings.HasPrefix(opts, "cuda") {
				advice = "GPU plugins: docs/TRAINING.md, \"XLA and GPUs\"; " + XLAScript + " installs the CPU one"
			}
			return nil, fmt.Errorf("%w: xla: %s (%s)", ErrBackend, firstLine(err.Error()), advice)
		}
		return nil, fmt.Errorf("%w: %v", ErrBackend, err)
	}
	return b, nil
}

// firstLine is msg up to its first line break.
func firstLine(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	return line
}

// modelScope is the context scope of the network's variables.
const modelScope = "model"

// setModelVariables creates (or overwrites) the network variables in ctx from w.
func setModelVariables(ctx *context.Context, w *Weights) error {
	mctx := ctx.In(modelScope).Checked(false)
	for i, p := range w.Config.Params() {
		t := tensors.FromFlatDataAndDimensions(slices.Clone(w.Tensors[i]), p.Shape...)
		v := mctx.GetVariable(p.Name)
		if v == nil {
			mctx.VariableWithValue(p.Name, t)
			continue
		}
		if err := v.SetValue(t); err != nil {
			return fmt.Errorf("training: set %s: %w", p.Name, err)
		}
	}
	return nil
}

// modelWeights copies the network variables out of ctx.
func modelWeights(ctx *context.Context, cfg NetConfig) (*Weights, error) {
	w := &Weights{Config: cfg}
	mctx := ctx.In(modelScope)
	for _, p := range cfg.Params() {
		v := mctx.GetVariable(p.Name)
		if v == nil {
			return nil, fmt.Errorf("training: variable %s missing from the model", p.Name)
		}
		val, err := v.Value()
		if err != nil {
			return nil, fmt.Errorf("training: read %s: %w", p.Name, err)
		}
		flat, err := tensors.CopyFlatData[float32](val)
		if err != nil {
			return nil, fmt.Errorf("training: read %s: %w", p.Name, err)
		}
		w.Tensors = append(w.Tensors, flat)
	}
	return w, w.Check()
}

// modelGraph builds the network: obs [B, D] and mask [B, A] (float32, non-zero = legal) give
// masked logits [B, A] and values [B, V]. It mirrors Net.Forward exactly.
//
// With cols [C] (int32, may be nil) obs holds only those C observation columns ([B, C]): the
// first layer multiplies by the matching rows of its weight matrix, which equals the full
// product when every other column of the batch is zero (see compactColumns). Likewise with
// acts [K] (may be nil) mask holds only those K actions ([B, K]) and the logits come back
// for them alone ([B, K]): every action left out is illegal in every row, so its
// probability would be exactly zero. Gradients reach only the gathered weights; the others'
// gradients are zero for such a batch anyway.
func modelGraph(ctx *context.Context, cfg NetConfig, obs, cols, mask, acts *Node) (logits, values *Node) {
	mctx := ctx.In(modelScope)
	g := obs.Graph()
	param := func(name string) *Node {
		v := mctx.GetVariable(name)
		if v == nil {
			panic(fmt.Sprintf("training: variable %s missing from the model", name))
		}
		return v.ValueGraph(g)
	}
	h := obs
	for i := range cfg.Depth {
		w := param(fmt.Sprintf("trunk%d_w", i))
		if i == 0 && cols != nil && obs.Shape().Dim(-1) != cfg.ObsDim { // all columns: cols is 0..D-1
			w = Gather(w, ExpandAxes(cols, -1), true)
		}
		h = Add(linear(h, w), ExpandAxes(param(fmt.Sprintf("trunk%d_b", i)), 0))
		if cfg.Norm == NormLayer {
			mean := ReduceAndKeep(h, ReduceMean, -1)
			d := Sub(h, mean)
			variance := ReduceAndKeep(Square(d), ReduceMean, -1)
			h = Div(d, Sqrt(AddScalar(variance, layerNormEpsilon)))
			h = Add(Mul(h, ExpandAxes(param(fmt.Sprintf("trunk%d_g", i)), 0)), ExpandAxes(param(fmt.Sprintf("trunk%d_beta", i)), 0))
		}
		h = Max(h, ZerosLike(h))
	}
	pw, pb := param("policy_w"), param("policy_b")
	if acts != nil && mask.Shape().Dim(-1) != cfg.NumActions { // all actions: acts is 0..A-1
		idx := ExpandAxes(acts, -1)
		pw = Transpose(Gather(Transpose(pw, 0, 1), idx, true), 0, 1)
		pb = Gather(pb, idx, true)
	}
	logits = Add(linear(h, pw), ExpandAxes(pb, 0))
	legal := GreaterThan(mask, ZerosLike(mask))
	logits = Where(legal, logits, Scalar(g, logits.DType(), maskedLogit))
	values = Add(linear(h, param("value_w")), ExpandAxes(param("value_b"), 0))
	return logits, values
}

// linear returns x [B, J] @ w [J, K] with hand-written gradients.
//
// GoMLX v0.26's reverse-mode rule for Dot/DotGeneral materialises a broadcast [B, J, K]
// product before reducing it, which on the pure-Go backend makes a training step about a
// hundred times slower than the matrix products themselves. Here the forward product is
// taken on stopped-gradient inputs, and the gradients dx = v @ wᵀ and dw = xᵀ @ v are
// injected through identity nodes with custom gradients: xI and wI reach the loss only
// through a zero-valued term, so autodiff visits them (after the product's identity node
// has captured v) and their custom gradient replaces the zero cotangent with the real one.
func linear(x, w *Node) *Node {
	var v *Node // the cotangent of the product, captured during the backward pass
	xI := IdentityWithCustomGradient(x, func(_, _ *Node) *Node {
		if v == nil {
			panic("training: linear: backward pass visited the input before the product")
		}
		return DotGeneral(v, []int{1}, nil, StopGradient(w), []int{1}, nil) // [B, J]
	})
	wI := IdentityWithCustomGradient(w, func(_, _ *Node) *Node {
		if v == nil {
			panic("training: linear: backward pass visited the weights before the product")
		}
		return DotGeneral(StopGradient(x), []int{0}, nil, v, []int{0}, nil) // [J, K]
	})
	y := DotGeneral(StopGradient(xI), []int{1}, nil, StopGradient(wI), []int{0}, nil)
	y = IdentityWithCustomGradient(y, func(_, cot *Node) *Node {
		v = cot
		return cot
	})
	// Zero-valued terms that put xI and wI on the gradient path (cheap: a reduction each).
	zero := MulScalar(Add(ReduceAllSum(xI), ReduceAllSum(wI)), 0)
	return Add(y, zero)
}

// GraphForward runs the network through GoMLX (the reference the Go forward pass is checked
// against): it returns masked logits [rows*A] and values [rows*V].
func GraphForward(backend backends.Backend, w *Weights, rows int, obs, mask []float32) (logits, values []float32, err error) {
	if err := w.Check(); err != nil {
		return nil, nil, err
	}
	cfg := w.Config
	ctx := context.New()
	if err := setModelVariables(ctx, w); err != nil {
		return nil, nil, err
	}
	err = tryCatch(func() {
		exec := context.MustNewExec(backend, ctx, func(ctx *context.Context, obs, mask *Node) (*Node, *Node) {
			return modelGraph(ctx, cfg, obs, nil, mask, nil)
		})
		defer exec.Finalize()
		out := exec.MustExec(tensors.FromFlatDataAndDimensions(obs[:rows*cfg.ObsDim], rows, cfg.ObsDim),
			tensors.FromFlatDataAndDimensions(mask[:rows*cfg.NumActions], rows, cfg.NumActions))
		logits = tensors.MustCopyFlatData[float32](out[0])
		values = tensors.MustCopyFlatData[float32](out[1])
	})
	if err != nil {
		return nil, nil, fmt.Errorf("training: graph forward: %w", err)
	}
	return logits, values, nil
}

// tryCatch runs fn and turns a panic (GoMLX reports graph-building and execution failures by
// panicking) into an error.
func tryCatch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	fn()
	return nil
}
