package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
)

// userProject is a directory of a user's files, with names the commands also write (train/,
// dataset/, metrics.csv, run.json, *.tmp); unchanged reports whether every file is still
// there byte for byte and nothing was added.
type userProject struct {
	t     *testing.T
	dir   string
	files map[string]string
}

func newUserProject(t *testing.T) *userProject {
	p := &userProject{t: t, dir: t.TempDir(), files: map[string]string{
		"train/model.py": "import torch\n", "dataset/data.csv": "a,b\n", "metrics.csv": "epoch,loss\n",
		"run.json": `{"lr": 0.1}`, "draft.tmp": "keep\n", "game-00000.json": "{}\n", "x.bot": "not a bot\n",
	}}
	for n, c := range p.files {
		path := filepath.Join(p.dir, n)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(c), 0o644))
	}
	return p
}

func (p *userProject) unchanged(what string) {
	p.t.Helper()
	n := 0
	require.NoError(p.t, filepath.WalkDir(p.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	}))
	assert.Equal(p.t, len(p.files), n, "%s: files added or removed", what)
	for name, c := range p.files {
		b, err := os.ReadFile(filepath.Join(p.dir, name))
		if assert.NoError(p.t, err, "%s: %s", what, name) {
			assert.Equal(p.t, c, string(b), "%s: %s changed", what, name)
		}
	}
}

func runMain(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// Every writing command, pointed at a directory (or file) of the user's, refuses with one line
// and leaves every file as it was.
func TestWritingCommandsRefuseTheUsersFiles(t *testing.T) {
	p := newUserProject(t)
	for _, args := range [][]string{
		{"demo", "--out", p.dir, "--games", "4", "--eval-games", "2", "--train-steps", "2"},
		{"selfplay", "--agents", "random", "--games", "2", "--out", p.dir, "-q"},
		{"selfplay", "--agents", "random", "--games", "2", "--out", p.dir, "-q", "--resume"},
		{"train", "bc", "--teachers", "random", "--games", "1", "--steps", "2", "--out", p.dir},
		{"train", "bc", "--data", filepath.Join(p.dir, "dataset"), "--out", filepath.Join(p.dir, "train")},
		{"train", "ppo", "--iterations", "1", "--out", p.dir},
		{"train", "exit", "--generations", "1", "--out", p.dir},
		{"eval", "--agents", "random", "--games", "2", "--save", p.dir},
		{"eval", "--agents", "random", "--games", "2", "--csv", filepath.Join(p.dir, "metrics.csv")},
		{"export", "--run", "nowhere", "--out", filepath.Join(p.dir, "x.bot")},
	} {
		code, stdout, stderr := runMain(args...)
		name := strings.Join(args[:2], " ")
		assert.Equal(t, 1, code, "%s exit status", name)
		assert.Empty(t, stdout, "%s: nothing is played or printed before the refusal", name)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "%s: one line: %s", name, stderr)
		assert.Regexp(t, "not empty and not written by|exists and is not", stderr, name)
		p.unchanged(name)
	}
}

func TestTwoTrainBCRunsCannotShareADirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	d, err := rundir.Open(dir, rundir.TrainBC)
	require.NoError(t, err)
	defer d.Close()
	code, _, stderr := runMain("train", "bc", "--teachers", "random", "--games", "1", "--steps", "2", "--out", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "another run is writing this directory")
}

func TestExportReplacesOnlyBotFilesUnlessForced(t *testing.T) {
	run := t.TempDir()
	o := trainBCOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5, seed: 1},
		teachers: "random", games: 1, out: run, steps: 2, batch: 8, logEvery: 2, checkpointEvery: 2, buffer: 1000}
	require.NoError(t, runTrainBC(context.Background(), o, io.Discard))
	out := filepath.Join(t.TempDir(), "x.bot")
	require.NoError(t, os.WriteFile(out, []byte("user notes"), 0o644))
	err := runExport(exportOptions{run: run, out: out}, io.Discard)
	require.ErrorIs(t, err, rundir.ErrExists)
	b, _ := os.ReadFile(out)
	require.Equal(t, "user notes", string(b))
	require.NoError(t, runExport(exportOptions{run: run, out: out, force: true}, io.Discard))
	require.NoError(t, runExport(exportOptions{run: run, out: out}, io.Discard), "an existing bot file is replaced")
}

