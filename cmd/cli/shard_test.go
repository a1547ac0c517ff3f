package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/container-rl/container/env/eval"
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

// TestEvalShardRerunWithDefaultTurnLimit checks that running the same eval shard again into
// the same --out replaces its own results file when --turn-limit is left at its default (0):
// the file records the settled limit (1000), and the rerun was refused as "another tournament".
func TestEvalShardRerunWithDefaultTurnLimit(t *testing.T) {
	e := smallEval("random,random,random")
	e.games, e.turnLimit, e.shard, e.out = 2, 0, "0/2", filepath.Join(t.TempDir(), "res")
	require.NoError(t, runEval(context.Background(), e, &bytes.Buffer{}))
	require.NoError(t, runEval(context.Background(), e, &bytes.Buffer{}), "a rerun of the same shard")
	e.seed++
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "holds another tournament's results (seed 3, not 4)")
}

// TestShardOutThatIsAFile checks that eval, rate and selfplay given an --out that is a file
// say so in one line (eval said the results file "exists and is not a results file") and
// leave the file alone.
func TestShardOutThatIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(file, []byte("mine"), 0o644))
	e := smallEval("random,random,random")
	e.games, e.out = 2, file
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "--out "+file+" is a file, not a directory")
	e.shard = "1/2"
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "--out "+file+" is a file, not a directory")
	o := smallSelfplay(file)
	o.shard = "0/2"
	require.ErrorContains(t, runSelfplay(context.Background(), o, &bytes.Buffer{}), "--out "+file+" is a file, not a directory")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, "mine", string(b))
}

// --shard I/N with N above the documented maximum is refused in one line.
func TestShardCountAboveTheMaximumIsRefused(t *testing.T) {
	_, n, err := parseShard("0/1000000")
	require.NoError(t, err)
	require.Equal(t, 1_000_000, n)
	for _, s := range []string{"0/1000001", "5/1048576"} {
		_, _, err := parseShard(s)
		require.ErrorContains(t, err, "at most 1000000", s)
	}
	code, _, stderr := runMain("selfplay", "--agents", "random", "--games", "3", "--shard", "0/1000001", "--out", filepath.Join(t.TempDir(), "x"))
	require.Equal(t, 1, code)
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	require.Contains(t, stderr, "at most 1000000")
}

// partSizes is the number of games each of n parts holds with shards of size games.
func partSizes(games, size, n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, partGames(games, size, &datasets.Part{Index: i, Count: n}))
	}
	return out
}

// Without --shard-games, N parts share the games evenly: no part is empty while there are
// games for it, the parts differ by at most one shard, shards stay within the default size,
// and large runs keep the default size.
func TestEvenShardGamesSplitsTheGamesEvenly(t *testing.T) {
	def := selfplay.DefaultGamesPerShard
	require.Equal(t, []int{10, 10, 10}, partSizes(30, evenShardGames(30, 3, def), 3))
	require.Equal(t, []int{334, 334, 332}, partSizes(1000, evenShardGames(1000, 3, def), 3))
	require.Equal(t, def, evenShardGames(1_000_000, 8, def))
	for games := 1; games <= 600; games += 7 {
		for _, n := range []int{1, 2, 3, 4, 7, 8, 16, 100} {
			size := evenShardGames(games, n, def)
			require.True(t, size >= 1 && size <= def, "games %d, %d parts: size %d", games, n, size)
			sizes := partSizes(games, size, n)
			lo, hi, sum := sizes[0], sizes[0], 0
			for _, s := range sizes {
				lo, hi, sum = min(lo, s), max(hi, s), sum+s
			}
			require.Equal(t, games, sum)
			if games >= n {
				require.Positive(t, lo, "games %d, %d parts (size %d): %v", games, n, size, sizes)
			}
			require.LessOrEqual(t, hi-lo, size, "games %d, %d parts (size %d): %v", games, n, size, sizes)
		}
	}
}

// selfplay --games 12 --shard I/3 without --shard-games gives every part 4 games, and the
// merged parts hold exactly the games and steps of one run with the default shard size.
func TestSelfplayShardsShareTheGamesAndMergeToOneRun(t *testing.T) {
	dir := t.TempDir()
	one := smallSelfplay(filepath.Join(dir, "one"))
	one.games, one.shardGames = 12, selfplay.DefaultGamesPerShard
	require.NoError(t, runSelfplay(context.Background(), one, &bytes.Buffer{}))
	var parts []string
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		o := one
		o.out, o.shard, o.evenShards = filepath.Join(dir, "big"), s, true
		var out bytes.Buffer
		require.NoError(t, runSelfplay(context.Background(), o, &out))
		require.Contains(t, out.String(), ": 4 of 12 games", s)
		m, err := datasets.ReadManifest(filepath.Join(dir, "big", shardName(int(s[0]-'0'), 3)))
		require.NoError(t, err)
		games, _ := m.GamesDone()
		require.Equal(t, 4, games, s)
		parts = append(parts, filepath.Join(dir, "big", shardName(int(s[0]-'0'), 3)))
	}
	code, _, stderr := runMain(append([]string{"dataset", "merge", filepath.Join(dir, "big")}, parts...)...)
	require.Equal(t, 0, code, stderr)
	g1, s1 := datasetContent(t, one.out)
	g2, s2 := datasetContent(t, filepath.Join(dir, "big"))
	require.Equal(t, g1, g2)
	require.Equal(t, s1, s2)
}

