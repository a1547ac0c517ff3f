package selfplay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/stretchr/testify/require"
)

// runParts plays the test run as count parts into out/part-I and returns their directories.
func runParts(t *testing.T, out string, games, count int, f datasets.Format) []string {
	t.Helper()
	var dirs []string
	for i := 0; i < count; i++ {
		c := testConfig(t, filepath.Join(out, "part-"+string(rune('a'+i))), games, 2, f)
		c.Part = &datasets.Part{Index: i, Count: count}
		res, err := Run(context.Background(), c)
		require.NoError(t, err)
		require.True(t, res.Manifest.Complete())
		dirs = append(dirs, c.Out)
	}
	return dirs
}

func TestPartsPlayDisjointContiguousShardsCoveringTheRun(t *testing.T) {
	// 10 games in shards of 3 are 4 shards; 3 parts own 1, 1 and 2 of them.
	dirs := runParts(t, t.TempDir(), 10, 3, datasets.Arrow)
	var got [][2]uint64
	for _, d := range dirs {
		m, err := datasets.ReadManifest(d)
		require.NoError(t, err)
		first, end := m.OwnedGames()
		got = append(got, [2]uint64{first, end})
		for _, s := range m.Shards {
			require.GreaterOrEqual(t, s.FirstGame, first)
			require.LessOrEqual(t, s.FirstGame+uint64(s.Games), end)
		}
	}
	require.Equal(t, [][2]uint64{{0, 3}, {3, 6}, {6, 10}}, got)

	// More parts than shards: some parts are empty, but complete.
	for i, want := range []int{0, 0, 3, 0, 1} { // 4 games in 2 shards for 5 parts
		c := testConfig(t, t.TempDir(), 4, 1, datasets.Arrow)
		c.Part = &datasets.Part{Index: i, Count: 5}
		res, err := Run(context.Background(), c)
		require.NoError(t, err)
		require.Equal(t, want, res.Games, "part %d", i)
		require.True(t, res.Manifest.Complete())
	}
}

func TestMergedPartsEqualOneRun(t *testing.T) {
	formats := []datasets.Format{datasets.Arrow, datasets.Parquet}
	if testing.Short() {
		formats = formats[:1] // -short: Arrow only (the merge does not depend on the format)
	}
	for _, f := range formats {
		t.Run(string(f), func(t *testing.T) {
			one := t.TempDir()
			_, err := Run(context.Background(), testConfig(t, one, 7, 2, f))
			require.NoError(t, err)
			root := t.TempDir()
			dirs := runParts(t, root, 7, 3, f)

			// Manifest only: the parts are inside root.
			m, err := datasets.Merge(root, dirs, datasets.MergeOptions{})
			require.NoError(t, err)
			require.True(t, m.Complete())
			require.Equal(t, "part-a/steps-00000."+string(f), m.Shards[0].StepsFile)
			g1, s1 := content(t, one)
			g2, s2 := content(t, root)
			require.Equal(t, g1, g2)
			require.Equal(t, s1, s2)
			st1 := stats(t, one)
			require.Equal(t, st1, stats(t, root))

			// --copy: a standalone directory elsewhere.
			copied := t.TempDir()
			_, err = datasets.Merge(copied, dirs, datasets.MergeOptions{Copy: true})
			require.NoError(t, err)
			g3, s3 := content(t, copied)
			require.Equal(t, g1, g3)
			require.Equal(t, s1, s3)
			require.Equal(t, st1, stats(t, copied))
			// Merging again is allowed (it replaces its own manifest; the copies are kept).
			_, err = datasets.Merge(copied, dirs, datasets.MergeOptions{Copy: true})
			require.NoError(t, err)
		})
	}
}

func stats(t *testing.T, dir string) string {
	ds, err := datasets.Open(dir)
	require.NoError(t, err)
	st, err := ds.ComputeStats()
	require.NoError(t, err)
	b, err := json.Marshal(st)
	require.NoError(t, err)
	return string(b)
}

