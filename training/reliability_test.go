package training

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
)

func tinyBC(t *testing.T) BCOptions {
	o := DefaultBCOptions()
	o.Out = t.TempDir()
	o.Steps, o.Batch, o.LogEvery, o.CheckpointEvery = 10, 16, 5, 5
	o.Net = NetConfig{Width: 8, Depth: 1, Norm: NormLayer}
	return o
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

func TestTwoBCRunsCannotWriteOneDirectory(t *testing.T) {
	o := tinyBC(t)
	d, err := rundir.Open(o.Out, rundir.TrainBC)
	if err != nil {
		t.Fatal(err)
	}
	_, err = TrainBC(context.Background(), tinySamples(100), o)
	d.Close()
	if !errors.Is(err, rundir.ErrBusy) {
		t.Fatalf("second run into a locked directory: %v, want rundir.ErrBusy", err)
	}
	if _, err := TrainBC(context.Background(), tinySamples(100), o); err != nil {
		t.Fatalf("after the first run released it: %v", err)
	}
}

func TestBCResumeRefusesOtherSettingsAndOtherData(t *testing.T) {
	o := tinyBC(t)
	data := tinySamples(100)
	data.Source = "dataset A"
	if _, err := TrainBC(context.Background(), data, o); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, want string
		edit       func(*BCOptions, *Samples)
	}{
		{"lr", "--lr", func(o *BCOptions, _ *Samples) { o.Hyper.LearningRate *= 2 }},
		{"width", "--width", func(o *BCOptions, _ *Samples) { o.Net.Width = 16 }},
		{"batch", "--batch", func(o *BCOptions, _ *Samples) { o.Batch = 8 }},
		{"log-every", "--log-every", func(o *BCOptions, _ *Samples) { o.LogEvery = 1 }},
		{"classic data", "classic", func(_ *BCOptions, s *Samples) { s.Rules.Variant = rules.Classic }},
		{"short data", "short", func(_ *BCOptions, s *Samples) { s.Rules.Length = rules.Short }},
		{"other dataset", "--data", func(_ *BCOptions, s *Samples) { s.Source = "dataset B" }},
	} {
		o2, d2 := o, *data
		o2.Steps = 20
		c.edit(&o2, &d2)
		_, err := TrainBC(context.Background(), &d2, o2)
		if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrResumeMismatch naming %s", c.name, err, c.want)
		}
	}
	o.Steps = 20 // more steps is the one change allowed
	res, err := TrainBC(context.Background(), data, o)
	if err != nil || !res.Resumed || res.Steps != 20 {
		t.Fatalf("extending the run: %+v %v", res, err)
	}
}

// Extending a finished run whose steps were not a multiple of the log interval: the first
// interval after the resume has fewer steps, and its means must be over those steps only
// (they were halved when the full interval length was assumed).
func TestBCFirstIntervalAfterResumeIsAveragedOverItsOwnSteps(t *testing.T) {
	o := tinyBC(t)
	o.Steps, o.LogEvery, o.CheckpointEvery = 15, 10, 10
	o.Hyper.LearningRate = 1e-9 // the loss stays where it is: rows differ only by batch noise
	data := tinySamples(300)
	if _, err := TrainBC(context.Background(), data, o); err != nil {
		t.Fatal(err)
	}
	o.Steps = 20
	res, err := TrainBC(context.Background(), data, o)
	if err != nil {
		t.Fatal(err)
	}
	var at15, at20 []float64
	for _, r := range res.Metrics {
		switch r[0] {
		case 15:
			at15 = r
		case 20:
			at20 = r
		}
	}
	if at15 == nil || at20 == nil {
		t.Fatalf("metric rows %v: want rows at steps 15 and 20", res.Metrics)
	}
	for _, c := range []int{4, 5} { // loss, policy loss
		if ratio := at20[c] / at15[c]; ratio < 0.8 || ratio > 1.25 {
			t.Errorf("%s at step 20 is %.4f, at 15 %.4f: the 5-step interval was not averaged over 5 steps",
				BCMetricNames[c], at20[c], at15[c])
		}
	}
}

