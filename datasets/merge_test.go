package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Merge's gap detection at its boundaries: one shard missing at the start, at the end, on
// either side of a part boundary, a part one shard short of done, a last shard shorter than
// the others; one shard held twice; and the whole set, which merges.

// writePart writes a part directory of a 10-game plan in shards of 3 (shards 0-3, the last
// of one game) holding the given shards, with shard files of arbitrary bytes whose sizes and
// digests the manifest records (Merge checks those, not the Arrow content). part nil: a
// plain dataset.
func writePart(t *testing.T, dir string, part *Part, shards ...int) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	m := &Manifest{Version: ManifestVersion, Format: Arrow, Seed: 7, Games: 10, GamesPerShard: 3, Agents: []string{"a", "b", "c"},
		Meta: *testMeta(false, false), Part: part}
	for _, k := range shards {
		first, n := m.ShardRange(k)
		steps, games := ShardFileNames(k, Arrow)
		s := ShardInfo{Index: k, FirstGame: first, Games: n, Steps: int64(5 * n), StepsFile: steps, GamesFile: games}
		for _, f := range []struct {
			name  string
			size  *int64
			sum   *string
			bytes string
		}{{steps, &s.StepsBytes, &s.StepsSHA256, fmt.Sprintf("steps of shard %d", k)}, {games, &s.GamesBytes, &s.GamesSHA256, fmt.Sprintf("games of shard %d!", k)}} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, f.name), []byte(f.bytes), 0o644))
			h := sha256.Sum256([]byte(f.bytes))
			*f.size, *f.sum = int64(len(f.bytes)), hex.EncodeToString(h[:])
		}
		m.AddShard(s)
	}
	require.NoError(t, WriteManifest(dir, m))
}

// mergeErr merges parts (relative to root) into root/out and returns the error text.
func mergeErr(t *testing.T, root string, parts ...string) string {
	t.Helper()
	dirs := make([]string, len(parts))
	for i, p := range parts {
		dirs[i] = filepath.Join(root, "out", p)
	}
	_, err := Merge(filepath.Join(root, "out"), dirs, MergeOptions{})
	if err == nil {
		return ""
	}
	assert.ErrorIs(t, err, ErrMerge, "merge error %v does not wrap ErrMerge", err)
	return err.Error()
}

func TestMergeRefusesOneMissingShardWhereverItIs(t *testing.T) {
	// Two parts of a 4-shard plan: part 0/2 owns shards 0-1, part 1/2 shards 2-3.
	for _, tc := range []struct {
		p0, p1 []int
		want   string
		parts  int // parts named: those owning a shard of the gap
	}{
		{[]int{1}, []int{2, 3}, "1 of 4 shards missing: games [0,3) (shard 0): part 0/2 in ", 1},
		{[]int{0}, []int{2, 3}, "1 of 4 shards missing: games [3,6) (shard 1): part 0/2 in ", 1},
		{[]int{0, 1}, []int{3}, "1 of 4 shards missing: games [6,9) (shard 2): part 1/2 in ", 1},
		{[]int{0, 1}, []int{2}, "1 of 4 shards missing: games [9,10) (shard 3): part 1/2 in ", 1},
		{[]int{0}, []int{3}, "2 of 4 shards missing: games [3,9) (shards 1-2): part 0/2 in ", 2},
		{[]int{}, []int{2, 3}, "2 of 4 shards missing: games [0,6) (shards 0-1): part 0/2 in ", 1},
		{[]int{0, 1}, []int{}, "2 of 4 shards missing: games [6,10) (shards 2-3): part 1/2 in ", 1},
	} {
		root := t.TempDir()
		writePart(t, filepath.Join(root, "out", "p0"), &Part{Index: 0, Count: 2}, tc.p0...)
		writePart(t, filepath.Join(root, "out", "p1"), &Part{Index: 1, Count: 2}, tc.p1...)
		got := mergeErr(t, root, "p0", "p1")
		assert.False(t, !strings.Contains(got, tc.want) || !strings.Contains(got, "is unfinished (continue it with --resume)"), "parts with shards %v and %v: %q\nwant it to contain %q", tc.p0, tc.p1, got, tc.want)
		assert.True(t, strings.Count(got, "part ") == tc.parts, "parts with shards %v and %v: %q names %d parts, want the %d that own shards of the gap", tc.p0, tc.p1, got, strings.Count(got, "part "), tc.parts)
		_, err := os.Stat(filepath.Join(root, "out", ManifestName))
		assert.Error(t, err, "a refused merge wrote a manifest")
	}
	// Both parts complete: merged, every shard once.
	root := t.TempDir()
	writePart(t, filepath.Join(root, "out", "p0"), &Part{Index: 0, Count: 2}, 0, 1)
	writePart(t, filepath.Join(root, "out", "p1"), &Part{Index: 1, Count: 2}, 2, 3)
	got := mergeErr(t, root, "p0", "p1")
	require.True(t, got == "", "complete parts: %s", got)
	m, err := ReadManifest(filepath.Join(root, "out"))
	require.False(t, err != nil || len(m.Shards) != 4 || !m.Complete(), "merged manifest: %+v, %v", m, err)
	g, _ := m.GamesDone()
	assert.True(t, g == 10, "merged %d games, want 10", g)
}

