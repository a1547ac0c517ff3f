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

// A dataset without action names (allowed: the names are optional) counts its actions
// under "action:N", every id included, 0 as well.
func TestStatsNameActionsByIdWithoutActionNames(t *testing.T) {
	dir := t.TempDir()
	m := testMeta(false, false)
	m.ActionNames = nil
	_, ss := writeFake(t, dir, m, WriteOptions{Format: Arrow}, 4, 2)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	st, err := ds.ComputeStats()
	require.NoError(t, err)
	var steps, counted int64
	for _, g := range ss {
		steps += int64(len(g))
	}
	for _, byAction := range st.ActionsByPhase {
		for name, n := range byAction {
			require.Regexp(t, `^action:\d+$`, name)
			counted += n
		}
	}
	require.Equal(t, steps, counted)
}
