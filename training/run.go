package training

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/tensors"

	"github.com/container-rl/container/internal/progress"
	"github.com/container-rl/container/internal/rundir"
)

// The lifecycle of one training run, shared by every trainer (see the package doc):
//
//	r, err := openRun(spec)           // lock the directory, pick the backend, read the checkpoint
//	defer r.close()                   // a refused start leaves nothing behind
//	r.prepare(method)                 // method.resume (calls r.resume) or method.start (r.fresh)
//	r.begin(&opts)                    // run.json; from here on the directory holds the run
//	err = r.loop(method)              // steps, progress, metrics, checkpoints

var errKilled = errors.New("training: killed (test)")

// runSpec says what the lifecycle needs to know of a run; the trainer fills it from its
// options.
type runSpec struct {
	Out    string       // the run directory
	Kind   *rundir.Kind // the kind of run directory (internal/rundir)
	Method string       // saved in checkpoints; a run of another method is refused
	// Steps is the number of steps (PPO: iterations) to train to.
	Steps int64
	// LogEvery is the steps between metrics rows (1: a row every step) and CheckpointEvery,
	// a multiple of it, the steps between checkpoints; the last step always does both.
	LogEvery, CheckpointEvery int64
	MetricNames               []string  // the columns of a metrics row
	Progress                  io.Writer // progress bar destination (nil: none)
	ProgressRate              bool      // the bar shows steps per second
	// RowsPerStep, when set, makes the progress show samples per second (steps times
	// RowsPerStep) and, when Progress is not a terminal, plain lines instead of a bar.
	RowsPerStep int64
	stopAfter   int64 // tests: fail with errKilled after this step, as if the process died
	// ctx (nil: never cancelled) stops the loop between steps (and a step that checks it,
	// PPO's game collection): the run then writes a checkpoint of the last finished step and
	// returns an error wrapping context.Canceled (a *StoppedError), so nothing trained is lost.
	ctx context.Context
}

// StoppedError is returned by a training run whose context was cancelled (Ctrl-C): it
// wraps the context's error and says how far the run got. A checkpoint of step Step is on
// disk (when Step > 0), so running the same command again resumes from it.
type StoppedError struct {
	Step, Steps int64
	Err         error
}

func (e *StoppedError) Error() string {
	if e.Step == 0 {
		return fmt.Sprintf("training: stopped before step 1 of %d (nothing trained): %v", e.Steps, e.Err)
	}
	return fmt.Sprintf("training: stopped after step %d of %d (checkpoint written): %v", e.Step, e.Steps, e.Err)
}

func (e *StoppedError) Unwrap() error { return e.Err }

// run is one training run in progress: its locked directory, backend and trainer, and the
// counters its checkpoints carry.
type run struct {
	spec    runSpec
	dir     *rundir.Dir
	backend backends.Backend
	// ckpt is the checkpoint the run resumes (nil: a new run) and vars its tensors.
	ckpt *checkpointHeader
	vars map[string]*tensors.Tensor
	tr   *Trainer

	Step    int64       // steps done
	Metrics [][]float64 // rows of spec.MetricNames
	Resumed bool

	options     any           // the trainer's options, saved in run.json and every checkpoint
	begun       bool          // run.json is written: the directory holds this run
	secondsBase float64       // training seconds of earlier processes (a resumed run)
	runStart    time.Time     // when this process's loop began
	interval    time.Time     // when the current log interval began
	saved       int64         // the step of the newest checkpoint on disk (-1: none)
	bar         *progress.Bar // the loop's progress (nil: none)
}

// runMethod is what a trainer plugs into the run lifecycle.
type runMethod interface {
	// resume continues the run of r.ckpt: it checks what only the method knows, calls
	// r.resume with the options given and restores its own state (r.ckpt.RNG, Extra).
	resume(r *run) error
	// start begins a new run: it checks the options and calls r.fresh.
	start(r *run) error
	// step trains step n (r.Step+1); the loop sets r.Step = n after it.
	step(r *run, n int64) error
	// record returns the metrics row after step r.Step (each log point), writing its log
	// line, if any.
	record(r *run) ([]float64, error)
	// save fills the method's part of a checkpoint header: encoding version, rules options
	// and any RNG or method state (Extra).
	save(h *checkpointHeader)
}

