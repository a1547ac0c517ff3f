package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bad flag values and a network made for other games stop train exit with one line on
// stderr and exit status 1, before anything is written.
func TestTrainExItBadInputIsOneLine(t *testing.T) {
	dir := t.TempDir()
	bot4p := filepath.Join(dir, "four.bot")
	f, err := training.DefaultBot()
	require.NoError(t, err)
	require.NoError(t, f.WriteFile(bot4p))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--sims", "0"}, "--sims 0"},
		{[]string{"--value-mix", "1.5"}, "--value-mix 1.5"},
		{[]string{"--rollout", "greedy"}, `--rollout "greedy": want one of random, manufacturer, shipper, valuer`},
		{[]string{"--gate-opponent", "nosuchbot"}, "nosuchbot"},
		{[]string{"--gate-opponent", "ismcts:sims=10,colour=red"}, `unknown key "colour"`},
		{[]string{"--window", "0"}, "--window 0"},
		{[]string{"--expert", "ismcts"}, "--sims and --expert both given"},
		{[]string{"--selfplay-turn-limit", "-3"}, "--selfplay-turn-limit -3"},
		{[]string{"--gate-turn-limit-share", "NaN"}, "--gate-turn-limit-share NaN"},
		{[]string{"--gate-opponent-drop", "1.5"}, "--gate-opponent-drop 1.5"},
		{[]string{"--gate-opponent-drop", "-0.1"}, "--gate-opponent-drop -0.1"},
		{[]string{"--gate-opponent-drop", "0.1", "--gate-opponent", ""}, "needs gating (gate every above 0) and a gate opponent"},
		{[]string{"--players", "3", "--init", bot4p}, "4 players"},
		{[]string{"--league", "self"}, `league entry "self": want OPPONENT@WEIGHT`},
		{[]string{"--league", "past@0"}, "weight 0 outside (0, 1e6]"},
		{[]string{"--league", "self@1", "--league", "self@2"}, `league opponent "self" given twice`},
		{[]string{"--league", "nosuchbot@1"}, "nosuchbot"},
		{[]string{"--league", "ismcts:sims=0@1"}, "sims"},
	} {
		out := filepath.Join(dir, "run-"+strings.ReplaceAll(strings.Join(c.args, ""), "-", ""))
		args := append([]string{"train", "exit", "--out", out, "--generations", "1", "--games", "1", "--sims", "2",
			"--width", "8", "--depth", "1"}, c.args...)
		var stdout, stderr bytes.Buffer
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		assert.True(t, code == 1 && strings.Count(stderr.String(), "\n") == 1 && strings.Contains(stderr.String(), c.want),
			"%v: exit %d, stderr %q; want one line naming %q", c.args, code, stderr.String(), c.want)
		ents, _ := os.ReadDir(out)
		assert.Empty(t, ents, "%v: a refused start left %d entries in --out", c.args, len(ents))
	}
}

// The command runs a generation end to end: the buffer it writes is a dataset that
// container dataset stats reads (the search bot's spec as the agent), and the run's
// network is a bot file that evaluations accept.
func TestTrainExItWritesABufferThatDatasetStatsReads(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	out := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	code := Main([]string{"train", "exit", "--out", out, "--generations", "1", "--games", "2", "--shard-games", "1", "--sims", "3",
		"--width", "8", "--depth", "1", "--steps", "2", "--batch", "16", "--gate-every", "0", "--selfplay-turn-limit", "10"},
		strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "train exit: exit %d: %s", code, stderr.String())
	require.True(t, strings.Contains(stdout.String(), "done: 1 generations") && strings.Contains(stdout.String(), "nets/gen-000001.bot"),
		"train exit printed %q", stdout.String())
	stdout.Reset()
	code = Main([]string{"dataset", "stats", filepath.Join(out, "buffer", "gen-000001")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "dataset stats of the buffer: exit %d: %s", code, stderr.String())
	for _, want := range []string{"2 games", "turn-limit 2", "ismcts:sims=3,workers=1", "policy column over", "taken = top"} {
		assert.Contains(t, stdout.String(), want, "dataset stats lacks %q:\n%s", want, stdout.String())
	}
}

// A league run resumes only with the same league: a changed mix is refused in one line
// naming --league, and the same command continues the run.
func TestTrainExItResumeRefusesAChangedLeague(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"train", "exit", "--out", out, "--games", "2", "--shard-games", "1", "--sims", "3",
		"--width", "8", "--depth", "1", "--steps", "2", "--batch", "16", "--gate-every", "0", "--selfplay-turn-limit", "10",
		"--league", "self@1", "--league", "random@1"}
	var stdout, stderr bytes.Buffer
	code := Main(append(args, "--generations", "1"), strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "train exit: exit %d: %s", code, stderr.String())
	assert.Contains(t, stdout.String(), "CPU-seconds", "the generation's log line gives no CPU-seconds: %q", stdout.String())
	stderr.Reset()
	changed := append(slices.Clone(args[:len(args)-2]), "--league", "random@2", "--generations", "2")
	code = Main(changed, strings.NewReader(""), &stdout, &stderr)
	_, last, _ := strings.Cut(stderr.String(), "container: ")
	assert.True(t, code == 1 && strings.Count(last, "\n") == 1 && strings.Contains(last, "--league"),
		"resume with another league: exit %d, stderr %q; want one line naming --league", code, stderr.String())
	stderr.Reset()
	code = Main(append(args, "--generations", "2"), strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "resume with the same league: exit %d: %s", code, stderr.String())
}

