package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/internal/rundir"
)

// toyKind is a run directory kind for the lifecycle tests (a new method brings its own).
var toyKind = &rundir.Kind{Name: "train-toy", Command: "training test", Files: []string{"checkpoint.ckpt", "run.json", "metrics.csv", "metrics.json"}}

var toyNet = NetConfig{ObsDim: 3, NumActions: 2, ValueDim: 1, Width: 2, Depth: 1, Norm: NormNone}

type toyOptions struct {
	Out   string    `json:"out"`
	Steps int64     `json:"steps"`
	Seed  uint64    `json:"seed"`
	Net   NetConfig `json:"net"`
	Hyper Hyper     `json:"hyper"`
}

// toyMethod trains nothing: it records which steps, rows and checkpoints the lifecycle asks
// for, and keeps a counter in the checkpoint's Extra.
type toyMethod struct {
	opts             *toyOptions
	steps, recorded  []int64
	saved            []int64
	sum              int64 // sum of the steps trained, over every process (Extra)
	resumedFromExtra bool
	// cancelAt cancels the run's context in step cancelAt and gives that step up (as PPO's
	// game collection does); cancelAfter cancels it after step cancelAfter is done.
	cancelAt, cancelAfter int64
	ctx                   context.Context
	cancel                context.CancelFunc
}

func (m *toyMethod) resume(r *run) error {
	given := *m.opts
	given.Net = toyNet
	if err := r.resume(given, m.opts, "steps"); err != nil {
		return err
	}
	m.opts.Steps = given.Steps
	m.resumedFromExtra = true
	return json.Unmarshal(r.ckpt.Extra, &m.sum)
}

func (m *toyMethod) start(r *run) error {
	m.opts.Net = toyNet
	return r.fresh(nil, &m.opts.Net, m.opts.Seed, m.opts.Hyper, "the toy has")
}

func (m *toyMethod) step(r *run, n int64) error {
	if n != r.Step+1 {
		return errors.New("step out of order")
	}
	if n == m.cancelAt {
		m.cancel()
		return fmt.Errorf("toy step %d: %w", n, m.ctx.Err())
	}
	m.steps = append(m.steps, n)
	m.sum += n
	if n == m.cancelAfter {
		m.cancel()
	}
	return nil
}

func (m *toyMethod) record(r *run) ([]float64, error) {
	m.recorded = append(m.recorded, r.Step)
	return []float64{float64(r.Step), float64(m.sum)}, nil
}

func (m *toyMethod) save(h *checkpointHeader) {
	m.saved = append(m.saved, h.Step)
	h.Extra, _ = json.Marshal(m.sum)
}

// trainToy runs the toy method through the whole lifecycle, as a trainer does.
func trainToy(opts toyOptions, stopAfter int64) (*run, *toyMethod, error) {
	return trainToyWith(opts, stopAfter, &toyMethod{})
}

// trainToyWith is trainToy with a prepared method (its cancel points); when it has any, the
// run gets a context the method cancels.
func trainToyWith(opts toyOptions, stopAfter int64, m *toyMethod) (*run, *toyMethod, error) {
	var ctx context.Context
	if m.cancelAt > 0 || m.cancelAfter > 0 {
		ctx, m.cancel = context.WithCancel(context.Background())
		defer m.cancel()
		m.ctx = ctx
	}
	r, err := openRun(runSpec{Out: opts.Out, Kind: toyKind, Method: "toy", Steps: opts.Steps, LogEvery: 2, CheckpointEvery: 4,
		MetricNames: []string{"step", "sum"}, stopAfter: stopAfter, ctx: ctx})
	if err != nil {
		return nil, nil, err
	}
	defer r.close()
	m.opts = &opts
	if err := r.prepare(m); err != nil {
		return nil, nil, err
	}
	if err := r.begin(&opts); err != nil {
		return nil, nil, err
	}
	return r, m, r.loop(m)
}

