package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
