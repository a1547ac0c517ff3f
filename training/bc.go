package training

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
)

// BCOptions configure a behaviour-cloning run. Everything except Steps and Progress is fixed
// when the run starts; a resumed run takes them from its checkpoint.
type BCOptions struct {
	Out             string    `json:"out"`
	Steps           int64     `json:"steps"`
	Batch           int       `json:"batch"`
	LogEvery        int64     `json:"log_every"`
	CheckpointEvery int64     `json:"checkpoint_every"` // a multiple of LogEvery
	ValPercent      int       `json:"val_percent"`
	ValRows         int       `json:"val_rows"` // validation rows evaluated per log interval (at most)
	Seed            uint64    `json:"seed"`
	Net             NetConfig `json:"net"` // ObsDim, NumActions, ValueDim come from the data
	Hyper           Hyper     `json:"hyper"`
	Init            *Weights  `json:"-"` // start from these weights instead of a fresh network
	// InitFrom names where Init came from (a run, a .bot file, "default"); recorded, so a
	// resumed run may leave it empty but not name another. InitEncoding and InitRules, when
	// set, say what Init was trained for: a network for another encoding or other games than
	// the data's is refused.
	InitFrom     string         `json:"init_from,omitempty"`
	InitEncoding string         `json:"-"`
	InitRules    *rules.Options `json:"-"`
	// Data describes the samples (Samples.Source), so a resume with other data is refused.
	Data string `json:"data,omitempty"`
	// Buffer is the shuffle buffer of a streamed run (TrainBCStream: decisions held at
	// once); 0 for samples in memory.
	Buffer int `json:"buffer,omitempty"`

	Progress io.Writer `json:"-"` // progress bar destination (nil: none)
	Log      io.Writer `json:"-"` // one line per log interval (nil: none)

	stopAfter int64 // tests: return errKilled after this step, as if the process died
}

// DefaultBCOptions returns sensible defaults.
func DefaultBCOptions() BCOptions {
	return BCOptions{Steps: 2000, Batch: 256, LogEvery: 100, CheckpointEvery: 500, ValPercent: 10, ValRows: 4096,
		Seed: 1, Net: DefaultNetConfig(0, 0, 0), // the sizes come from the data
		Hyper: Hyper{LearningRate: 1e-3, ValueCoef: 0.5}}
}

// BCMetricNames are the columns of a behaviour-cloning run's metrics.
var BCMetricNames = []string{"step", "samples", "seconds", "samples_per_s", "loss", "policy_loss", "value_mse", "accuracy",
	"val_loss", "val_policy_loss", "val_value_mse", "val_accuracy"}

// BCResult summarises a finished run.
type BCResult struct {
	Steps   int64
	Metrics [][]float64 // rows of BCMetricNames
	Seconds float64
	Resumed bool
}

// BCMayChange lists the settings a resumed behaviour-cloning run may change.
var BCMayChange = []string{"steps"}

// TrainBC trains (or resumes) a behaviour-cloning run in opts.Out from the samples.
//
// The run directory must be new, empty or a behaviour-cloning run (internal/rundir); it is
// locked while the run trains. A resumed run must be given the settings it was started with
// (only Steps may change; ErrResumeMismatch names the first that differs) and data
// of the same encoding, rules options and source. Cancelling ctx (nil: never) stops it at
// the next log point, which is checkpointed; the error is then a *StoppedError wrapping
// context.Canceled, and the same call resumes the run.
//
// Batches are drawn uniformly with replacement from the training rows; the first ValRows
// rows of held-out games are the validation set.
func TrainBC(ctx context.Context, data *Samples, opts BCOptions) (*BCResult, error) {
	if err := data.Check(); err != nil {
		return nil, err
	}
	src := &memorySource{data: data}
	src.trainIdx, src.valIdx = data.Split(opts.ValPercent)
	if len(src.valIdx) > opts.ValRows {
		src.valIdx = src.valIdx[:opts.ValRows]
	}
	return trainBC(ctx, src, opts)
}

// TrainBCStream is TrainBC on a Stream: batches are the stream's, read from the datasets as
// the run trains, and the checkpoint records the stream's position and shards, so the same
// call resumes with the batches an uninterrupted run would have seen (data whose shards
// changed is refused with ErrDataChanged). The stream's options must agree with opts
// (seed, validation percentage and rows); opts.Buffer is set from it. A shard deleted or
// changed while the run streams ends it with ErrDataChanged after checkpointing the last
// step trained.
func TrainBCStream(ctx context.Context, s *Stream, opts BCOptions) (*BCResult, error) {
	so := s.Options()
	if so.Seed != opts.Seed || so.ValPercent != opts.ValPercent || so.ValRows != opts.ValRows {
		return nil, fmt.Errorf("%w: stream of seed %d, %d%% and %d validation rows for a run of seed %d, %d%% and %d",
			ErrConfig, so.Seed, so.ValPercent, so.ValRows, opts.Seed, opts.ValPercent, opts.ValRows)
	}
	opts.Buffer = so.Buffer
	return trainBC(ctx, &streamSource{s: s}, opts)
}

