package selfplay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/stretchr/testify/require"
)

// TestMergeCopyRefusesBeforeCopyingAnything checks that a merge --copy refused because a
// later part's file is truncated, or because the user's own file sits where a later copy
// would go, leaves the output directory as it found it: no copy of the earlier parts' files.
func TestMergeCopyRefusesBeforeCopyingAnything(t *testing.T) {
	root := t.TempDir()
	dirs := runParts(t, root, 6, 3, datasets.Arrow)
	m, err := datasets.ReadManifest(dirs[2])
	require.NoError(t, err)
	names := func(dir string) []string {
		ents, err := os.ReadDir(dir)
		require.NoError(t, err)
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}

	// The user's file where part c's steps file would be copied.
	out := filepath.Join(root, "user")
	require.NoError(t, os.MkdirAll(out, 0o755))
	mine := filepath.Join(out, m.Shards[0].StepsFile)
	require.NoError(t, os.WriteFile(mine, []byte("my own notes"), 0o644))
	_, err = datasets.Merge(out, dirs, datasets.MergeOptions{Copy: true})
	require.ErrorContains(t, err, "exists and is not a copy")
	require.Equal(t, []string{m.Shards[0].StepsFile}, names(out), "nothing copied before the refusal")
	b, err := os.ReadFile(mine)
	require.NoError(t, err)
	require.Equal(t, "my own notes", string(b))

	// A truncated file in the last part.
	out2 := filepath.Join(root, "fresh")
	path := filepath.Join(dirs[2], m.Shards[0].GamesFile)
	orig, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, orig[:len(orig)/2], 0o644))
	_, err = datasets.Merge(out2, dirs, datasets.MergeOptions{Copy: true})
	require.ErrorContains(t, err, "truncated or overwritten")
	_, err = os.Stat(out2)
	require.ErrorIs(t, err, os.ErrNotExist, "the output directory is not even created")

	// A file where the output directory should be is named as such and left alone.
	file := filepath.Join(root, "notes.txt")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	_, err = datasets.Merge(file, dirs, datasets.MergeOptions{Copy: true})
	require.ErrorContains(t, err, "notes.txt is a file, not a directory")
	// ... and as a part, or anywhere a dataset is read.
	_, err = datasets.Merge(filepath.Join(root, "m"), []string{file}, datasets.MergeOptions{Copy: true})
	require.ErrorContains(t, err, "notes.txt is a file, not a dataset directory")
}
