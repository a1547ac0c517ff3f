package training

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

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
	// Data describes the samples (Samples.Source), so a resume with other data is refused.
	Data string `json:"data,omitempty"`

	Progress io.Writer `json:"-"` // progress bar destination (nil: none)
	Log      io.Writer `json:"-"` // one line per log interval (nil: none)

	stopAfter int64 // tests: return errKilled after this step, as if the process died
}

// DefaultBCOptions returns sensible defaults.
func DefaultBCOptions() BCOptions {
	return BCOptions{Steps: 2000, Batch: 256, LogEvery: 100, CheckpointEvery: 500, ValPercent: 10, ValRows: 4096,
		Seed: 1, Net: NetConfig{Width: 128, Depth: 2, Norm: NormLayer},
		Hyper: Hyper{LearningRate: 1e-3, ValueCoef: 0.5}}
}

var errKilled = errors.New("training: killed (test)")

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
// of the same encoding, rules options and source.
func TrainBC(data *Samples, opts BCOptions) (res *BCResult, err error) {
	if err := data.Check(); err != nil {
		return nil, err
	}
	if opts.Batch < 1 || opts.LogEvery < 1 || opts.CheckpointEvery < opts.LogEvery || opts.CheckpointEvery%opts.LogEvery != 0 {
		return nil, fmt.Errorf("%w: batch %d, log every %d, checkpoint every %d (a positive multiple of log every)",
			ErrConfig, opts.Batch, opts.LogEvery, opts.CheckpointEvery)
	}
	dir, err := rundir.Open(opts.Out, rundir.TrainBC)
	if err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	started := false
	defer func() {
		if !started {
			dir.Abandon() // a refused start leaves nothing behind (only closes a used directory)
		} else {
			dir.Close()
		}
	}()
	if err := dir.RemoveTemps(); err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	opts.Data = data.Source
	backend, err := NewBackend()
	if err != nil {
		return nil, err
	}
	steps, progress, logw, stopAfter := opts.Steps, opts.Progress, opts.Log, opts.stopAfter
	h, vars, found, err := loadCheckpoint(opts.Out)
	if err != nil {
		return nil, err
	}
	var tr *Trainer
	rng := rand.NewPCG(0, 0)
	res = &BCResult{}
	if found {
		if h.Method != "bc" {
			return nil, fmt.Errorf("training: run %s is a %s run, not bc", opts.Out, h.Method)
		}
		if h.EncodingVersion != data.EncodingVersion || h.Net.ObsDim != data.ObsDim || h.Net.NumActions != data.NumActions || h.Net.ValueDim != data.ValueDim {
			return nil, fmt.Errorf("%w: run %s was trained on encoding %q (%d features, %d actions, %d values), the data is %q (%d, %d, %d)",
				ErrIncompatible, opts.Out, h.EncodingVersion, h.Net.ObsDim, h.Net.NumActions, h.Net.ValueDim,
				data.EncodingVersion, data.ObsDim, data.NumActions, data.ValueDim)
		}
		if d := sameGame(h.Rules, data.Rules, true); d != "" {
			return nil, fmt.Errorf("%w: run %s was trained on games with %s (the data's rules options differ)", ErrResumeMismatch, opts.Out, d)
		}
		given := opts
		if given.Init != nil {
			given.Net = given.Init.Config
		}
		given.Net.ObsDim, given.Net.NumActions, given.Net.ValueDim = data.ObsDim, data.NumActions, data.ValueDim
		if err := compareSettings(opts.Out, h.Options, given, BCMayChange...); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(h.Options, &opts); err != nil {
			return nil, fmt.Errorf("%w: run options: %v", ErrCorrupt, err)
		}
		opts.Steps, opts.Progress, opts.Log, opts.stopAfter = steps, progress, logw, stopAfter
		opts.Data = data.Source
		if tr, err = resumeTrainer(backend, h, vars); err != nil {
			return nil, err
		}
		if err := rng.UnmarshalBinary(h.RNG); err != nil {
			return nil, fmt.Errorf("%w: rng state: %v", ErrCorrupt, err)
		}
		res.Steps, res.Metrics, res.Seconds, res.Resumed = h.Step, h.Metrics, h.Seconds, true
	} else {
		opts.Net.ObsDim, opts.Net.NumActions, opts.Net.ValueDim = data.ObsDim, data.NumActions, data.ValueDim
		w := opts.Init
		if w == nil {
			if w, err = NewWeights(opts.Net, opts.Seed); err != nil {
				return nil, err
			}
		} else {
			if w.Config.ObsDim != data.ObsDim || w.Config.NumActions != data.NumActions || w.Config.ValueDim != data.ValueDim {
				return nil, fmt.Errorf("%w: initial network has %d features, %d actions, %d values; the data has %d, %d, %d",
					ErrIncompatible, w.Config.ObsDim, w.Config.NumActions, w.Config.ValueDim, data.ObsDim, data.NumActions, data.ValueDim)
			}
			opts.Net = w.Config
		}
		if tr, err = NewTrainer(backend, w, opts.Hyper); err != nil {
			return nil, err
		}
		rng = rand.NewPCG(opts.Seed, 0xbc)
	}
	trainIdx, valIdx := data.Split(opts.ValPercent)
	if len(trainIdx) == 0 {
		return nil, fmt.Errorf("%w: no training rows after the validation split", ErrConfig)
	}
	if len(valIdx) > opts.ValRows {
		valIdx = valIdx[:opts.ValRows]
	}
	started = true
	optsJSON, _ := json.Marshal(opts)
	if err := writeFileAtomic(filepath.Join(opts.Out, "run.json"), append(optsJSON, '\n')); err != nil {
		return nil, err
	}
	r := rand.New(rng)
	var bar *progressbar.ProgressBar
	if opts.Progress != nil {
		bar = progressbar.NewOptions64(opts.Steps, progressbar.OptionSetWriter(opts.Progress), progressbar.OptionSetDescription("bc"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionThrottle(250*time.Millisecond),
			progressbar.OptionSetPredictTime(true))
		_ = bar.Set64(res.Steps)
	}
	var batch, vb Batch
	idx := make([]int, opts.Batch)
	var acc [4]float64
	var accSteps int64 // steps summed in acc: after a resume mid-interval, fewer than LogEvery
	intervalStart := time.Now()
	secondsBase := res.Seconds
	runStart := time.Now()
	for res.Steps < opts.Steps {
		for i := range idx {
			idx[i] = trainIdx[r.IntN(len(trainIdx))]
		}
		data.fill(&batch, idx)
		m, err := tr.BCStep(&batch)
		if err != nil {
			return nil, err
		}
		res.Steps++
		acc[0] += m.Loss
		acc[1] += m.PolicyLoss
		acc[2] += m.ValueLoss
		acc[3] += m.Accuracy
		accSteps++
		if bar != nil {
			_ = bar.Set64(res.Steps)
		}
		if stopAfter > 0 && res.Steps == stopAfter {
			return res, errKilled
		}
		if res.Steps%opts.LogEvery != 0 && res.Steps != opts.Steps {
			continue
		}
		n := float64(accSteps)
		el := time.Since(intervalStart).Seconds()
		row := []float64{float64(res.Steps), float64(res.Steps) * float64(opts.Batch), secondsBase + time.Since(runStart).Seconds(),
			n * float64(opts.Batch) / max(el, 1e-9), acc[0] / n, acc[1] / n, acc[2] / n, acc[3] / n}
		val, err := evalBC(tr, data, valIdx, &vb, opts.Batch)
		if err != nil {
			return nil, err
		}
		row = append(row, val[:]...)
		res.Metrics = append(res.Metrics, row)
		acc, accSteps = [4]float64{}, 0
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "\nstep %d: loss %.4f acc %.3f | val loss %.4f acc %.3f value mse %.4f | %.0f samples/s\n",
				res.Steps, row[4], row[7], row[8], row[11], row[10], row[3])
		}
		if err := writeMetrics(opts.Out, BCMetricNames, res.Metrics); err != nil {
			return nil, err
		}
		if res.Steps%opts.CheckpointEvery == 0 || res.Steps == opts.Steps {
			res.Seconds = secondsBase + time.Since(runStart).Seconds()
			state, _ := rng.MarshalBinary()
			optsJSON, _ := json.Marshal(opts)
			hdr := checkpointHeader{Method: "bc", Options: optsJSON, EncodingVersion: data.EncodingVersion, Rules: data.Rules,
				Step: res.Steps, RNG: state, Seconds: res.Seconds, MetricNames: BCMetricNames, Metrics: res.Metrics}
			if err := saveCheckpoint(opts.Out, hdr, tr); err != nil {
				return nil, err
			}
		}
		intervalStart = time.Now()
	}
	if bar != nil {
		_ = bar.Finish()
	}
	res.Seconds = secondsBase + time.Since(runStart).Seconds()
	return res, nil
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
