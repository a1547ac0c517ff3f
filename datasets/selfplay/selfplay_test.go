package selfplay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
	"github.com/stretchr/testify/require"
)

func testConfig(_ testing.TB, out string, games, workers int, f datasets.Format) Config {
	o := env.DefaultOptions()
	o.Rules.Players = 3
	return Config{Agents: []string{"random", "random", "random"}, Env: o, Games: games, Seed: 11,
		Out: out, Workers: workers, GamesPerShard: 3, Write: datasets.WriteOptions{Format: f}, ToolVersion: "test"}
}

func TestRunWritesAReadableDataset(t *testing.T) {
	dir := t.TempDir()
	res, err := Run(context.Background(), testConfig(t, dir, 5, 2, datasets.Parquet))
	require.NoError(t, err)
	require.Equal(t, 5, res.Games)
	ds, err := datasets.Open(dir)
	require.NoError(t, err)
	st, err := ds.ComputeStats()
	require.NoError(t, err)
	require.Equal(t, 5, st.Games)
	require.Equal(t, res.Steps, st.Steps)
	t.Logf("%d steps, mean length %.1f", st.Steps, st.MeanLength)
}

// content reads every game (duration zeroed: the one wall-clock column) and every step.
func content(t *testing.T, dir string) ([]datasets.Game, []datasets.Step) {
	t.Helper()
	ds, err := datasets.Open(dir)
	require.NoError(t, err)
	var games []datasets.Game
	for g, err := range ds.Games() {
		require.NoError(t, err)
		g.Duration = 0
		games = append(games, *g)
	}
	var steps []datasets.Step
	for c, err := range ds.StepBatches() {
		require.NoError(t, err)
		for i := 0; i < c.Len(); i++ {
			var s datasets.Step
			c.Row(i, &s)
			s.Obs = append([]float32{}, s.Obs...)
			s.Returns = append([]float32{}, s.Returns...)
			steps = append(steps, s)
		}
	}
	return games, steps
}

func TestSameSeedSameDataWhateverTheWorkerCount(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	_, err := Run(context.Background(), testConfig(t, a, 7, 1, datasets.Arrow))
	require.NoError(t, err)
	_, err = Run(context.Background(), testConfig(t, b, 7, 3, datasets.Arrow))
	require.NoError(t, err)
	ga, sa := content(t, a)
	gb, sb := content(t, b)
	require.Equal(t, ga, gb)
	require.Equal(t, len(sa), len(sb))
	for i := range sa {
		require.Equal(t, sa[i], sb[i], "step row %d", i)
	}
	// A different seed plays different games.
	c := testConfig(t, t.TempDir(), 7, 2, datasets.Arrow)
	c.Seed++
	_, err = Run(context.Background(), c)
	require.NoError(t, err)
	gc, _ := content(t, c.Out)
	require.NotEqual(t, ga[0].Seed, gc[0].Seed)
}

func TestResumeAfterInterruptionNeitherDuplicatesNorLosesGames(t *testing.T) {
	full := t.TempDir()
	_, err := Run(context.Background(), testConfig(t, full, 8, 2, datasets.Parquet))
	require.NoError(t, err)

	dir := t.TempDir()
	cfg := testConfig(t, dir, 8, 1, datasets.Parquet)
	// Interrupt after the first game of the second shard: the first shard is complete, the
	// second is left under a temporary name.
	ctx, cancel := context.WithCancel(context.Background())
	played := 0
	cfg.OnGame = func(int) {
		played++
		if played == 4 {
			cancel()
		}
	}
	_, err = Run(ctx, cfg)
	require.ErrorIs(t, err, context.Canceled)
	m, err := datasets.ReadManifest(dir)
	require.NoError(t, err)
	require.Len(t, m.Shards, 1)
	require.False(t, m.Complete())
	// A crash (rather than a clean cancel) would also leave a temporary file behind.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "steps-00001.parquet.tmp"), []byte("partial"), 0o644))

	// Without resume the directory is refused.
	cfg.OnGame = nil
	_, err = Run(context.Background(), cfg)
	require.ErrorIs(t, err, ErrExists)
	// Resuming with another plan is refused.
	other := cfg
	other.Resume, other.Seed = true, 99
	_, err = Run(context.Background(), other)
	require.ErrorIs(t, err, ErrPlanMismatch)

	cfg.Resume = true
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 5, res.Games, "only the missing games are played")
	require.True(t, res.Manifest.Complete())
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		require.NotContains(t, e.Name(), ".tmp")
	}
	g1, s1 := content(t, full)
	g2, s2 := content(t, dir)
	require.Equal(t, g1, g2)
	require.Equal(t, len(s1), len(s2))
	for i := range s1 {
		require.Equal(t, s1[i], s2[i], "step row %d", i)
	}
	// Resuming a complete dataset does nothing.
	res, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 0, res.Games)
}

