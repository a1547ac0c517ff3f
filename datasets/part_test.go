package datasets

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPartShardsSplitThePlanIntoContiguousBlocks(t *testing.T) {
	for _, tc := range []struct{ shards, count int }{{4, 3}, {10, 10}, {2, 5}, {1000, 7}, {1, 1}, {0, 3}, {1 << 40, MaxParts}} {
		next := 0
		for i := 0; i < tc.count; i += max(1, tc.count/97) {
			lo, hi := PartShards(tc.shards, i, tc.count)
			if i == 0 {
				require.Equal(t, 0, lo)
			}
			require.LessOrEqual(t, lo, hi)
			require.GreaterOrEqual(t, lo, next)
			next = hi
			size := hi - lo
			require.LessOrEqual(t, size, tc.shards/tc.count+1, "%+v part %d", tc, i)
		}
		_, hi := PartShards(tc.shards, tc.count-1, tc.count)
		require.Equal(t, tc.shards, hi, "%+v: the last part ends the plan", tc)
	}
}

func TestManifestValidateRefusesPartsAndPathsOutsideThePlan(t *testing.T) {
	base := func() *Manifest {
		m := &Manifest{Version: ManifestVersion, Format: Arrow, Games: 10, GamesPerShard: 3, Meta: *testMeta(false, false),
			Part: &Part{Index: 1, Count: 2}}
		return m
	}
	shard := func(k int, steps, games string) ShardInfo {
		m := base()
		first, n := m.ShardRange(k)
		return ShardInfo{Index: k, FirstGame: first, Games: n, StepsFile: steps, GamesFile: games}
	}
	m := base()
	require.Equal(t, [2]uint64{6, 10}, func() [2]uint64 { a, b := m.OwnedGames(); return [2]uint64{a, b} }())
	m.Shards = []ShardInfo{shard(2, "steps-00002.arrow", "games-00002.arrow")}
	require.NoError(t, m.Validate())
	require.False(t, m.Complete())
	m.AddShard(shard(3, "p/steps-00003.arrow", "p/games-00003.arrow"))
	require.NoError(t, m.Validate(), "a merged manifest names files in part directories")
	require.True(t, m.Complete())

	for name, breakIt := range map[string]func(m *Manifest){
		"part index":      func(m *Manifest) { m.Part = &Part{Index: 3, Count: 2} },
		"part count":      func(m *Manifest) { m.Part = &Part{Index: 0, Count: 0} },
		"shard of part 0": func(m *Manifest) { m.Shards = []ShardInfo{shard(0, "s", "g")} },
		"parent path":     func(m *Manifest) { m.Shards = []ShardInfo{shard(2, "../s", "g")} },
		"absolute path":   func(m *Manifest) { m.Shards = []ShardInfo{shard(2, "/tmp/s", "g")} },
		"unclean path":    func(m *Manifest) { m.Shards = []ShardInfo{shard(2, "p/../s", "g")} },
		"backslash":       func(m *Manifest) { m.Shards = []ShardInfo{shard(2, `p\s`, "g")} },
	} {
		m := base()
		breakIt(m)
		require.ErrorIs(t, m.Validate(), ErrCorrupt, name)
	}
}

// A part index out of range is refused with one line naming the part and the valid range of
// indexes (0 to count-1); a count out of range names its bound.
func TestPartValidateNamesTheValidRange(t *testing.T) {
	for _, c := range []struct {
		p    Part
		want string
	}{
		{Part{Index: 3, Count: 3}, "datasets: invalid input: part 3/3: the index must be 0 to 2"},
		{Part{Index: -1, Count: 5}, "datasets: invalid input: part -1/5: the index must be 0 to 4"},
		{Part{Index: 0, Count: 0}, "datasets: invalid input: part 0/0: the part count must be at least 1"},
		{Part{Index: 0, Count: MaxParts + 1}, "datasets: invalid input: part 0/1048577: at most 1048576 parts"},
	} {
		err := c.p.Validate()
		assert.False(t, !errors.Is(err, ErrInvalid) || err.Error() != c.want, "%s: got %v, want %q", c.p, err, c.want)
	}
	err := (Part{Index: 2, Count: 3}).Validate()
	assert.NoError(t, err, "part 2/3: %v", err)
}
