package selfplay

import (
	"context"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env"
	"github.com/stretchr/testify/require"
)

func testConfig(t *testing.T, out string, games, workers int, f datasets.Format) Config {
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
