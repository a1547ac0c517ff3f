package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrainBCThenExportThenLoadAsBot(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	o := trainBCOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5, seed: 1},
		teachers: "valuer,shipper", games: 2, out: run, steps: 4, batch: 16, logEvery: 2, checkpointEvery: 2, valPercent: 0, buffer: 1000}
	var out bytes.Buffer
	require.NoError(t, runTrainBC(context.Background(), o, &out))
	require.True(t, strings.Contains(out.String(), "done: 4 steps"), "output: %s", out.String())
	// Same command again: resumes, nothing left to do.
	out.Reset()
	err := runTrainBC(context.Background(), o, &out)
	require.False(t, err != nil || !strings.Contains(out.String(), "resumed"), "rerun: %v %s", err, out.String())
	botPath := filepath.Join(dir, "x.bot")
	out.Reset()
	require.NoError(t, runExport(exportOptions{run: run, out: botPath}, &out))
	b, err := bots.New(botPath, rules.DefaultOptions(), 1)
	require.NoError(t, err)
	nb, ok := b.(*training.NetBot)
	require.False(t, !ok || nb.File().Header.Training.Steps != 4, "loaded %T %+v", b, b)
}

func TestTrainAndExportFlagErrors(t *testing.T) {
	good := trainBCOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5},
		teachers: "valuer", games: 1, out: t.TempDir(), steps: 4, batch: 16, logEvery: 2, checkpointEvery: 2, buffer: 1000}
	for name, mut := range map[string]func(*trainBCOptions){
		"no out":            func(o *trainBCOptions) { o.out = "" },
		"data and teacher":  func(o *trainBCOptions) { o.data = []string{"x"} },
		"bad norm":          func(o *trainBCOptions) { o.norm = "batch" },
		"zero steps":        func(o *trainBCOptions) { o.steps = 0 },
		"ckpt not multiple": func(o *trainBCOptions) { o.checkpointEvery = 3 },
		"bad lr":            func(o *trainBCOptions) { o.lr = 0 },
	} {
		o := good
		mut(&o)
		err := runTrainBC(context.Background(), o, &bytes.Buffer{})
		assert.ErrorIs(t, err, ErrTrainOptions, "%s: got %v, want ErrTrainOptions", name, err)
	}
	err := runExport(exportOptions{run: "x", out: "y.txt"}, &bytes.Buffer{})
	assert.ErrorIs(t, err, ErrExportOptions, "export to a non-.bot name: %v", err)
	if err := runExport(exportOptions{run: t.TempDir(), out: filepath.Join(t.TempDir(), "a.bot")}, &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "no checkpoint") {
		assert.Fail(t, fmt.Sprintf("export of an empty run: %v", err))
	}
	err = runTrainPPO(context.Background(), trainPPOOptions{}, &bytes.Buffer{})
	assert.ErrorIs(t, err, ErrTrainOptions, "ppo without --out: %v", err)
	ppo := trainPPOOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5}, out: t.TempDir(),
		iterations: 1, games: 1, epochs: 1, minibatch: 8, checkpointEvery: 1, evalGames: 1, opponents: "valuer",
		evalOpponent: "valuer", gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}, reward: "rank"}
	for name, mut := range map[string]func(*trainPPOOptions){
		"bad rules":          func(o *trainPPOOptions) { o.variant = "deluxe" },
		"bad length":         func(o *trainPPOOptions) { o.length = "epic" },
		"bad module":         func(o *trainPPOOptions) { o.modules = "trains" },
		"classic and trucks": func(o *trainPPOOptions) { o.variant, o.modules = "classic", "trucks" },
		"two players":        func(o *trainPPOOptions) { o.players = 2 },
	} {
		o := ppo
		mut(&o)
		err := runTrainPPO(context.Background(), o, &bytes.Buffer{})
		assert.ErrorIs(t, err, ErrTrainOptions, "ppo %s: got %v, want ErrTrainOptions", name, err)
	}
}

// The hidden-cash observation travels from self-play data through behaviour cloning into the
// exported bot, which then reads that variant when it plays; resuming the dataset without
// the flag is refused.
func TestHiddenCashDataTrainsABotThatReadsHiddenCash(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	so := smallSelfplay(data)
	so.hideCash = true
	var out bytes.Buffer
	require.NoError(t, runSelfplay(context.Background(), so, &out))
	require.True(t, strings.Contains(out.String(), encoding.HiddenCashVersion), "selfplay output does not name the encoding: %s", out.String())
	so.hideCash, so.resume = false, true
	err := runSelfplay(context.Background(), so, &out)
	require.False(t, err == nil || !strings.Contains(err.Error(), "encoding"), "resuming hidden-cash data without the flag: err = %v, want an encoding mismatch", err)
	run := filepath.Join(dir, "run")
	o := trainBCOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5, seed: 1},
		data: []string{data}, out: run, steps: 2, batch: 16, logEvery: 2, checkpointEvery: 2, valPercent: 0, buffer: 64}
	require.NoError(t, runTrainBC(context.Background(), o, &out))
	botPath := filepath.Join(dir, "h.bot")
	require.NoError(t, runExport(exportOptions{run: run, out: botPath}, &out))
	opts := rules.DefaultOptions()
	opts.Players = 3
	b, err := bots.New(botPath, opts, 1)
	require.NoError(t, err)
	nb := b.(*training.NetBot)
	v := nb.File().Header.EncodingVersion
	require.True(t, v == encoding.HiddenCashVersion, "exported bot records encoding %q, want %q", v, encoding.HiddenCashVersion)
}