// shardedEval plays smallEval as two shards into dir and returns the merge options.
func shardedEval(t *testing.T, dir string) evalOptions {
	t.Helper()
	e := smallEval("valuer,random")
	e.out = dir
	for i := range 2 {
		e.shard = fmt.Sprintf("%d/2", i)
		require.NoError(t, runEval(context.Background(), e, &bytes.Buffer{}))
	}
	return evalOptions{tourneyOptions: tourneyOptions{shardOptions: shardOptions{merge: true, mergeFrom: []string{dir}}}}
}

// editResults rewrites one results file through change (the file as plain JSON).
func editResults(t *testing.T, path string, change func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	change(m)
	b, err = json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

func gameScores(m map[string]any, g int) []any {
	return m["results"].([]any)[g].(map[string]any)["scores"].([]any)
}

// An edited results file (a total raised by 900, a winner flag moved) is refused in one line
// that names it, and the table is not printed.
func TestMerge_RefusesEditedResultsFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(m map[string]any)
	}{
		{"a total raised by 900", func(m map[string]any) {
			s := gameScores(m, 1)[0].(map[string]any)
			n, _ := s["total"].(json.Number).Int64()
			s["total"] = json.Number(fmt.Sprint(n + 900))
		}},
		{"the winner flag moved", func(m map[string]any) {
			for _, s := range gameScores(m, 0) {
				s.(map[string]any)["winner"] = !s.(map[string]any)["winner"].(bool)
			}
		}},
	} {
		dir := t.TempDir()
		m := shardedEval(t, dir)
		path := filepath.Join(dir, "results-shard-00001-of-00002.json")
		editResults(t, path, tc.change)
		var out bytes.Buffer
		err := runEval(context.Background(), m, &out)
		require.Error(t, err, tc.name)
		require.ErrorIs(t, err, eval.ErrMerge, tc.name)
		require.Contains(t, err.Error(), path, tc.name)
		require.NotContains(t, err.Error(), "\n", tc.name)
		require.Empty(t, out.String(), tc.name)
	}
}

// A results file written before results files carried a checksum is refused with the way
// out; --upgrade-results checks it, adds the checksum in place and merges; an edited old
// file is not upgraded and stays as it was.
func TestMerge_UpgradesOldResultsFilesOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	m := shardedEval(t, dir)
	var want bytes.Buffer
	require.NoError(t, runEval(context.Background(), m, &want))
	paths, _ := filepath.Glob(filepath.Join(dir, "results-shard-*.json"))
	require.Len(t, paths, 2)
	for _, p := range paths {
		editResults(t, p, func(m map[string]any) { m["format"] = eval.ResultsFormatV1; delete(m, "checksum") })
	}
	require.ErrorContains(t, runEval(context.Background(), m, &bytes.Buffer{}), "--upgrade-results")

	// One old file edited: nothing is upgraded.
	clean1, _ := os.ReadFile(paths[1])
	editResults(t, paths[1], func(m map[string]any) {
		for _, s := range gameScores(m, 0) {
			s.(map[string]any)["rank"] = json.Number("1")
		}
	})
	before0, _ := os.ReadFile(paths[0])
	before1, _ := os.ReadFile(paths[1])
	up := m
	up.upgrade = true
	err := runEval(context.Background(), up, &bytes.Buffer{})
	require.ErrorContains(t, err, paths[1])
	require.ErrorContains(t, err, "rank")
	after0, _ := os.ReadFile(paths[0])
	after1, _ := os.ReadFile(paths[1])
	require.Equal(t, before0, after0, "no file is upgraded when one fails")
	require.Equal(t, before1, after1)
	require.NoError(t, os.WriteFile(paths[1], clean1, 0o644))

	// A link among the files: it is not followed, and no file is upgraded.
	real := filepath.Join(t.TempDir(), "real.json")
	require.NoError(t, os.WriteFile(real, clean1, 0o644))
	require.NoError(t, os.Remove(paths[1]))
	require.NoError(t, os.Symlink(real, paths[1]))
	require.ErrorContains(t, runEval(context.Background(), up, &bytes.Buffer{}), "not a regular file")
	after0, _ = os.ReadFile(paths[0])
	require.Equal(t, before0, after0, "no file is upgraded when one is a link")
	require.NoError(t, os.Remove(paths[1]))
	require.NoError(t, os.WriteFile(paths[1], clean1, 0o644))

	var note, got bytes.Buffer
	up.progress = &note
	require.NoError(t, runEval(context.Background(), up, &got))
	require.Equal(t, want.String(), got.String())
	require.Equal(t, 2, strings.Count(note.String(), "upgraded "), note.String())
	// Upgraded files merge without the flag.
	got.Reset()
	require.NoError(t, runEval(context.Background(), m, &got))
	require.Equal(t, want.String(), got.String())
}

// The results files committed under docs/results (whatever their directories are called)
// merge with this build.
func TestMerge_CommittedResultsStillMerge(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "results", "*", "results-shard-*.json"))
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[filepath.Dir(f)] = true
	}
	if len(dirs) == 0 {
		t.Skip("no results files committed under docs/results")
	}
	for d := range dirs {
		o := tourneyOptions{shardOptions: shardOptions{merge: true, mergeFrom: []string{d}}}
		var out bytes.Buffer
		require.NoError(t, runRate(context.Background(), o, &out), d)
		require.Contains(t, out.String(), "mu", d)
	}
}
