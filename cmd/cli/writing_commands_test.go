package cli

import (
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