func TestRunLoopRecordsEveryLogEveryAndCheckpointsEveryCheckpointEveryAndAtTheEnd(t *testing.T) {
	opts := toyOptions{Out: t.TempDir(), Steps: 7, Seed: 1, Hyper: DefaultBCOptions().Hyper}
	r, m, err := trainToy(opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.steps, []int64{1, 2, 3, 4, 5, 6, 7}) || r.Step != 7 || r.Resumed {
		t.Fatalf("steps %v, run at %d (resumed %v)", m.steps, r.Step, r.Resumed)
	}
	if !slices.Equal(m.recorded, []int64{2, 4, 6, 7}) || len(r.Metrics) != 4 {
		t.Fatalf("rows after steps %v (%d metrics), want 2, 4, 6 and the last, 7", m.recorded, len(r.Metrics))
	}
	if !slices.Equal(m.saved, []int64{4, 7}) {
		t.Fatalf("checkpoints after steps %v, want 4 and the last, 7", m.saved)
	}
	js, err := os.ReadFile(filepath.Join(opts.Out, "run.json"))
	if err != nil || !strings.Contains(string(js), `"steps":7`) {
		t.Fatalf("run.json %q: %v", js, err)
	}
	csv, err := os.ReadFile(filepath.Join(opts.Out, "metrics.csv"))
	if err != nil || string(csv) != "step,sum\n2,3\n4,10\n6,21\n7,28\n" {
		t.Fatalf("metrics.csv %q: %v", csv, err)
	}
	_, info, err := WeightsFromRun(opts.Out)
	if err != nil || info.Method != "toy" || info.Step != 7 {
		t.Fatalf("checkpoint %+v: %v", info, err)
	}
}

func TestRunResumesAKilledRunFromItsLastCheckpointAndRefusesAnotherMethod(t *testing.T) {
	opts := toyOptions{Out: t.TempDir(), Steps: 7, Seed: 1, Hyper: DefaultBCOptions().Hyper}
	if _, _, err := trainToy(opts, 6); !errors.Is(err, errKilled) {
		t.Fatalf("kill after step 6: %v", err)
	}
	r, m, err := trainToy(opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The checkpoint of step 4 holds the sum 1+2+3+4; steps 5 and 6 are trained again.
	if !r.Resumed || !m.resumedFromExtra || !slices.Equal(m.steps, []int64{5, 6, 7}) || m.sum != 28 {
		t.Fatalf("resumed %v (extra %v), steps %v, sum %d; want steps 5-7 and sum 28", r.Resumed, m.resumedFromExtra, m.steps, m.sum)
	}
	if len(r.Metrics) != 4 || r.Metrics[1][1] != 10 || r.Metrics[3][1] != 28 {
		t.Fatalf("metrics %v: want the two saved rows, then 6 and 7", r.Metrics)
	}
	other := opts
	other.Seed = 2
	if _, _, err := trainToy(other, 0); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "seed") {
		t.Fatalf("resume with another seed: %v, want ErrResumeMismatch naming seed", err)
	}
	if _, err := openRun(runSpec{Out: opts.Out, Kind: toyKind, Method: "bc"}); err == nil || !strings.Contains(err.Error(), "is a toy run, not bc") {
		t.Fatalf("opening a toy run as bc: %v", err)
	}
}