// openRun opens spec.Out as a run directory of spec.Kind (locked until close), removes the
// temporary files of a killed writer, chooses the backend (GOMLX_BACKEND) and reads the
// checkpoint, if any; a checkpoint of another method is refused.
func openRun(spec runSpec) (*run, error) {
	if spec.ctx == nil {
		spec.ctx = context.Background()
	}
	dir, err := rundir.Open(spec.Out, spec.Kind)
	if err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	r := &run{spec: spec, dir: dir}
	if err := r.open(); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *run) open() error {
	if err := r.dir.RemoveTemps(); err != nil {
		return fmt.Errorf("training: %w", err)
	}
	var err error
	if r.backend, err = NewBackend(); err != nil {
		return err
	}
	h, vars, found, err := loadCheckpoint(r.spec.Out)
	if err != nil {
		return err
	}
	if found {
		if h.Method != r.spec.Method {
			return fmt.Errorf("training: run %s is a %s run, not %s", r.spec.Out, h.Method, r.spec.Method)
		}
		r.ckpt, r.vars = &h, vars
	}
	return nil
}

// close unlocks the directory; before begin it also removes what the refused start made.
func (r *run) close() {
	if r.begun {
		r.dir.Close()
	} else {
		r.dir.Abandon()
	}
}

// savedOptions decodes the options the resumed run was started with into v.
func (r *run) savedOptions(v any) error {
	if err := json.Unmarshal(r.ckpt.Options, v); err != nil {
		return fmt.Errorf("%w: run options: %v", ErrCorrupt, err)
	}
	return nil
}

// resume continues the run of r.ckpt: the options given now must be the ones it was
// started with (keys in mayChange aside; ErrResumeMismatch names the first that differs),
// the saved ones are decoded into saved, and the trainer and counters are restored.
func (r *run) resume(given, saved any, mayChange ...string) error {
	h := r.ckpt
	if err := compareSettings(r.spec.Out, h.Options, given, mayChange...); err != nil {
		return err
	}
	if err := r.savedOptions(saved); err != nil {
		return err
	}
	tr, err := resumeTrainer(r.backend, *h, r.vars)
	if err != nil {
		return err
	}
	r.tr, r.vars = tr, nil
	r.Step, r.Metrics, r.secondsBase, r.Resumed = h.Step, h.Metrics, h.Seconds, true
	return nil
}

// resumeInit completes the initial network and network shape of the options given to
// resume a run, as the run was started: a left-out --init means the saved one (the
// checkpoint holds the network), a given initial network's configuration replaces
// --width/--depth, a run started from an initial network keeps that network's shape when
// none is given now (the command does not read it again to resume), and the observation,
// action and value sizes are the saved run's (they come from its games, not from flags).
func resumeInit(from *string, net *NetConfig, init *Weights, savedFrom string, saved NetConfig) {
	if *from == "" {
		*from = savedFrom
	}
	if init != nil {
		*net = init.Config
	} else if savedFrom != "" {
		*net = saved
	}
	net.ObsDim, net.NumActions, net.ValueDim = saved.ObsDim, saved.NumActions, saved.ValueDim
}

// fresh starts a new run from init, or from new weights of *net drawn from seed when init
// is nil. init must have the observation, action and value sizes of *net (the message
// says where those come from: "the data has", "these games need"); *net becomes the
// configuration trained.
func (r *run) fresh(init *Weights, net *NetConfig, seed uint64, hp Hyper, sizesFrom string) error {
	w := init
	if w == nil {
		var err error
		if w, err = NewWeights(*net, seed); err != nil {
			return err
		}
	} else if w.Config.ObsDim != net.ObsDim || w.Config.NumActions != net.NumActions || w.Config.ValueDim != net.ValueDim {
		return fmt.Errorf("%w: initial network has %d features, %d actions, %d values; %s %d, %d, %d",
			ErrIncompatible, w.Config.ObsDim, w.Config.NumActions, w.Config.ValueDim, sizesFrom, net.ObsDim, net.NumActions, net.ValueDim)
	}
	*net = w.Config
	tr, err := NewTrainer(r.backend, w, hp)
	if err != nil {
		return err
	}
	r.tr = tr
	return nil
}

// prepare resumes the run with m when it has a checkpoint and starts it otherwise.
func (r *run) prepare(m runMethod) error {
	if r.ckpt != nil {
		return m.resume(r)
	}
	return m.start(r)
}

// begin writes run.json from options (a pointer to the trainer's options, saved again with
// every checkpoint): from here on the directory holds this run and close keeps it.
func (r *run) begin(options any) error {
	r.options, r.begun = options, true
	optsJSON, _ := json.Marshal(options)
	return writeFileAtomic(filepath.Join(r.spec.Out, "run.json"), append(optsJSON, '\n'))
}

// seconds is the run's training time so far, over every process.
func (r *run) seconds() float64 { return r.secondsBase + time.Since(r.runStart).Seconds() }

