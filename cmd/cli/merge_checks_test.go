package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/eval"
	"github.com/stretchr/testify/require"
)

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