func TestPPOInitForOtherGamesIsRefused(t *testing.T) {
	o := tinyPPO(t)
	game, err := rules.NewGame(o.Rules)
	if err != nil {
		t.Fatal(err)
	}
	_ = game
	w, err := NewWeights(NetConfig{ObsDim: 771, NumActions: rules.NumDistinctActions(), ValueDim: 4, Width: 8, Depth: 1, Norm: NormLayer}, 1)
	if err != nil {
		t.Fatal(err)
	}
	classic := o.Rules
	classic.Variant = rules.Classic
	o.Init, o.InitFrom, o.InitRules = w, "classic.bot", &classic
	if _, err := TrainPPO(context.Background(), o); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "classic") {
		t.Fatalf("init from a Classic network: %v, want ErrIncompatible naming classic", err)
	}
	o.InitRules, o.InitEncoding = nil, "obs-v1-hidden-cash"
	if _, err := TrainPPO(context.Background(), o); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "hidden-cash") {
		t.Fatalf("init from a hidden-cash network: %v, want ErrIncompatible", err)
	}
	if ents, _ := os.ReadDir(o.Out); len(ents) != 0 {
		t.Errorf("a refused start left %d entries in the run directory", len(ents))
	}
}

func TestPPOResumeRefusesOtherSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a PPO iteration")
	}
	o := tinyPPO(t)
	o.Iterations, o.PoolEvery, o.EvalEvery = 1, 0, 0
	if _, err := TrainPPO(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	o2 := o
	o2.Iterations = 2
	o2.Hyper.LearningRate *= 3
	if _, err := TrainPPO(context.Background(), o2); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--lr") {
		t.Fatalf("resume with another --lr: %v", err)
	}
	o2 = o
	o2.Iterations, o2.Rules.Variant = 2, rules.Classic
	if _, err := TrainPPO(context.Background(), o2); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--rules") {
		t.Fatalf("resume with --rules classic: %v", err)
	}
}

func TestCompareSettingsSeesASettingTurnedOff(t *testing.T) {
	type opts struct {
		Steps int    `json:"steps"`
		Hide  bool   `json:"hide_opponent_cash,omitempty"`
		Seed  uint64 `json:"seed"`
	}
	saved := []byte(`{"steps": 10, "hide_opponent_cash": true}`)
	err := compareSettings("run", saved, opts{Steps: 20}, "steps")
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--hide-opponent-cash") {
		t.Fatalf("turning --hide-opponent-cash off on resume: %v", err)
	}
	if err := compareSettings("run", saved, opts{Steps: 20, Hide: true}, "steps"); err != nil {
		t.Fatalf("only steps changed: %v", err)
	}
	// A setting the run did not record (an earlier build) is not compared.
	if err := compareSettings("run", saved, opts{Steps: 20, Hide: true, Seed: 7}, "steps"); err != nil {
		t.Fatalf("legacy run: %v", err)
	}
}

func TestNetBotFingerprintTellsNetworksApart(t *testing.T) {
	opts := rules.DefaultOptions()
	f, err := DefaultBotFor(opts)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewNetBot("default", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewNetBot("default", f, &opts, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint() == "" || a.Fingerprint() != b.Fingerprint() {
		t.Fatalf("one network, fingerprints %q and %q", a.Fingerprint(), b.Fingerprint())
	}
	g := *f
	w := *f.Weights
	w.Tensors = append([][]float32{}, f.Weights.Tensors...)
	w.Tensors[0] = append([]float32{}, w.Tensors[0]...)
	w.Tensors[0][0] += 0.5
	g.Weights = &w
	c, err := NewNetBot("default", &g, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Fingerprint() == a.Fingerprint() {
		t.Fatal("a retrained network under the same name has the same fingerprint")
	}
}