func TestRunStoppedByItsContextCheckpointsTheLastLogPointAndResumesToTheSameEnd(t *testing.T) {
	straight := toyOptions{Out: t.TempDir(), Steps: 7, Seed: 1, Hyper: DefaultBCOptions().Hyper}
	_, want, err := trainToy(straight, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                  string
		cancelAt, cancelAfter int64
		stoppedAt             int64   // the step checkpointed and reported
		saved                 []int64 // checkpoints written by the stopped process
	}{
		// Step 3 gives up as the context ends: step 2 (a log point, not a checkpoint) is saved.
		{name: "a step gives up", cancelAt: 3, stoppedAt: 2, saved: []int64{2}},
		// Cancelled after step 3, off a log point: step 4 is trained and recorded, and its
		// regular checkpoint is not written twice.
		{name: "between steps", cancelAfter: 3, stoppedAt: 4, saved: []int64{4}},
		// Cancelled after step 5: the next log point is 6, saved beside the checkpoint at 4.
		{name: "after a checkpoint", cancelAfter: 5, stoppedAt: 6, saved: []int64{4, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := straight
			opts.Out = t.TempDir()
			r, m, err := trainToyWith(opts, 0, &toyMethod{cancelAt: tc.cancelAt, cancelAfter: tc.cancelAfter})
			var stopped *StoppedError
			if !errors.As(err, &stopped) || !errors.Is(err, context.Canceled) || stopped.Step != tc.stoppedAt || stopped.Steps != 7 {
				t.Fatalf("error %v, want a StoppedError at step %d of 7 wrapping context.Canceled", err, tc.stoppedAt)
			}
			if r.Step != tc.stoppedAt || !slices.Equal(m.saved, tc.saved) {
				t.Fatalf("run at step %d, checkpoints %v; want %d and %v", r.Step, m.saved, tc.stoppedAt, tc.saved)
			}
			r2, m2, err := trainToy(opts, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !r2.Resumed || m2.steps[0] != tc.stoppedAt+1 || m2.sum != want.sum || len(r2.Metrics) != len(want.recorded) {
				t.Fatalf("resumed %v from step %d: sum %d, %d metric rows; the uninterrupted run: sum %d, %d rows",
					r2.Resumed, m2.steps[0]-1, m2.sum, len(r2.Metrics), want.sum, len(want.recorded))
			}
		})
	}
}

// TestARunThatFailsWithAProgressBarEndsTheBarsLine: when a run with a progress bar stops on
// an error (here the test hook that fails it after step 2, as a crash would), the bar's line
// is ended, so the error printed next starts on a line of its own.
func TestARunThatFailsWithAProgressBarEndsTheBarsLine(t *testing.T) {
	o := tinyBC(t)
	var bar bytes.Buffer
	o.Progress, o.stopAfter = &bar, 2
	if _, err := TrainBC(context.Background(), tinySamples(40), o); !errors.Is(err, errKilled) {
		t.Fatalf("run stopped after step 2: %v, want errKilled", err)
	}
	out := bar.String()
	if !strings.Contains(out, "bc") || !strings.HasSuffix(out, "\n") {
		t.Fatalf("progress output %q: want the bar, its line ended", out)
	}
}

// Written to files (a redirected run), the log has one line per log point and no blank lines,
// and the progress output holds plain lines, no redrawn bar frames.
func TestRedirectedRunWritesPlainLinesWithoutBlankOnes(t *testing.T) {
	o := tinyBC(t)
	var progress, log bytes.Buffer
	o.Progress, o.Log = &progress, &log
	if _, err := TrainBC(context.Background(), tinySamples(40), o); err != nil {
		t.Fatal(err)
	}
	p := tinyPPO(t)
	var ppoProgress bytes.Buffer
	p.Progress, p.Log = &ppoProgress, &log
	if _, err := TrainPPO(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(log.String(), "\n")
	if len(lines) != 2+3+1 || lines[len(lines)-1] != "" {
		t.Fatalf("log %q: want 2 step lines and 3 iteration lines", log.String())
	}
	for i, l := range lines[:len(lines)-1] {
		if want := map[bool]string{true: "step ", false: "iteration "}[i < 2]; !strings.HasPrefix(l, want) {
			t.Errorf("log line %d %q, want it to start %q", i, l, want)
		}
	}
	for name, out := range map[string]string{"bc": progress.String(), "ppo": ppoProgress.String()} {
		if strings.ContainsAny(out, "\r\x1b") || !strings.HasSuffix(out, "\n") || strings.Contains(out, "\n\n") {
			t.Errorf("%s progress %q: want plain lines", name, out)
		}
	}
}

// userRunFiles fills dir with files of the names a training run writes, and returns a check
// that they are unchanged and nothing was added.
func userRunFiles(t *testing.T, dir string) func() {
	t.Helper()
	files := map[string]string{"metrics.csv": "epoch,loss\n1,0.5\n", "run.json": `{"mine":true}`, "model.py": "x = 1\n"}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		t.Helper()
		ents, _ := os.ReadDir(dir)
		if len(ents) != len(files) {
			t.Errorf("directory now holds %d entries, want the user's %d", len(ents), len(files))
		}
		for n, c := range files {
			if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(b) != c {
				t.Errorf("user file %s changed: %q %v", n, b, err)
			}
		}
	}
}

func TestTrainRefusesADirectoryOfUserFiles(t *testing.T) {
	o := tinyBC(t)
	same := userRunFiles(t, o.Out)
	if _, err := TrainBC(context.Background(), tinySamples(100), o); !errors.Is(err, rundir.ErrNotOurs) {
		t.Fatalf("TrainBC into a user directory: %v, want rundir.ErrNotOurs", err)
	}
	p := DefaultPPOOptions()
	p.Out = o.Out
	if _, err := TrainPPO(context.Background(), p); !errors.Is(err, rundir.ErrNotOurs) {
		t.Fatalf("TrainPPO into a user directory: %v, want rundir.ErrNotOurs", err)
	}
	same()
}
