package datasets

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// ComputeStats counts each end reason once per game.
func TestStatsCountTheGamesOfEachEndReason(t *testing.T) {
	dir := t.TempDir()
	gs, _ := writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 5, 2)
	want := map[string]int{}
	for _, g := range gs {
		want[g.EndReason]++
	}
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	st, err := ds.ComputeStats()
	require.NoError(t, err)
	require.Equal(t, 5, st.Games)
	require.Equal(t, want, st.EndReasons)
}
