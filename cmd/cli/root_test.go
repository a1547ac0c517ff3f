package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/container-rl/container/internal/version"
	"github.com/container-rl/container/training"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --version prints the toolkit's one version (internal/version), the one datasets record.
func TestVersionFlagPrintsTheToolkitVersion(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"--version"}, strings.NewReader(""), &out, &errb)
	require.True(t, code == 0, "exit %d: %s", code, errb.String())
	want := "container version " + version.Version + "\n"
	assert.True(t, out.String() == want, "--version printed %q, want %q", out.String(), want)
	assert.True(t, Version == version.Version, "cli.Version %q, internal/version %q", Version, version.Version)
}

// terminalRunes are what an error line must not hold raw: control characters and the
// bidirectional overrides and isolates.
var terminalRunes = regexp.MustCompile("[\x00-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]")

// A file name holding an escape sequence, a bell, a delete, a right-to-left override or a
// newline reaches the error line escaped as strconv.Quote writes it, whichever command reads
// the file: the line is one line with nothing a terminal would act on, and the name can be
// read back from it (a newline in it is \n, not the "; " between two errors).
func TestErrorLineEscapesControlCharactersInFileNames(t *testing.T) {
	for _, name := range []struct{ raw, shown string }{
		{"\x1b[31mred.json", `\x1b[31mred.json`},
		{"bell\a.json", `bell\a.json`},
		{"del\x7f.json", `del\x7f.json`},
		{"\u202eevil.json", `\u202eevil.json`},
		{"a\nb.json", `a\nb.json`},
		{"a\rb.json", `a\rb.json`},
		{"tab\there.json", `tab\there.json`},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, name.raw)
		garbage := filepath.Join(t.TempDir(), name.raw)
		require.NoError(t, os.WriteFile(garbage, []byte("{garbage"), 0o644))
		for _, args := range [][]string{
			{"legal", p},
			{"score", garbage},
			{"replay", p},
			{"dataset", "stats", p},
			{"eval", "--merge", p},
			{"rate", "--merge", p},
			{"export", "--run", p, "--out", filepath.Join(dir, "o.bot")},
			{"train", "bc", "--data", p, "--out", filepath.Join(dir, "o")},
			{"train", "bc", "--data=" + p, "--out", filepath.Join(dir, "o")},
		} {
			var out, errb bytes.Buffer
			code := Main(args, strings.NewReader(""), &out, &errb)
			line := errb.String()
			assert.Equal(t, 1, code, "%q: %s", args, line)
			if assert.True(t, strings.HasSuffix(line, "\n"), "%q: %q", args, line) {
				line = strings.TrimSuffix(line, "\n")
			}
			assert.NotContains(t, line, "\n", "%q: more than one line", args)
			assert.True(t, strings.HasPrefix(line, "container: "), "%q: %q", args, line)
			assert.False(t, terminalRunes.MatchString(line), "%q: %q holds a control character", args, line)
			assert.Contains(t, line, name.shown, "%q: %q does not name the file", args, line)
		}
	}
}

// escapeControls escapes control characters, bidirectional controls and bytes that are not
// UTF-8, as strconv.Quote does, and leaves every other rune (quotes, backslashes, accented
// and non-Latin letters, emoji) as it is.
func TestEscapeControlsLeavesOrdinaryTextAlone(t *testing.T) {
	for in, want := range map[string]string{
		"open välü.json: no such file":  "open välü.json: no such file",
		`"quoted" and \ back`:           `"quoted" and \ back`,
		"Ελληνικά 日本語 👍":                "Ελληνικά 日本語 👍",
		"\x1b[31mred":                   `\x1b[31mred`,
		"nul\x00 bell\a bs\b del\x7f":   `nul\x00 bell\a bs\b del\x7f`,
		"c1\u0085 csi\u009b":            `c1\u0085 csi\u009b`,
		"\u202eevil \u2066iso\u2069":    `\u202eevil \u2066iso\u2069`,
		"lrm\u200e rlm\u200f alm\u061c": `lrm\u200e rlm\u200f alm\u061c`,
		"ls\u2028ps\u2029":              `ls\u2028ps\u2029`,
		"bad \xff\xfe utf-8":            `bad \xff\xfe utf-8`,
		"":                              "",
	} {
		assert.Equal(t, want, escapeControls(in), "%q", in)
	}
}

// An argument holding a newline is escaped before the lines of an error are joined, so a
// joined error still reads as two errors and the name as one name; an argument made only of
// control characters is left to the final escaping (it would otherwise swallow the joins).
func TestErrorLineKeepsJoinsAndEscapesArguments(t *testing.T) {
	root := NewRoot()
	msg := "first: open a\nb.json: missing\nsecond: failed"
	err := errors.New(msg)
	assert.Equal(t, `first: open a\nb.json: missing; second: failed`, errorLine(root, err, []string{"legal", "a\nb.json"}))
	assert.Equal(t, `first: open a\nb.json: missing; second: failed`, errorLine(root, err, []string{"--file=a\nb.json"}))
	assert.Equal(t, "first: open a; b.json: missing; second: failed", errorLine(root, err, []string{"legal", "\n"}))
}

// mainError runs the command line and returns its exit status and standard error.
func mainError(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, errb.String()
}

