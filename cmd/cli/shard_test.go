package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/stretchr/testify/require"
)

// TestCLIProcess is not a test: the multi-process tests run the test binary with
// CONTAINER_CLI_PROCESS=1 and the command line after "--", so each shard is a separate
// process running the real command line, without building a binary.
func TestCLIProcess(t *testing.T) {
	if os.Getenv("CONTAINER_CLI_PROCESS") != "1" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(Main(args, os.Stdin, os.Stdout, os.Stderr))
}

// cliProcess prepares the container command line args as a separate process in dir.
func cliProcess(t *testing.T, dir string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestCLIProcess$", "--"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CONTAINER_CLI_PROCESS=1"), env...)
	return cmd
}

// runCLI runs one process and returns its standard output.
func runCLI(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := cliProcess(t, dir, env, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "container %s: %s", strings.Join(args, " "), stderr.String())
	return string(out)
}

// runAll runs the processes at once, as a cluster scheduler would.
func runAll(t *testing.T, cmds []*exec.Cmd) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(cmds))
	outs := make([][]byte, len(cmds))
	for i, c := range cmds {
		wg.Add(1)
		go func() { defer wg.Done(); outs[i], errs[i] = c.CombinedOutput() }()
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "%s: %s", strings.Join(cmds[i].Args, " "), outs[i])
	}
}

func TestParseShard(t *testing.T) {
	for _, v := range shardIndexVars {
		t.Setenv(v, "")
	}
	i, n, err := parseShard("2/3")
	require.NoError(t, err)
	require.Equal(t, [2]int{2, 3}, [2]int{i, n})
	for in, want := range map[string]string{
		"3/2":         "--shard 3/2: the index must be 0 to 1",
		"0/0":         "--shard 0/0: the shard count must be at least 1",
		"-1/4":        "the index must be 0 to 3",
		"3":           "want I/N",
		"a/3":         `the index "a" is not a number`,
		"1/x":         `the shard count "x" is not a number`,
		"0/999999999": "at most",
		"auto/4":      "--shard auto/4: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm job array) is set",
	} {
		_, _, err := parseShard(in)
		require.ErrorContains(t, err, want, in)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "3")
	i, n, err = parseShard("auto/4")
	require.NoError(t, err)
	require.Equal(t, [2]int{3, 4}, [2]int{i, n})
	_, _, err = parseShard("auto/3")
	require.ErrorContains(t, err, "SLURM_ARRAY_TASK_ID=3 is outside 0 to 2")
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	_, _, err = parseShard("auto/4")
	require.ErrorContains(t, err, "JOB_COMPLETION_INDEX=1 and SLURM_ARRAY_TASK_ID=3 disagree")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	i, _, err = parseShard("auto/4")
	require.NoError(t, err)
	require.Equal(t, 1, i)
	t.Setenv("JOB_COMPLETION_INDEX", "one")
	_, _, err = parseShard("auto/4")
	require.ErrorContains(t, err, `JOB_COMPLETION_INDEX="one" is not a number`)
}

func TestShardFlagErrorsLoseNothing(t *testing.T) {
	dir := t.TempDir()
	o := smallSelfplay(filepath.Join(dir, "ds"))
	o.shard = "3/2"
	err := runSelfplay(context.Background(), o, &bytes.Buffer{})
	require.ErrorIs(t, err, ErrSelfplayOptions)
	require.ErrorContains(t, err, "--shard 3/2: the index must be 0 to 1")
	_, err = os.Stat(o.out)
	require.ErrorIs(t, err, os.ErrNotExist, "nothing is created")

	e := smallEval("valuer,random")
	e.shard = "0/2"
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "--shard needs --out")
	// A results file of another tournament is not replaced.
	e.out = filepath.Join(dir, "res")
	require.NoError(t, runEval(context.Background(), e, &bytes.Buffer{}))
	e.seed++
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "holds another tournament's results (seed 3, not 4)")
	// Something that is not a results file is not replaced either.
	path := filepath.Join(e.out, "results-shard-00001-of-00002.json")
	require.NoError(t, os.WriteFile(path, []byte("notes"), 0o644))
	e.seed, e.shard = 3, "1/2"
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "is not a results file")
	b, _ := os.ReadFile(path)
	require.Equal(t, "notes", string(b))
	// Merging one shard of two names the missing games.
	require.NoError(t, os.Remove(path))
	m := evalOptions{tourneyOptions: tourneyOptions{shardOptions: shardOptions{merge: true, mergeFrom: []string{e.out}}}}
	require.ErrorContains(t, runEval(context.Background(), m, &bytes.Buffer{}), "4 of 8 games missing: games [4,8): no file named holds them")

	// --merge refuses the flags that describe a tournament.
	root := NewRoot()
	root.SetArgs([]string{"rate", "--merge", "--seed", "3", e.out})
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&bytes.Buffer{})
	require.ErrorContains(t, root.Execute(), "drop --seed")
}