// Plain datasets (no part) with a gap: no part is named, the gap is.
func TestMergeOfPlainDatasetsNamesAGapNoDirectoryHolds(t *testing.T) {
	root := t.TempDir()
	writePart(t, filepath.Join(root, "out", "a"), nil, 0, 1)
	writePart(t, filepath.Join(root, "out", "b"), nil, 3)
	got := mergeErr(t, root, "a", "b")
	assert.True(t, strings.Contains(got, "1 of 4 shards missing: games [6,9) (shard 2): no directory named holds them"), "got %q", got)
	// A part directory that names no part beside one that does: only the part is named.
	root = t.TempDir()
	writePart(t, filepath.Join(root, "out", "a"), nil, 0, 1, 2)
	writePart(t, filepath.Join(root, "out", "p1"), &Part{Index: 1, Count: 2}, 2)
	got = mergeErr(t, root, "a", "p1")
	assert.True(t, strings.Contains(got, "shard 2 (games [6,9)) is in both "), "shard 2 twice: %q", got)
}

// Nine gaps list the first eight and count the rest; eight are listed whole.
func TestMergeListsAtMostEightGaps(t *testing.T) {
	write := func(dir string, have ...int) {
		t.Helper()
		require.NoError(t, os.MkdirAll(dir, 0o755))
		m := &Manifest{Version: ManifestVersion, Format: Arrow, Seed: 7, Games: 40, GamesPerShard: 2, Agents: []string{"a"}, Meta: *testMeta(false, false)}
		for _, k := range have {
			steps, games := ShardFileNames(k, Arrow)
			first, n := m.ShardRange(k)
			s := ShardInfo{Index: k, FirstGame: first, Games: n, StepsFile: steps, GamesFile: games, StepsBytes: 1, GamesBytes: 1}
			os.WriteFile(filepath.Join(dir, steps), []byte("s"), 0o644)
			os.WriteFile(filepath.Join(dir, games), []byte("g"), 0o644)
			m.AddShard(s)
		}
		require.NoError(t, WriteManifest(dir, m))
	}
	for _, tc := range []struct {
		gaps int
		more bool
	}{{8, false}, {9, true}} {
		root := t.TempDir()
		var have []int
		for k := 0; k < 20; k++ {
			if k%2 == 0 || k/2 >= tc.gaps { // shards 1, 3, 5, ... missing, tc.gaps of them
				have = append(have, k)
			}
		}
		write(filepath.Join(root, "out", "a"), have...)
		got := mergeErr(t, root, "a")
		n := strings.Count(got, "no directory named holds them")
		assert.True(t, n == 8, "%d gaps: %d listed, want 8: %q", tc.gaps, n, got)
		assert.False(t, strings.Contains(got, "more ranges") != tc.more || tc.more && !strings.Contains(got, "and 1 more ranges"), "%d gaps: %q", tc.gaps, got)
		assert.True(t, strings.Contains(got, fmt.Sprintf("%d of 20 shards missing", tc.gaps)), "%d gaps: %q", tc.gaps, got)
	}
}

// Two parts of a split run whose bot-file agent was re-exported between them hold two
// networks under one name: merge refuses them.
func TestMergePlansDifferWhenTheNetworksBehindAnAgentDiffer(t *testing.T) {
	a := &Manifest{Agents: []string{"x.bot"}, AgentFiles: []AgentFile{{Agent: "x.bot", SHA256: "aa"}}}
	b := &Manifest{Agents: []string{"x.bot"}, AgentFiles: []AgentFile{{Agent: "x.bot", SHA256: "bb"}}}
	d := planDiff(a, b)
	require.True(t, strings.Contains(d, "agent networks"), "planDiff = %q, want the agent networks named", d)
	d = planDiff(a, a)
	require.True(t, d == "", "planDiff of one plan = %q", d)
}