// --gate-opponent-drop is recorded with the run: resuming with another value is one line
// naming the flag, resuming with the same one goes on.
func TestTrainExItResumeRefusesAnotherGateOpponentDrop(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"train", "exit", "--out", out, "--games", "2", "--shard-games", "1", "--sims", "3",
		"--width", "8", "--depth", "1", "--steps", "2", "--batch", "16", "--gate-every", "1", "--gate-games", "2",
		"--gate-opponent", "random", "--selfplay-turn-limit", "10"}
	var stdout, stderr bytes.Buffer
	code := Main(append(args, "--gate-opponent-drop", "0.1", "--generations", "1"), strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "train exit: exit %d: %s", code, stderr.String())
	assert.Contains(t, stdout.String(), "best (nets/gen-000000.bot) vs random: ",
		"the first gating did not measure generation 0 against the gate opponent")
	for _, drop := range []string{"0.2", "0"} {
		stderr.Reset()
		code := Main(append(slices.Clone(args), "--gate-opponent-drop", drop, "--generations", "2"), strings.NewReader(""), &stdout, &stderr)
		_, last, _ := strings.Cut(stderr.String(), "container: ")
		assert.True(t, code == 1 && strings.Count(last, "\n") == 1 && strings.Contains(last, "--gate-opponent-drop"),
			"resume with --gate-opponent-drop %s: exit %d, stderr %q; want one line naming the flag", drop, code, stderr.String())
	}
	stderr.Reset()
	code = Main(append(args, "--gate-opponent-drop", "0.1", "--generations", "2"), strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "resume with the same drop: exit %d: %s", code, stderr.String())
}

// Disk full during train exit's self-play (the next generation's shard files lead to
// /dev/full, which fails every write with ENOSPC) is one line, naming the disk-full write once.
func TestTrainExItSelfplayOnAFullDiskIsOneLine(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"train", "exit", "--out", out, "--games", "2", "--shard-games", "2", "--sims", "3",
		"--width", "8", "--depth", "1", "--steps", "2", "--batch", "16", "--gate-every", "0", "--selfplay-turn-limit", "10"}
	var stdout, stderr bytes.Buffer
	code := Main(append(args, "--generations", "1"), strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "train exit: exit %d: %s", code, stderr.String())
	gen1, gen2 := filepath.Join(out, "buffer", "gen-000001"), filepath.Join(out, "buffer", "gen-000002")
	require.NoError(t, os.Mkdir(gen2, 0o755))
	marker, err := os.ReadFile(filepath.Join(gen1, rundir.MarkerName))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(gen2, rundir.MarkerName), marker, 0o644))
	for _, name := range []string{"steps-00000.arrow.tmp", "games-00000.arrow.tmp"} {
		require.NoError(t, os.Symlink("/dev/full", filepath.Join(gen2, name)))
	}
	stderr.Reset()
	code = Main(append(args, "--generations", "2"), strings.NewReader(""), &stdout, &stderr)
	msg := stderr.String() // the progress bar, then the error
	_, last, _ := strings.Cut(msg, "container: ")
	require.True(t, code == 1 && strings.Count(last, "\n") == 1 && strings.HasSuffix(last, "\n") && strings.Count(msg, "no space left on device") == 1,
		"exit %d, stderr %q; want one line naming the full disk once", code, msg)
}