// train bc --init fine-tunes a shipped network on teacher games (the default is made for
// the 4-player base games --teachers plays); a file that is not a network, or a network
// for other games, is refused in one line before anything is written.
func TestTrainBCInitFromDefaultAndRefusals(t *testing.T) {
	o := trainBCOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-4, valueCoef: 0.5, seed: 1},
		teachers: "valuer", games: 1, out: t.TempDir(), steps: 2, batch: 16, logEvery: 2, checkpointEvery: 2, init: "default", buffer: 1000}
	var out bytes.Buffer
	require.NoError(t, runTrainBC(context.Background(), o, &out))
	w, _, err := training.WeightsFromRun(o.out)
	require.NoError(t, err)
	def, err := training.DefaultBot()
	require.NoError(t, err)
	assert.Equal(t, def.Weights.Config, w.Config, "the run keeps the shipped network's shape, not --width 8")

	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.bot")
	require.NoError(t, os.WriteFile(junk, []byte("not a bot"), 0o644))
	five, err := training.DefaultBotFor(rules.Options{Players: 5})
	require.NoError(t, err)
	fiveBot := filepath.Join(dir, "five.bot")
	require.NoError(t, five.WriteFile(fiveBot))
	for _, init := range []string{junk, fiveBot, filepath.Join(dir, "missing")} {
		bad := o
		bad.init, bad.out = init, filepath.Join(dir, "run-"+filepath.Base(init))
		var printed bytes.Buffer
		err := runTrainBC(context.Background(), bad, &printed)
		require.Error(t, err, init)
		assert.NotContains(t, err.Error(), "\n")
		if init != fiveBot {
			assert.NotContains(t, printed.String(), "data:", "a broken --init %s is refused before the teacher games are played", init)
		}
		ents, _ := os.ReadDir(bad.out)
		assert.Empty(t, ents, "a refused --init %s left files", init)
	}
}

// train bc --data with its progress going to a file or pipe (not a terminal) writes plain
// lines from the first step on (reading, steps, samples/s, time left) and no bar redraws,
// and its log has no blank line between steps.
func TestTrainBCStreamingRedirectedProgressIsPlainLines(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	var out bytes.Buffer
	require.NoError(t, runSelfplay(context.Background(), smallSelfplay(data), &out))
	var progress bytes.Buffer
	out.Reset()
	o := trainBCOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5, seed: 1},
		data: []string{data}, out: filepath.Join(dir, "run"), steps: 6, batch: 8, logEvery: 2, checkpointEvery: 2,
		valPercent: 10, buffer: 50, progress: &progress}
	require.NoError(t, runTrainBC(context.Background(), o, &out))
	p := progress.String()
	assert.NotContains(t, p, "\r", "no bar redraws in a file")
	for _, want := range []string{"reading: checking shards 2/2\n", "bc: step 1/6 (16%), 8 samples, ", "samples/s, ", " left\n", "bc: step 6/6 (100%), 48 samples"} {
		assert.Contains(t, p, want)
	}
	assert.Contains(t, out.String(), "streamed through a buffer of 50 decisions")
	assert.NotContains(t, out.String(), "\n\n", "no blank lines in the log:\n%s", out.String())
	assert.Equal(t, 3, strings.Count(out.String(), "\nstep "), out.String())
}

// A trainer given a bot file it cannot read (an opponent, the evaluation or gating opponent,
// a teacher, the initial network) refuses to start in one line and leaves no trace: a run
// directory it would have created does not exist afterwards, and an empty one the user made
// stays empty.
func TestTrainWithAnUnreadableBotFileLeavesNoRunDirectory(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.bot")
	require.NoError(t, os.WriteFile(garbage, []byte("CNTRBOT\x00 and then random bytes \xff\xfe\x01"), 0o644))
	missing := filepath.Join(t.TempDir(), "missing.bot")
	small := []string{"--width", "8", "--depth", "1"}
	ppo := append([]string{"train", "ppo", "--iterations", "1", "--games", "1", "--minibatch", "8"}, small...)
	exit := append([]string{"train", "exit", "--generations", "1", "--games", "1", "--sims", "2", "--steps", "1"}, small...)
	for name, args := range map[string][]string{
		"ppo --opponents garbage":      append(ppo, "--eval-every", "0", "--opponents", "random,"+garbage),
		"ppo --opponents missing":      append(ppo, "--eval-every", "0", "--opponents", missing),
		"ppo --eval-opponent garbage":  append(ppo, "--opponents", "random", "--eval-every", "1", "--eval-opponent", garbage),
		"ppo --init garbage":           append(ppo, "--eval-every", "0", "--init", garbage),
		"bc --teachers garbage":        append([]string{"train", "bc", "--teachers", "random," + garbage, "--games", "2", "--steps", "1"}, small...),
		"exit --gate-opponent garbage": append(exit, "--gate-opponent", garbage),
		"exit --init garbage":          append(exit, "--init", garbage),
	} {
		for _, existed := range []bool{false, true} {
			out := filepath.Join(t.TempDir(), "run")
			if existed {
				require.NoError(t, os.Mkdir(out, 0o755))
			}
			var stdout, stderr bytes.Buffer
			code := Main(append(append([]string{}, args...), "--out", out), strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 1, code, "%s: %s", name, stderr.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "%s: %q", name, stderr.String())
			assert.Contains(t, stderr.String(), "bot", "%s: %q", name, stderr.String())
			ents, err := os.ReadDir(out)
			if existed {
				assert.NoError(t, err, name)
				assert.Empty(t, ents, "%s: left in the user's empty directory", name)
			} else {
				assert.True(t, os.IsNotExist(err), "%s: %s left behind (%v)", name, out, ents)
			}
		}
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