func trainBC(ctx context.Context, src bcSource, opts BCOptions) (*BCResult, error) {
	data := src.header()
	if opts.Batch < 1 || opts.LogEvery < 1 || opts.CheckpointEvery < opts.LogEvery || opts.CheckpointEvery%opts.LogEvery != 0 {
		return nil, fmt.Errorf("%w: batch %d, log every %d, checkpoint every %d (a positive multiple of log every)",
			ErrConfig, opts.Batch, opts.LogEvery, opts.CheckpointEvery)
	}
	r, err := openRun(runSpec{Out: opts.Out, Kind: rundir.TrainBC, Method: "bc", Steps: opts.Steps,
		MetricNames: BCMetricNames, Progress: opts.Progress, ProgressRate: true, RowsPerStep: int64(opts.Batch),
		stopAfter: opts.stopAfter, ctx: ctx})
	if err != nil {
		return nil, err
	}
	defer r.close()
	if err := src.check(); err != nil {
		return nil, err
	}
	opts.Data = data.Source
	b := &bcRun{data: data, src: src, opts: &opts}
	if err := r.prepare(b); err != nil {
		return nil, err
	}
	r.spec.LogEvery, r.spec.CheckpointEvery = opts.LogEvery, opts.CheckpointEvery
	b.val, b.valIdx = src.validation()
	if err := r.begin(&opts); err != nil {
		return nil, err
	}
	err = r.loop(b) // a stopped run still reports how far it got
	return &BCResult{Steps: r.Step, Metrics: r.Metrics, Seconds: r.seconds(), Resumed: r.Resumed}, err
}

// bcSource is where a behaviour-cloning run's batches come from: samples in memory or a
// Stream.
type bcSource interface {
	header() *Samples // encoding, sizes, rules and source
	check() error     // refuse data with no training rows before the run starts
	validation() (*Samples, []int)
	start(seed uint64)
	next(b *Batch, rows int) error
	save(h *checkpointHeader)
	restore(h *checkpointHeader) error
}

// memorySource draws batches uniformly with replacement from samples in memory.
type memorySource struct {
	data             *Samples
	trainIdx, valIdx []int
	rng              *rand.PCG // its state is checkpointed
	r                *rand.Rand
	idx              []int
}

func (m *memorySource) header() *Samples { return m.data }

func (m *memorySource) check() error {
	if len(m.trainIdx) == 0 {
		return fmt.Errorf("%w: no training rows after the validation split", ErrConfig)
	}
	return nil
}

func (m *memorySource) validation() (*Samples, []int) { return m.data, m.valIdx }

func (m *memorySource) start(seed uint64) {
	m.rng = rand.NewPCG(seed, 0xbc)
	m.r = rand.New(m.rng)
}

func (m *memorySource) next(b *Batch, rows int) error {
	if len(m.idx) != rows {
		m.idx = make([]int, rows)
	}
	for i := range m.idx {
		m.idx[i] = m.trainIdx[m.r.IntN(len(m.trainIdx))]
	}
	m.data.fill(b, m.idx)
	return nil
}

func (m *memorySource) save(h *checkpointHeader) { h.RNG, _ = m.rng.MarshalBinary() }

func (m *memorySource) restore(h *checkpointHeader) error {
	m.rng = rand.NewPCG(0, 0)
	if err := m.rng.UnmarshalBinary(h.RNG); err != nil {
		return fmt.Errorf("%w: rng state: %v", ErrCorrupt, err)
	}
	m.r = rand.New(m.rng)
	return nil
}

// streamSource reads batches from a Stream.
type streamSource struct{ s *Stream }

func (m *streamSource) header() *Samples { return m.s.Header }
func (m *streamSource) check() error     { return nil } // an empty split shows at the first batch

func (m *streamSource) validation() (*Samples, []int) {
	idx := make([]int, m.s.Val.Len())
	for i := range idx {
		idx[i] = i
	}
	return m.s.Val, idx
}

func (m *streamSource) start(uint64)                  {}
func (m *streamSource) next(b *Batch, rows int) error { return m.s.Next(b, rows) }

func (m *streamSource) save(h *checkpointHeader) {
	h.Extra, _ = json.Marshal(m.s.State())
}

// restore moves the stream to the checkpoint's position. A checkpoint without one (a run
// that trained on samples in memory) continues from the stream's start.
func (m *streamSource) restore(h *checkpointHeader) error {
	if len(h.Extra) == 0 {
		return nil
	}
	var st StreamState
	if err := json.Unmarshal(h.Extra, &st); err != nil {
		return fmt.Errorf("%w: stream state: %v", ErrCorrupt, err)
	}
	return m.s.Restore(st)
}

// bcRun is the behaviour-cloning method of a run: minibatches from the source, metrics
// averaged over each log interval, and a validation pass at each log point.
type bcRun struct {
	data      *Samples // the data's header (and rows, in memory)
	src       bcSource
	opts      *BCOptions
	val       *Samples // validation rows valIdx
	valIdx    []int
	batch, vb Batch
	acc       [4]float64 // loss, policy loss, value MSE, accuracy summed over the interval
	accSteps  int64      // steps summed in acc
}

