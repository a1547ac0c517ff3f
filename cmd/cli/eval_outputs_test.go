package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