// rate's errors name rate, also those of the tournament code it shares with eval.
func TestRateErrorsNameRate(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("mine"), 0o644))
	for _, args := range [][]string{
		{"rate", "--merge", filepath.Join(t.TempDir(), "nosuch.json")},
		{"rate", "--merge"},
		{"rate", "--upgrade-results"},
		{"rate", "--agents", "random,valuer", "--games", "0"},
		{"rate", "--agents", "random,valuer", "--games", "2", "--shard", "0/1", "--out", notes},
	} {
		code, line := mainError(args...)
		assert.Equal(t, 1, code, "%q", args)
		assert.True(t, strings.HasPrefix(line, "container: rate: "), "%q: %q", args, line)
		assert.NotContains(t, line, "eval", "%q", args)
	}
	code, line := mainError("eval", "--merge")
	assert.Equal(t, 1, code)
	assert.True(t, strings.HasPrefix(line, "container: eval: "), "%q", line)
}

// Giving a flag and its alias names the command once.
func TestAliasConflictNamesTheCommandOnce(t *testing.T) {
	for cmd, want := range map[string]string{
		"eval":     "container: eval: give --agents or its alias --bots, not both\n",
		"rate":     "container: rate: give --agents or its alias --bots, not both\n",
		"selfplay": "container: selfplay: give --agents or its alias --bots, not both\n",
	} {
		code, line := mainError(cmd, "--agents", "random", "--bots", "random", "--games", "2")
		assert.Equal(t, 1, code, cmd)
		assert.Equal(t, want, line, cmd)
	}
}

// An --out for results under a regular file is refused naming that file, not as a results
// file that "exists".
func TestResultsOutUnderAFileNamesTheFile(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("mine"), 0o644))
	for _, cmd := range []string{"eval", "rate"} {
		code, line := mainError(cmd, "--agents", "random", "--games", "2", "--shard", "0/1", "--out", filepath.Join(notes, "sub"))
		assert.Equal(t, 1, code, cmd)
		assert.Contains(t, line, notes+" is a file, not a directory", cmd)
		assert.NotContains(t, line, "exists", cmd)
	}
	b, err := os.ReadFile(notes)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(b))
}

// Main prints every error on one line: the lines of a joined error are joined with "; ".
func TestJoinedErrorsAreOneLine(t *testing.T) {
	err := errors.Join(errors.New("eval: --save: disk full"), errors.New("eval: writing x.csv: disk full"))
	got, want := oneLine(err.Error()), "eval: --save: disk full; eval: writing x.csv: disk full"
	require.True(t, got == want, "%q, want %q", got, want)
	got = oneLine("one\r\n\ntwo\n")
	require.True(t, got == "one; two", "%q", got)
}

// "container help TOPIC" with a topic that names no command is an error like any other bad
// input: one line on standard error (with a suggestion when one is near), nothing on
// standard output, exit 1. A known topic still prints that command's help and exits 0.
func TestHelpWithAnUnknownTopicIsOneErrorLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "nosuch"}, `container: help: unknown help topic "nosuch"; see container help`},
		{[]string{"help", "evall"}, `container: help: unknown help topic "evall"; did you mean "eval"?`},
		{[]string{"help", "train", "bcc"}, `container: help: unknown help topic "train bcc"; did you mean "train bc"?`},
		{[]string{"help", "train", "nosuch"}, `container: help: unknown help topic "train nosuch"; see container help train`},
		{[]string{"help", "eval", "extra"}, `container: help: unknown help topic "eval extra"; see container help eval`},
		{[]string{"help", "\x1b[31mred"}, `container: help: unknown help topic "\x1b[31mred"; see container help`},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		assert.Equal(t, 1, code, "%q", c.args)
		assert.Equal(t, c.want+"\n", errb.String(), "%q", c.args)
		assert.Zero(t, out.Len(), "%q: standard output %q", c.args, out.String())
	}
	for _, args := range [][]string{{"help"}, {"help", "eval"}, {"help", "train", "bc"}, {"help", "help"}} {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		assert.Equal(t, 0, code, "%q: %s", args, errb.String())
		assert.Contains(t, out.String(), "Usage:", "%q", args)
		assert.Zero(t, errb.Len(), "%q", args)
	}
}

// An unknown command is one line with the suggestion folded in, and an error (exit 1) also
// under a command that only groups others.
func TestUnknownCommandIsOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"evall"}, `container: unknown command "evall"; did you mean "eval"?`},
		{[]string{"zzzz"}, `container: unknown command "zzzz"; see container --help`},
		{[]string{"train", "bcc"}, `container: unknown command "bcc" for "container train"; did you mean "bc"?`},
		{[]string{"dataset", "stat"}, `container: unknown command "stat" for "container dataset"; did you mean "stats"?`},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		assert.False(t, code != 1 || errb.String() != c.want+"\n" || out.Len() != 0, "%v: exit %d, stderr %q, stdout %d bytes; want exit 1 and %q", c.args, code, errb.String(), out.Len(), c.want)
	}
	var out, errb bytes.Buffer
	code := Main([]string{"train"}, strings.NewReader(""), &out, &errb)
	assert.False(t, code != 0 || !strings.Contains(out.String(), "Available Commands"), "container train: exit %d, %q", code, errb.String())
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

func runMain(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
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