// resume checks that the data fits the run (encoding, sizes, rules options) and continues
// it with its saved options and sampling state.
func (b *bcRun) resume(r *run) error {
	h, data, opts := r.ckpt, b.data, b.opts
	if h.EncodingVersion != data.EncodingVersion || h.Net.ObsDim != data.ObsDim || h.Net.NumActions != data.NumActions || h.Net.ValueDim != data.ValueDim {
		return fmt.Errorf("%w: run %s was trained on encoding %q (%d features, %d actions, %d values), the data is %q (%d, %d, %d)",
			ErrIncompatible, opts.Out, h.EncodingVersion, h.Net.ObsDim, h.Net.NumActions, h.Net.ValueDim,
			data.EncodingVersion, data.ObsDim, data.NumActions, data.ValueDim)
	}
	if d := sameGame(h.Rules, data.Rules, true); d != "" {
		return fmt.Errorf("%w: run %s was trained on games with %s (the data's rules options differ)", ErrResumeMismatch, opts.Out, d)
	}
	given := *opts
	var saved BCOptions
	if err := r.savedOptions(&saved); err != nil {
		return err
	}
	resumeInit(&given.InitFrom, &given.Net, given.Init, saved.InitFrom, saved.Net) // sizes: checked against the data above
	steps := opts.Steps
	if err := r.resume(given, opts, BCMayChange...); err != nil {
		return err
	}
	opts.Steps, opts.Data = steps, data.Source
	if err := b.src.restore(h); err != nil {
		if errors.Is(err, ErrDataChanged) {
			return fmt.Errorf("%w; run %s resumes only on the data it started with (train on this data with another --out)", err, opts.Out)
		}
		return err
	}
	return nil
}

// start begins a new run: the network's sizes come from the data.
func (b *bcRun) start(r *run) error {
	opts, data := b.opts, b.data
	opts.Net.ObsDim, opts.Net.NumActions, opts.Net.ValueDim = data.ObsDim, data.NumActions, data.ValueDim
	if opts.Init != nil {
		if err := checkInit(opts.InitFrom, opts.InitEncoding, opts.InitRules, data.EncodingVersion, "the data is", data.Rules); err != nil {
			return err
		}
	}
	if err := r.fresh(opts.Init, &opts.Net, opts.Seed, opts.Hyper, "the data has"); err != nil {
		return err
	}
	b.src.start(opts.Seed)
	return nil
}

// step trains on one random batch of training rows.
func (b *bcRun) step(r *run, _ int64) error {
	if err := b.src.next(&b.batch, b.opts.Batch); err != nil {
		return err
	}
	m, err := r.tr.BCStep(&b.batch)
	if err != nil {
		return err
	}
	b.acc[0] += m.Loss
	b.acc[1] += m.PolicyLoss
	b.acc[2] += m.ValueLoss
	b.acc[3] += m.Accuracy
	b.accSteps++
	return nil
}

// record averages the interval's training metrics and adds a validation pass.
func (b *bcRun) record(r *run) ([]float64, error) {
	opts := b.opts
	n := float64(b.accSteps)
	el := time.Since(r.interval).Seconds()
	row := []float64{float64(r.Step), float64(r.Step) * float64(opts.Batch), r.seconds(),
		n * float64(opts.Batch) / max(el, 1e-9), b.acc[0] / n, b.acc[1] / n, b.acc[2] / n, b.acc[3] / n}
	val, err := evalBC(r.tr, b.val, b.valIdx, &b.vb, opts.Batch)
	if err != nil {
		return nil, err
	}
	row = append(row, val[:]...)
	b.acc, b.accSteps = [4]float64{}, 0
	r.logf(opts.Log, "step %d: loss %.4f acc %.3f | val loss %.4f acc %.3f value mse %.4f | %.0f samples/s\n",
		r.Step, row[4], row[7], row[8], row[11], row[10], row[3])
	return row, nil
}

// save adds the data's encoding and rules options and the sampling state.
func (b *bcRun) save(h *checkpointHeader) {
	h.EncodingVersion, h.Rules = b.data.EncodingVersion, b.data.Rules
	b.src.save(h)
}

// evalBC returns validation loss, policy loss, value MSE and accuracy (zeros without rows).
func evalBC(tr *Trainer, data *Samples, idx []int, b *Batch, batch int) ([4]float64, error) {
	var sum [4]float64
	if len(idx) == 0 {
		return sum, nil
	}
	for lo := 0; lo < len(idx); lo += batch {
		hi := min(lo+batch, len(idx))
		data.fill(b, idx[lo:hi])
		m, err := tr.BCEval(b)
		if err != nil {
			return sum, err
		}
		w := float64(hi - lo)
		sum[0] += m.Loss * w
		sum[1] += m.PolicyLoss * w
		sum[2] += m.ValueLoss * w
		sum[3] += m.Accuracy * w
	}
	for i := range sum {
		sum[i] /= float64(len(idx))
	}
	return sum, nil
}
