package training

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/tensors"

	"github.com/container-rl/container/env/rules"
)

// Checkpoint files.
const (
	checkpointMagic   = "CNTRCKP1"
	checkpointFormat  = "container-checkpoint"
	checkpointVersion = 1
	// CheckpointFile is the name of a run's latest checkpoint (replaced atomically).
	CheckpointFile = "checkpoint.ckpt"
)

// checkpointHeader is the JSON header of a checkpoint: everything needed to resume a run.
type checkpointHeader struct {
	Format          string          `json:"format"`
	FormatVersion   int             `json:"format_version"`
	Method          string          `json:"method"` // "bc" or "ppo"
	Net             NetConfig       `json:"net"`
	Hyper           Hyper           `json:"hyper"`
	Options         json.RawMessage `json:"options"` // the method's options as started
	EncodingVersion string          `json:"encoding_version"`
	Rules           rules.Options   `json:"rules"`
	Step            int64           `json:"step"`
	RNG             []byte          `json:"rng"`
	Seconds         float64         `json:"seconds"`
	MetricNames     []string        `json:"metric_names"`
	Metrics         [][]float64     `json:"metrics"`
	Extra           json.RawMessage `json:"extra,omitempty"` // method-specific state
	Tensors         []tensorInfo    `json:"tensors"`
}

// saveCheckpoint writes the trainer's variables and the header into dir atomically.
func saveCheckpoint(dir string, h checkpointHeader, t *Trainer) error {
	raws, err := t.variables()
	if err != nil {
		return err
	}
	h.Format, h.FormatVersion, h.Net, h.Hyper = checkpointFormat, checkpointVersion, t.cfg, t.hp
	h.Tensors = nil
	for _, r := range raws {
		h.Tensors = append(h.Tensors, r.info)
	}
	var buf bytes.Buffer
	if err := writeContainer(&buf, checkpointMagic, &h, raws); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, CheckpointFile), buf.Bytes())
}

// loadCheckpoint reads dir's checkpoint; found is false when the run has none yet.
func loadCheckpoint(dir string) (h checkpointHeader, vars map[string]*tensors.Tensor, found bool, err error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return h, nil, false, fmt.Errorf("training: %s is a file, not a run directory", dir)
	}
	path := filepath.Join(dir, CheckpointFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil, false, nil
	}
	if err != nil {
		return h, nil, false, fmt.Errorf("training: %w", err)
	}
	defer f.Close()
	raws, err := readContainer(f, checkpointMagic, &h, func() []tensorInfo { return h.Tensors })
	if err != nil {
		return h, nil, false, fmt.Errorf("%w (file %s)", err, path)
	}
	if h.Format != checkpointFormat || h.FormatVersion != checkpointVersion {
		return h, nil, false, fmt.Errorf("%w: %s: format %q version %d", ErrCorrupt, path, h.Format, h.FormatVersion)
	}
	if err := h.Net.Validate(); err != nil {
		return h, nil, false, err
	}
	vars = make(map[string]*tensors.Tensor, len(raws))
	for _, r := range raws {
		t, err := rawToTensor(r)
		if err != nil {
			return h, nil, false, err
		}
		vars[r.info.Name] = t
	}
	return h, vars, true, nil
}

// resumeTrainer loads the run's checkpoint into a trainer.
func resumeTrainer(backend backends.Backend, h checkpointHeader, vars map[string]*tensors.Tensor) (*Trainer, error) {
	return restoreTrainer(backend, h.Net, h.Hyper, vars)
}

// WeightsFromRun returns the network weights and header fields of a run's latest checkpoint.
func WeightsFromRun(dir string) (*Weights, RunInfo, error) {
	h, vars, found, err := loadCheckpoint(dir)
	if err != nil {
		return nil, RunInfo{}, err
	}
	if !found {
		return nil, RunInfo{}, fmt.Errorf("training: run %s has no checkpoint", dir)
	}
	w := &Weights{Config: h.Net}
	for _, p := range h.Net.Params() {
		t, ok := vars["/"+modelScope+"/"+p.Name]
		if !ok {
			return nil, RunInfo{}, fmt.Errorf("%w: run %s: checkpoint lacks %s", ErrCorrupt, dir, p.Name)
		}
		flat, err := tensors.CopyFlatData[float32](t)
		if err != nil || len(flat) != p.Size() {
			return nil, RunInfo{}, fmt.Errorf("%w: run %s: tensor %s has the wrong shape", ErrCorrupt, dir, p.Name)
		}
		w.Tensors = append(w.Tensors, flat)
	}
	if err := w.Check(); err != nil {
		return nil, RunInfo{}, fmt.Errorf("%w: run %s: %v", ErrCorrupt, dir, err)
	}
	return w, RunInfo{Method: h.Method, Step: h.Step, Seconds: h.Seconds, EncodingVersion: h.EncodingVersion, Rules: h.Rules}, nil
}

// RunInfo summarises a run's latest checkpoint.
type RunInfo struct {
	Method          string
	Step            int64
	Seconds         float64
	EncodingVersion string
	Rules           rules.Options
}