// loop trains from r.Step to spec.Steps. After each step it moves the progress bar; at each
// log point it appends m's metrics row and rewrites metrics.csv/json, and at each
// checkpoint point (and the last step) it saves the checkpoint.
func (r *run) loop(m runMethod) (err error) {
	s := &r.spec
	bar := r.progressBar()
	r.bar = bar
	defer bar.Close() // after an error or a stop, what follows starts on its own line
	// A run counting samples writes plain lines of steps, samples/s and the time left to a
	// log or pipe, from the first step on.
	var plain *plainProgress
	if bar == nil && s.Progress != nil && s.RowsPerStep > 0 {
		plain = newPlainProgress(s.Progress, s.Method, r.Step, s.Steps, s.RowsPerStep)
	}
	r.runStart = time.Now()
	r.interval = r.runStart
	r.saved = -1
	if r.ckpt != nil {
		r.saved = r.Step
	}
	for r.Step < s.Steps {
		if r.Step%s.LogEvery == 0 && s.ctx.Err() != nil {
			return r.stop(m)
		}
		n := r.Step + 1
		if err = m.step(r, n); err != nil {
			if s.ctx.Err() != nil && errors.Is(err, s.ctx.Err()) && r.Step%s.LogEvery == 0 {
				return r.stop(m) // the step gave up before changing the trainer
			}
			if errors.Is(err, ErrDataChanged) && r.Step > 0 {
				// The data went away under the run: keep every step trained.
				if r.saved != r.Step {
					if cerr := r.checkpoint(m); cerr != nil {
						return cerr
					}
					r.saved = r.Step
				}
				return fmt.Errorf("%w; checkpoint of step %d written (restore the data and run the same command again to resume)", err, r.Step)
			}
			return err
		}
		r.Step = n
		_ = bar.Set64(n * max(s.RowsPerStep, 1))
		if plain != nil {
			plain.step(n)
		}
		if s.stopAfter > 0 && n == s.stopAfter {
			return errKilled
		}
		if n%s.LogEvery != 0 && n != s.Steps {
			continue
		}
		row, err := m.record(r)
		if err != nil {
			return err
		}
		r.Metrics = append(r.Metrics, row)
		if err := writeMetrics(s.Out, s.MetricNames, r.Metrics); err != nil {
			return err
		}
		if n%s.CheckpointEvery == 0 || n == s.Steps {
			if err := r.checkpoint(m); err != nil {
				return err
			}
			r.saved = n
		}
		r.interval = time.Now()
	}
	_ = bar.Finish()
	return nil
}

// stop ends a cancelled loop at r.Step, a log point: it checkpoints that step unless the
// newest checkpoint already holds it, and returns the *StoppedError.
func (r *run) stop(m runMethod) error {
	if r.Step > 0 && r.saved != r.Step {
		if err := r.checkpoint(m); err != nil {
			return err
		}
		r.saved = r.Step
	}
	return &StoppedError{Step: r.Step, Steps: r.spec.Steps, Err: r.spec.ctx.Err()}
}

func (r *run) progressBar() *progress.Bar {
	s := &r.spec
	if s.Progress == nil {
		return nil
	}
	if s.RowsPerStep > 0 {
		if !progress.IsTerminal(s.Progress) {
			return nil // plain lines instead (plainProgress)
		}
		// Samples (steps times the batch) with their rate and the time left.
		bar := progress.New(s.Progress, s.Steps*s.RowsPerStep, fmt.Sprintf("%s (%d samples a step)", s.Method, s.RowsPerStep),
			progress.Options{Rate: true})
		bar.SetStart(r.Step * s.RowsPerStep)
		return bar
	}
	bar := progress.New(s.Progress, s.Steps, s.Method, progress.Options{Rate: s.ProgressRate})
	bar.SetStart(r.Step)
	return bar
}

// logf writes a log line to w (nil: nowhere), taking the progress bar off a terminal's line
// first so that the line is not written after the bar.
func (r *run) logf(w io.Writer, format string, args ...any) {
	if w == nil {
		return
	}
	r.bar.Clear()
	fmt.Fprintf(w, format, args...)
}

// checkpoint saves the trainer, the options, the counters and m's state atomically.
func (r *run) checkpoint(m runMethod) error {
	optsJSON, _ := json.Marshal(r.options)
	h := checkpointHeader{Method: r.spec.Method, Options: optsJSON, Step: r.Step, Seconds: r.seconds(),
		MetricNames: r.spec.MetricNames, Metrics: r.Metrics}
	m.save(&h)
	return saveCheckpoint(r.spec.Out, h, r.tr)
}
