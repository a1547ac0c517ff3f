package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/internal/rundir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeRunner pretends the build has the commands in have; each run writes the artifact the
// step's --out/--csv flag names and records the command line.
type fakeRunner struct {
	have  map[string]bool
	fail  string
	calls []string
}

func (f *fakeRunner) runner() demoRunner {
	return demoRunner{
		has: func(args []string) bool { return f.have[args[0]] },
		run: func(args []string, out, _ io.Writer) error {
			f.calls = append(f.calls, args[0])
			if args[0] == f.fail {
				return errors.New("boom")
			}
			for i, a := range args {
				if (a == "--out" || a == "--csv") && i+1 < len(args) {
					if err := os.WriteFile(args[i+1], []byte("x"), 0o644); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

func smallDemo(t *testing.T) demoOptions {
	o := demoDefaults()
	o.out = t.TempDir()
	o.games, o.evalGames, o.trainSteps = 4, 2, 5
	return o
}

func TestDemoRunsEveryStepInPipelineOrder(t *testing.T) {
	f := &fakeRunner{have: map[string]bool{"selfplay": true, "dataset": true, "train": true, "export": true, "eval": true}}
	o := smallDemo(t)
	var out bytes.Buffer
	require.NoError(t, runDemoWith(o, &out, f.runner()))
	assert.Equal(t, []string{"selfplay", "dataset", "train", "export", "eval"}, f.calls)
	p := demoLayout(o.out)
	for _, a := range []string{p.dataset, p.train, p.bot, p.eval} {
		assert.Contains(t, out.String(), a, "the summary names every artifact")
	}
	assert.Contains(t, out.String(), "$ container selfplay --agents valuer,shipper,manufacturer,valuer --games 4 --seed 1 --shard-games 1 --quiet")
	assert.NotContains(t, out.String(), "Skipped")
	// The command lines use the flag the README and the help use.
	assert.NotContains(t, out.String(), "--bots")
	assert.Contains(t, out.String(), "$ container eval --agents ")
}

// The demo plays one evaluation tournament, so --eval-games is its games, not games per pairing.
func TestDemoHelpDescribesOneTournament(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, Main([]string{"demo", "--help"}, strings.NewReader(""), &out, &errb))
	assert.NotContains(t, out.String(), "pairing")
	assert.Contains(t, out.String(), "games of the evaluation tournament")
}

func TestDemoSkipsMissingCommandsAndTheStepsThatNeedThem(t *testing.T) {
	f := &fakeRunner{have: map[string]bool{"selfplay": true, "dataset": true, "export": true, "eval": true}}
	var out bytes.Buffer
	require.NoError(t, runDemoWith(smallDemo(t), &out, f.runner()))
	// Without train there is no run to export and no bot to evaluate.
	assert.Equal(t, []string{"selfplay", "dataset"}, f.calls)
	assert.Contains(t, out.String(), "skipped: container train bc is not part of this build yet")
	assert.Contains(t, out.String(), "Skipped (not in this build yet): behaviour cloning; export the trained bot; evaluation against the scripted bots")
}

func TestDemoStrictFailsOnAMissingCommand(t *testing.T) {
	f := &fakeRunner{have: map[string]bool{"selfplay": true}}
	o := smallDemo(t)
	o.strict = true
	err := runDemoWith(o, io.Discard, f.runner())
	require.ErrorIs(t, err, ErrDemoStep)
	assert.Contains(t, err.Error(), "container dataset is not part of this build")
}

func TestDemoStopsAtAFailingStep(t *testing.T) {
	f := &fakeRunner{have: map[string]bool{"selfplay": true, "dataset": true, "train": true, "export": true, "eval": true}, fail: "train"}
	err := runDemoWith(smallDemo(t), io.Discard, f.runner())
	require.ErrorIs(t, err, ErrDemoStep)
	assert.Contains(t, err.Error(), "behaviour cloning: boom")
	assert.Equal(t, []string{"selfplay", "dataset", "train"}, f.calls)
}

func TestDemoFailsWhenAStepWritesNoArtifact(t *testing.T) {
	r := demoRunner{has: func([]string) bool { return true }, run: func([]string, io.Writer, io.Writer) error { return nil }}
	err := runDemoWith(smallDemo(t), io.Discard, r)
	require.ErrorIs(t, err, ErrDemoStep)
	assert.Contains(t, err.Error(), "did not write")
}

func TestDemoRejectsBadSizes(t *testing.T) {
	for _, edit := range []func(*demoOptions){
		func(o *demoOptions) { o.games = 0 },
		func(o *demoOptions) { o.evalGames = -1 },
		func(o *demoOptions) { o.trainSteps = 0 },
		func(o *demoOptions) { o.out = "" },
	} {
		o := smallDemo(t)
		edit(&o)
		err := runDemoWith(o, io.Discard, (&fakeRunner{}).runner())
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), "demo: "), err.Error())
	}
}

func TestDemoCommandBadFlagIsOneLine(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 1, Main([]string{"demo", "--games", "many"}, strings.NewReader(""), &out, &errOut))
	assert.Equal(t, 1, strings.Count(errOut.String(), "\n"), errOut.String())
}

// TestDemoEndToEnd runs the real pipeline on tiny sizes once every command exists.
func TestDemoEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole pipeline")
	}
	o := smallDemo(t)
	for _, s := range demoSteps(o) {
		if !hasCommand(s.args) {
			t.Skipf("container %s is not part of this build yet", s.args[0])
		}
	}
	requireEngine(t)
	o.strict = true
	var out bytes.Buffer
	require.NoError(t, runDemo(o, &out), lastLines(out.String(), 40))
	p := demoLayout(o.out)
	for _, a := range []string{p.dataset, p.train, p.bot, p.eval} {
		_, err := os.Stat(a)
		assert.NoError(t, err)
	}
}

func TestRootOffersShellCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		var out, errOut bytes.Buffer
		require.Equal(t, 0, Main([]string{"completion", shell}, strings.NewReader(""), &out, &errOut), errOut.String())
		assert.Contains(t, out.String(), "container", shell)
	}
}

func TestShellJoinQuotesWhatTheShellWouldSplit(t *testing.T) {
	assert.Equal(t, `eval --bots 'a b.bot,x' --csv 'it'\''s.csv'`,
		shellJoin([]string{"eval", "--bots", "a b.bot,x", "--csv", "it's.csv"}))
	assert.Equal(t, filepath.Join("runs", "demo"), demoDefaults().out)
}

func TestCommandDepthStopsAtFlagsAndPaths(t *testing.T) {
	assert.Equal(t, 2, commandDepth([]string{"train", "bc", "--data", "x"}))
	assert.Equal(t, 2, commandDepth([]string{"dataset", "stats", "runs/demo/dataset"}))
	assert.Equal(t, 1, commandDepth([]string{"selfplay", "--games", "3"}))
}

// TestDemoStepsUseTheCommandsRealFlags parses every step's command line with the real command
// (without running it), so a renamed flag breaks this test rather than the demo.
func TestDemoStepsUseTheCommandsRealFlags(t *testing.T) {
	for _, s := range demoSteps(demoDefaults()) {
		if !hasCommand(s.args) {
			t.Logf("container %s is not part of this build yet", s.args[0])
			continue
		}
		root := NewRoot()
		c, rest, err := root.Find(s.args)
		require.NoError(t, err)
		require.NoError(t, c.ParseFlags(rest), "container %s", shellJoin(s.args))
		if c.Args != nil {
			assert.NoError(t, c.Args(c, c.Flags().Args()), "container %s", shellJoin(s.args))
		}
	}
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
