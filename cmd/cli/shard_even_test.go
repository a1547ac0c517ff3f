package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/stretchr/testify/require"
)

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
