package datasets

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// writeFake writes a dataset of games fake games in shards of perShard and returns what it
// wrote, in game order.
func writeFake(t *testing.T, dir string, m *Meta, o WriteOptions, games, perShard int) ([]*Game, [][]Step) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	man := &Manifest{Version: ManifestVersion, Format: o.Format, Compression: o.Compression, Seed: 7,
		Games: games, GamesPerShard: perShard, Agents: []string{"agent0", "agent1", "agent0"}, Meta: *m}
	var gs []*Game
	var ss [][]Step
	for k := 0; k < man.NumShards(); k++ {
		first, n := man.ShardRange(k)
		w, err := NewShardWriter(dir, k, first, m, o)
		require.NoError(t, err)
		for i := 0; i < n; i++ {
			g, steps := fakeGame(m, first+uint64(i), rng)
			require.NoError(t, w.WriteGame(g, steps))
			gs = append(gs, g)
			ss = append(ss, steps)
		}
		info, err := w.Close()
		require.NoError(t, err)
		man.AddShard(info)
	}
	require.NoError(t, WriteManifest(dir, man))
	return gs, ss
}

func readAll(t *testing.T, ds *Dataset) ([]*Game, []Step) {
	t.Helper()
	var games []*Game
	for g, err := range ds.Games() {
		require.NoError(t, err)
		games = append(games, g)
	}
	var steps []Step
	for c, err := range ds.StepBatches() {
		require.NoError(t, err)
		for i := 0; i < c.Len(); i++ {
			var s Step
			c.Row(i, &s)
			s.Obs = slices.Clone(s.Obs)
			s.Returns = slices.Clone(s.Returns)
			s.Policy = slices.Clone(s.Policy)
			steps = append(steps, s)
		}
	}
	return games, steps
}

func TestRoundTripEveryField(t *testing.T) {
	for _, tc := range []struct {
		format      Format
		compression Compression
		policy      bool
	}{
		{Arrow, "none", false}, {Arrow, "zstd", true}, {Arrow, "lz4", false},
		{Parquet, "none", true}, {Parquet, "zstd", false}, {Parquet, "snappy", false}, {Parquet, "lz4", true},
	} {
		t.Run(string(tc.format)+"-"+string(tc.compression), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			dir := t.TempDir()
			m := testMeta(tc.policy, tc.policy)
			o := WriteOptions{Format: tc.format, Compression: tc.compression, BatchRows: 50, Allocator: mem}
			wantGames, wantSteps := writeFake(t, dir, m, o, 23, 5)

			ds, err := Open(dir, WithAllocator(mem), AcceptEncodings(testEncoding))
			require.NoError(t, err)
			require.Equal(t, *m, *ds.Meta)
			games, steps := readAll(t, ds)
			require.Len(t, games, len(wantGames))
			for i := range games {
				require.Equal(t, *wantGames[i], *games[i], "game %d", i)
			}
			var flat []Step
			for _, s := range wantSteps {
				flat = append(flat, s...)
			}
			require.Len(t, steps, len(flat))
			for i := range steps {
				want := flat[i]
				if !m.Policy {
					want.Policy = nil
				}
				if len(want.Policy) == 0 {
					want.Policy = nil
				}
				got := steps[i]
				if len(got.Policy) == 0 {
					got.Policy = nil
				}
				require.Equal(t, want, got, "step %d", i)
			}
		})
	}
}