func TestStepsAreConsistentWithTheGame(t *testing.T) {
	dir := t.TempDir()
	_, err := Run(context.Background(), testConfig(t, dir, 3, 1, datasets.Arrow))
	require.NoError(t, err)
	games, steps := content(t, dir)
	i := 0
	for _, g := range games {
		require.Equal(t, []string{"random", "random", "random"}, g.Agents)
		require.NotEmpty(t, g.Winners)
		var sum float32
		for s := 0; s < 3; s++ {
			sum += steps[i].Returns[s]
		}
		require.InDelta(t, 1, sum, 1e-6, "win-loss returns of a game sum to 1")
		for t2 := 0; t2 < int(g.Length); t2++ {
			s := steps[i]
			require.Equal(t, g.GameID, s.GameID)
			require.Equal(t, int32(t2), s.Step)
			require.Contains(t, s.Legal, int(s.Action))
			require.NotEmpty(t, s.ActionText)
			require.Equal(t, t2 == int(g.Length)-1, s.Done)
			i++
		}
		last := steps[i-1]
		for _, w := range g.Winners {
			require.Greater(t, last.Returns[w], float32(0))
		}
	}
	require.Equal(t, len(steps), i)
}

// TestGamesReplayFromOptionsAndActions proves the dataset is a faithful record: replaying each
// game's options and action column through the rules engine visits the recorded deciders,
// gives the recorded move texts, and ends with the recorded scores.
func TestGamesReplayFromOptionsAndActions(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(t, dir, 4, 2, datasets.Parquet)
	c.Agents = []string{"valuer", "random", "shipper"}
	_, err := Run(context.Background(), c)
	require.NoError(t, err)
	games, steps := content(t, dir)
	i := 0
	for _, g := range games {
		var o rules.Options
		require.NoError(t, json.Unmarshal([]byte(g.Options), &o))
		require.Equal(t, g.Seed, o.Seed)
		game, err := rules.NewGame(o)
		require.NoError(t, err)
		st := game.NewInitialState()
		for k := 0; k < int(g.Length); k++ {
			s := steps[i]
			require.Equal(t, int(s.Decider), st.CurrentPlayer(), "game %d step %d", g.GameID, k)
			require.Equal(t, uint8(st.Decision().Phase), s.Phase)
			require.Equal(t, st.ActionToMove(int(s.Action)).String(), s.ActionText)
			require.Equal(t, st.LegalActions(nil), s.Legal)
			require.NoError(t, st.ApplyChecked(int(s.Action)))
			i++
		}
		require.True(t, st.IsTerminal())
		for seat, sc := range st.Scores() {
			require.Equal(t, int32(sc.Total), g.Scores[seat].Total)
			require.Equal(t, sc.Winner, g.Scores[seat].Winner)
		}
	}
}

func TestTwoRunsCannotWriteOneDirectory(t *testing.T) {
	dir := t.TempDir()
	d, err := rundir.Open(dir, rundir.Selfplay)
	require.NoError(t, err)
	_, err = Run(context.Background(), testConfig(t, dir, 1, 1, datasets.Arrow))
	require.ErrorIs(t, err, ErrBusy)
	d.Close()
	_, err = Run(context.Background(), testConfig(t, dir, 1, 1, datasets.Arrow))
	require.NoError(t, err)
}
