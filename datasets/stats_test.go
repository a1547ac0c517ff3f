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

// ComputeStats' means and rates are the hand-computed ones: steps and turns per game, wins
// per game for each seat, and per agent wins and total score per seat played.
func TestStatsMeansAndRatesAreTheHandComputedOnes(t *testing.T) {
	dir := t.TempDir()
	gs, ss := writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 7, 3)
	var steps, turns float64
	wins := make([]float64, 3)
	agentWins, agentSeats, agentScore := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for i, g := range gs {
		steps += float64(len(ss[i]))
		turns += float64(g.Turns)
		for s, a := range g.Agents {
			agentSeats[a]++
			agentScore[a] += float64(g.Scores[s].Total)
		}
		for _, w := range g.Winners {
			wins[w]++
			agentWins[g.Agents[w]]++
		}
	}
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	st, err := ds.ComputeStats()
	require.NoError(t, err)
	require.InDelta(t, steps/7, st.MeanLength, 1e-9)
	require.InDelta(t, turns/7, st.MeanTurns, 1e-9)
	for s := range wins {
		require.InDelta(t, wins[s]/7, st.WinRateBySeat[s], 1e-9, "seat %d", s)
	}
	require.Len(t, st.ByAgent, len(agentSeats))
	for a, n := range agentSeats {
		require.InDelta(t, agentWins[a]/n, st.ByAgent[a].WinRate, 1e-9, a)
		require.InDelta(t, agentScore[a]/n, st.ByAgent[a].MeanScore, 1e-9, a)
	}
}

// A dataset of no games (a plan of 0 games is valid) has stats of zeros, not NaN means.
func TestStatsOfADatasetOfNoGamesAreZero(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 0, 2)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	st, err := ds.ComputeStats()
	require.NoError(t, err)
	require.Zero(t, st.Games)
	require.Zero(t, st.MeanLength)
	require.Zero(t, st.MeanTurns)
	require.Equal(t, []float64{0, 0, 0}, st.WinRateBySeat)
}