func TestMergeRefusesPartsThatDoNotMakeOneRun(t *testing.T) {
	root := t.TempDir()
	dirs := runParts(t, root, 10, 3, datasets.Arrow)
	merge := func(ds ...string) error {
		_, err := datasets.Merge(filepath.Join(root, "merged-check"), ds, datasets.MergeOptions{Copy: true})
		return err
	}

	// A missing part: its game range and shards are named.
	err := merge(dirs[0], dirs[2])
	require.ErrorIs(t, err, datasets.ErrMerge)
	require.ErrorContains(t, err, "games [3,6) (shard 1): no directory named holds them")

	// The same part twice, or one shard in two directories.
	require.ErrorContains(t, merge(dirs[0], dirs[1], dirs[2], dirs[1]), "named twice")
	whole := t.TempDir()
	_, err = Run(context.Background(), testConfig(t, whole, 10, 2, datasets.Arrow))
	require.NoError(t, err)
	require.ErrorContains(t, merge(dirs[0], whole), "shard 0 (games [0,3)) is in both")

	// A part of a run with another seed (or other settings).
	other := testConfig(t, filepath.Join(root, "other"), 10, 1, datasets.Arrow)
	other.Seed, other.Part = 12, &datasets.Part{Index: 1, Count: 3}
	_, err = Run(context.Background(), other)
	require.NoError(t, err)
	require.ErrorContains(t, merge(dirs[0], other.Out, dirs[2]), "seed 12, not 11")
	pq := testConfig(t, filepath.Join(root, "pq"), 10, 1, datasets.Parquet)
	pq.Part = &datasets.Part{Index: 1, Count: 3}
	_, err = Run(context.Background(), pq)
	require.NoError(t, err)
	require.ErrorContains(t, merge(dirs[0], pq.Out, dirs[2]), "format parquet, not arrow")

	// A file that does not match its manifest.
	m, err := datasets.ReadManifest(dirs[1])
	require.NoError(t, err)
	path := filepath.Join(dirs[1], m.Shards[0].GamesFile)
	orig, err := os.ReadFile(path)
	require.NoError(t, err)
	bad := append([]byte{}, orig...)
	bad[len(bad)/2] ^= 1
	require.NoError(t, os.WriteFile(path, bad, 0o644))
	require.ErrorContains(t, merge(dirs...), "does not match its manifest")
	require.NoError(t, os.WriteFile(path, orig[:len(orig)-1], 0o644))
	require.ErrorContains(t, merge(dirs...), "truncated or overwritten")
	require.NoError(t, os.WriteFile(path, orig, 0o644))
	_, err = os.Stat(filepath.Join(root, "merged-check", datasets.ManifestName))
	require.ErrorIs(t, err, os.ErrNotExist, "no manifest is written before every check passes")

	// Without --copy the parts must lie inside the output directory.
	_, err = datasets.Merge(t.TempDir(), dirs, datasets.MergeOptions{})
	require.ErrorContains(t, err, "is not inside")
	// A dataset that merge did not write is never replaced.
	_, err = datasets.Merge(whole, dirs, datasets.MergeOptions{Copy: true})
	require.ErrorContains(t, err, "already holds a dataset that merge did not write")
	require.NoError(t, merge(dirs...))
}

func TestInterruptedPartIsNamedByMergeAndResumes(t *testing.T) {
	root := t.TempDir()
	dirs := runParts(t, root, 10, 3, datasets.Arrow)
	require.NoError(t, os.RemoveAll(dirs[2]))
	// Part 2 owns shards 2 and 3 (games [6,10)); stop it after its first shard.
	c := testConfig(t, dirs[2], 10, 1, datasets.Arrow)
	c.Part = &datasets.Part{Index: 2, Count: 3}
	ctx, cancel := context.WithCancel(context.Background())
	played := 0
	c.OnGame = func(int) {
		if played++; played == 3 {
			cancel()
		}
	}
	_, err := Run(ctx, c)
	require.ErrorIs(t, err, context.Canceled)
	_, err = datasets.Merge(root, dirs, datasets.MergeOptions{})
	require.ErrorContains(t, err, "games [9,10) (shard 3): part 2/3 in "+dirs[2]+" is unfinished (continue it with --resume)")

	// Resuming it with another part number is refused; with its own it completes the part.
	c.OnGame, c.Resume = nil, true
	wrong := c
	wrong.Part = &datasets.Part{Index: 1, Count: 3}
	_, err = Run(context.Background(), wrong)
	require.ErrorIs(t, err, ErrPlanMismatch)
	require.ErrorContains(t, err, "part 2/3, not 1/3")
	res, err := Run(context.Background(), c)
	require.NoError(t, err)
	require.Equal(t, 1, res.Games)
	_, err = datasets.Merge(root, dirs, datasets.MergeOptions{})
	require.NoError(t, err)
}

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
