package training

import (
	"encoding/json"
	"errors"
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
	m.steps = append(m.steps, n)
	m.sum += n
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
	r, err := openRun(runSpec{Out: opts.Out, Kind: toyKind, Method: "toy", Steps: opts.Steps, LogEvery: 2, CheckpointEvery: 4,
		MetricNames: []string{"step", "sum"}, stopAfter: stopAfter})
	if err != nil {
		return nil, nil, err
	}
	defer r.close()
	m := &toyMethod{opts: &opts}
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