func TestDemoRefusesAProjectDirectoryAndReplacesOnlyItsOwnArtifacts(t *testing.T) {
	p := newUserProject(t)
	var f fakeRunner
	f.have = map[string]bool{"selfplay": true, "dataset": true, "train": true, "export": true, "eval": true}
	o := smallDemo(t)
	o.out = p.dir
	err := runDemoWith(o, io.Discard, f.runner())
	require.ErrorIs(t, err, rundir.ErrNotOurs)
	assert.Empty(t, f.calls)
	p.unchanged("demo")

	// An earlier demo's directory: its artifacts (of their own kinds) are removed, a note
	// of the user's beside them stays.
	o = smallDemo(t)
	l := demoLayout(o.out)
	mk := func(dir string, k *rundir.Kind, file string) {
		d, err := rundir.Open(dir, k)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, file), []byte("{}"), 0o644))
		d.Close()
	}
	mk(o.out, rundir.Demo, "notes.txt")
	mk(l.dataset, rundir.Selfplay, "manifest.json")
	mk(l.train, rundir.TrainBC, "run.json")
	require.NoError(t, os.WriteFile(l.bot, []byte(rundir.BotMagic+"..."), 0o644))
	require.NoError(t, os.WriteFile(l.eval, []byte(evalCSVHeader), 0o644))
	// ... but a file of the user's inside the old dataset stops the demo before any removal.
	stray := filepath.Join(l.dataset, "analysis.ipynb")
	require.NoError(t, os.WriteFile(stray, []byte("{}"), 0o644))
	f.calls = nil
	err = runDemoWith(o, io.Discard, f.runner())
	require.ErrorContains(t, err, "analysis.ipynb")
	for _, path := range []string{l.bot, l.eval, filepath.Join(l.train, "run.json"), filepath.Join(l.dataset, "manifest.json")} {
		_, err := os.Stat(path)
		require.NoError(t, err, "%s removed by a refused rerun", path)
	}
	require.NoError(t, os.Remove(stray))
	var sawOld bool
	r := f.runner()
	run := r.run
	r.run = func(args []string, out, progress io.Writer) error {
		if args[0] == "selfplay" {
			_, err := os.Stat(filepath.Join(l.dataset, "manifest.json"))
			sawOld = err == nil
		}
		return run(args, out, progress)
	}
	require.NoError(t, runDemoWith(o, io.Discard, r))
	assert.False(t, sawOld, "the earlier dataset is removed before self-play")
	b, err := os.ReadFile(filepath.Join(o.out, "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
}

func TestEvalChecksItsOutputsBeforePlaying(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for name, o := range map[string]evalOptions{
		"csv in a missing directory": {csv: filepath.Join(dir, "nodir", "x.csv")},
		"save into a file":           {save: file},
	} {
		e := smallEval("random")
		e.csv, e.save = o.csv, o.save
		var progress bytes.Buffer
		e.progress = &progress
		var out bytes.Buffer
		err := runEval(context.Background(), e, &out)
		assert.Error(t, err, name)
		assert.Empty(t, out.String(), name)
		assert.Empty(t, progress.String(), "%s: no game was played", name)
	}
}

// removeOnWrite deletes a directory the first time the progress bar draws: an output that
// was fine when checked fails when written.
type removeOnWrite struct{ dir string }

func (r removeOnWrite) Write(p []byte) (int, error) {
	os.RemoveAll(r.dir)
	return len(p), nil
}

func TestEvalPrintsTheTableEvenWhenWritingTheCSVFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	e := smallEval("random")
	e.csv, e.progress = filepath.Join(dir, "x.csv"), removeOnWrite{dir}
	var out bytes.Buffer
	err := runEval(context.Background(), e, &out)
	require.Error(t, err)
	assert.Contains(t, out.String(), "win rate")
}

func TestEvalSaveReplacesItsOwnStaleGamesOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "games")
	e := smallEval("random")
	e.save, e.games = dir, 4
	require.NoError(t, runEval(context.Background(), e, io.Discard))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.md"), []byte("mine"), 0o644))
	e.games = 2
	require.NoError(t, runEval(context.Background(), e, io.Discard))
	games, err := filepath.Glob(filepath.Join(dir, "game-*.json"))
	require.NoError(t, err)
	assert.Len(t, games, 2, "the games of the earlier, longer run are gone")
	_, err = os.Stat(filepath.Join(dir, "notes.md"))
	assert.NoError(t, err, "a file of the user's in the directory stays")
}