// One run and three shards, each a separate process running at once, give the same
// dataset (every game and step record), the same stats JSON, the same eval table and JSON,
// the same ratings and the same saved game records.
func TestShardsInSeparateProcessesMergeToOneRun(t *testing.T) {
	dir := t.TempDir()
	sp := []string{"selfplay", "--agents", "random,valuer,shipper", "--games", "10", "--shard-games", "3", "--seed", "5", "-q", "--workers", "1"}
	ev := []string{"--agents", "valuer,shipper,manufacturer,random", "--games", "12", "--seed", "4", "--length", "short", "--turn-limit", "150", "--workers", "1"}
	runAll(t, []*exec.Cmd{
		cliProcess(t, dir, nil, append(sp, "--out", "one")...),
		cliProcess(t, dir, nil, append(sp, "--out", "big", "--shard", "0/3")...),
		cliProcess(t, dir, []string{"SLURM_ARRAY_TASK_ID=1"}, append(sp, "--out", "big", "--shard", "auto/3")...),
		cliProcess(t, dir, []string{"JOB_COMPLETION_INDEX=2"}, append(sp, "--out", "big", "--shard", "auto/3")...),
		cliProcess(t, dir, nil, append(append([]string{"eval"}, ev...), "--save", "games-one", "--json")...),
		cliProcess(t, dir, nil, append(append([]string{"eval"}, ev...), "--shard", "0/3", "--out", "res", "--save", "games-sharded")...),
		cliProcess(t, dir, nil, append(append([]string{"eval"}, ev...), "--shard", "1/3", "--out", "res", "--save", "games-sharded")...),
		cliProcess(t, dir, nil, append(append([]string{"rate"}, ev...), "--shard", "2/3", "--out", "res")...),
	})
	parts, err := filepath.Glob(filepath.Join(dir, "big", "shard-*"))
	require.NoError(t, err)
	require.Len(t, parts, 3)
	runCLI(t, dir, nil, append([]string{"dataset", "merge", "big"}, parts...)...)

	require.Equal(t, runCLI(t, dir, nil, "dataset", "stats", "--json", "one"), runCLI(t, dir, nil, "dataset", "stats", "--json", "big"))
	g1, s1 := datasetContent(t, filepath.Join(dir, "one"))
	g2, s2 := datasetContent(t, filepath.Join(dir, "big"))
	require.Equal(t, g1, g2)
	require.Equal(t, s1, s2)

	require.Equal(t, runCLI(t, dir, nil, append([]string{"eval"}, ev...)...), runCLI(t, dir, nil, "eval", "--merge", "res"))
	require.Equal(t, runCLI(t, dir, nil, append(append([]string{"eval"}, ev...), "--json")...), runCLI(t, dir, nil, "eval", "--merge", "--json", "res"))
	require.Equal(t, runCLI(t, dir, nil, append([]string{"rate"}, ev...)...), runCLI(t, dir, nil, "rate", "--merge", "res"))
	one, err := filepath.Glob(filepath.Join(dir, "games-one", "game-*.json")) // besides the directory's marker and lock
	require.NoError(t, err)
	require.Len(t, one, 12)
	for _, path := range one[:8] { // the rate shard (games 8-11) saved none
		a, err := os.ReadFile(path)
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dir, "games-sharded", filepath.Base(path)))
		require.NoError(t, err)
		require.Equal(t, a, b, filepath.Base(path))
	}
}

// datasetContent reads every game (duration zeroed: the one wall-clock column) and step.
func datasetContent(t *testing.T, dir string) ([]datasets.Game, []datasets.Step) {
	t.Helper()
	ds, err := datasets.Open(dir)
	require.NoError(t, err)
	var games []datasets.Game
	for g, err := range ds.Games() {
		require.NoError(t, err)
		g.Duration = 0
		games = append(games, *g)
	}
	var steps []datasets.Step
	for c, err := range ds.StepBatches() {
		require.NoError(t, err)
		for i := 0; i < c.Len(); i++ {
			var s datasets.Step
			c.Row(i, &s)
			s.Obs = append([]float32{}, s.Obs...)
			s.Returns = append([]float32{}, s.Returns...)
			s.Legal = append([]int{}, s.Legal...)
			steps = append(steps, s)
		}
	}
	return games, steps
}

func TestInterruptedTournamentShardIsNamedAndRerun(t *testing.T) {
	dir := t.TempDir()
	e := smallEval("valuer,random")
	e.out = dir
	for i := range 2 {
		e.shard = fmt.Sprintf("%d/2", i)
		ctx := context.Background()
		if i == 1 { // Ctrl-C before the shard's first game
			c, cancel := context.WithCancel(ctx)
			cancel()
			ctx = c
		}
		var note bytes.Buffer
		e.progress = &note
		err := runEval(ctx, e, &bytes.Buffer{})
		if i == 1 {
			require.ErrorIs(t, err, ErrInterrupted, "an interrupted shard exits 130")
			require.Contains(t, note.String(), "interrupted: 0 of 4 games written to")
		} else {
			require.NoError(t, err)
		}
	}
	m := evalOptions{tourneyOptions: tourneyOptions{shardOptions: shardOptions{merge: true, mergeFrom: []string{dir}}}}
	require.ErrorContains(t, runEval(context.Background(), m, &bytes.Buffer{}),
		"games [4,8): shard 1/2 in "+filepath.Join(dir, "results-shard-00001-of-00002.json")+" was interrupted after 0 of 4 games (run it again)")
	e.progress = nil
	require.NoError(t, runEval(context.Background(), e, &bytes.Buffer{}), "the rerun replaces its own file")
	// A rerun interrupted before it has as many games does not replace the complete file.
	path := filepath.Join(dir, "results-shard-00001-of-00002.json")
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	c, cancel := context.WithCancel(context.Background())
	cancel()
	var note bytes.Buffer
	e.progress = &note
	require.ErrorIs(t, runEval(c, e, &bytes.Buffer{}), ErrInterrupted)
	require.Contains(t, note.String(), "interrupted: 0 of 4 games played; kept "+path+", which holds 4")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, before, after, "the complete results file is untouched")
	e.progress = nil
	var merged, one bytes.Buffer
	require.NoError(t, runEval(context.Background(), m, &merged))
	require.NoError(t, runEval(context.Background(), smallEval("valuer,random"), &one))
	require.Equal(t, one.String(), merged.String())
}