func TestSelfplayRecordPolicyWithAScriptedBotLeavesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	code, stdout, stderr := runMain("selfplay", "--agents", "random", "--games", "2", "--record-policy", "-q", "--out", dir)
	assert.Equal(t, 1, code)
	assert.NotContains(t, stdout+stderr, "--resume", "no advice to resume a run that never started")
	assert.Contains(t, stderr, "random does not")
	_, err := os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist)
	code, _, stderr = runMain("selfplay", "--agents", "random", "--games", "2", "-q", "--out", dir)
	assert.Equal(t, 0, code, stderr)
}

func TestInterruptedCommandsExitWith130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := selfplayOptions{gameFlags: gameFlags{variant: "base", length: "standard"}, agents: "random", games: 4, out: filepath.Join(t.TempDir(), "ds"), format: "arrow", reward: "win-loss", shardGames: 2}
	var out bytes.Buffer
	err := runSelfplay(ctx, o, &out)
	assert.ErrorIs(t, err, ErrInterrupted)
	assert.Contains(t, out.String(), "--resume")
	rate := smallEval("random,valuer").tourneyOptions
	assert.ErrorIs(t, runRate(ctx, rate, io.Discard), ErrInterrupted)
	// Training stops before its first iteration (step): one line saying how far it got and
	// how to resume.
	ppo := trainPPOOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5}, out: t.TempDir(),
		iterations: 3, games: 1, epochs: 1, minibatch: 8, checkpointEvery: 1, evalGames: 1, opponents: "valuer",
		evalOpponent: "valuer", gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}, reward: "rank"}
	perr := runTrainPPO(ctx, ppo, io.Discard)
	assert.ErrorIs(t, perr, ErrInterrupted)
	assert.ErrorContains(t, perr, "before the first iteration finished; nothing trained")
	assert.Equal(t, "train bc: interrupted after step 40 of 100; checkpoint written (run the same command again to resume)",
		stoppedError("train bc", "step", &training.StoppedError{Step: 40, Steps: 100, Err: context.Canceled}).Error())
	assert.Equal(t, ExitInterrupted, exitCode(err))
	assert.Equal(t, 130, ExitInterrupted)
	assert.Equal(t, 1, exitCode(errors.New("other")))
	assert.Equal(t, 0, exitCode(nil))
}

func TestMinorCommandLineRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"selfplay", "--agents", "random", "--bots", "valuer", "--out", t.TempDir()}, "not both"},
		{[]string{"eval", "--agents", "random", "--bots", "valuer"}, "not both"},
		{[]string{"rate", "--bots", "random", "--agents", "valuer"}, "not both"},
		{[]string{"train", "ppo", "--pool-every", "-1", "--out", t.TempDir()}, "--pool-every -1 is negative"},
		{[]string{"completion", "foo"}, `unknown shell "foo"`},
		{[]string{"train", "bc", "--data", "somewhere", "--record", "valuer", "--out", t.TempDir()}, "--record"},
	} {
		code, _, stderr := runMain(c.args...)
		assert.Equal(t, 1, code, "%v", c.args)
		assert.Contains(t, stderr, c.want, "%v", c.args)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "%v: %s", c.args, stderr)
	}
}

// The shipped network plays under the name "default"; the dataset records which network
// that was, so a later build with a retrained default cannot resume into it unnoticed.
func TestSelfplayRecordsTheDefaultNetworksFingerprint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	code, _, stderr := runMain("selfplay", "--agents", "default,random", "--games", "1", "-q", "--out", dir)
	require.Equal(t, 0, code, stderr)
	m, err := datasets.ReadManifest(dir)
	require.NoError(t, err)
	require.Len(t, m.AgentFiles, 1)
	assert.Equal(t, "default", m.AgentFiles[0].Agent)
	assert.Len(t, m.AgentFiles[0].SHA256, 64)
}

func TestTrainPPOInitFromAnotherGamesNetworkIsRefused(t *testing.T) {
	f, err := training.DefaultBotFor(rules.DefaultOptions())
	require.NoError(t, err)
	classic := *f
	classic.Header.Rules.Variant = rules.Classic
	init := filepath.Join(t.TempDir(), "classic.bot")
	require.NoError(t, classic.WriteFile(init))
	out := filepath.Join(t.TempDir(), "ppo")
	code, _, stderr := runMain("train", "ppo", "--init", init, "--iterations", "1", "--out", out)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "classic")
	_, err = os.Stat(out)
	assert.ErrorIs(t, err, os.ErrNotExist, "a refused start leaves no run directory")
}
