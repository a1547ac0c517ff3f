package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/container-rl/container/datasets"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/require"
)

// TestMetaRewardNamesTheSchemeAndOnlyTheSettingsGiven: the dataset's reward description is
// the scheme's name, followed by the margin scale and the step limit only when they are set.
func TestMetaRewardNamesTheSchemeAndOnlyTheSettingsGiven(t *testing.T) {
	for _, c := range []struct {
		scale float64
		steps int
		want  string
	}{
		{0, 0, "cash-margin"},
		{250, 0, "cash-margin scale=250"},
		{0, 40, "cash-margin max-steps=40"},
		{250, 40, "cash-margin scale=250 max-steps=40"},
	} {
		o := env.DefaultOptions()
		o.Reward, o.MarginScale, o.MaxSteps = env.CashMargin, c.scale, c.steps
		m, err := NewMeta(o, "test")
		require.NoError(t, err)
		require.Equal(t, c.want, m.Reward)
	}
}

// TestMetaNamesEveryPhaseInOrder: the phase column's names are every rules phase, by index.
func TestMetaNamesEveryPhaseInOrder(t *testing.T) {
	m, err := NewMeta(env.DefaultOptions(), "test")
	require.NoError(t, err)
	require.Len(t, m.PhaseNames, int(rules.NumPhases))
	for p := rules.Phase(0); p < rules.NumPhases; p++ {
		require.Equal(t, p.String(), m.PhaseNames[p])
	}
}

// TestRunRefusesABadConfigurationBeforeWritingAnything: invalid environment options, an
// agent count other than the players', an unknown agent, no games and no output directory
// are each refused with an error naming the problem, and nothing is written.
func TestRunRefusesABadConfigurationBeforeWritingAnything(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"nine players", func(c *Config) { c.Env.Rules.Players = 9 }, "players"},
		{"two agents for three players", func(c *Config) { c.Agents = c.Agents[:2] }, "2 agents for 3 players"},
		{"an unknown agent", func(c *Config) { c.Agents[1] = "no-such-bot" }, "no-such-bot"},
		{"no games", func(c *Config) { c.Games = 0 }, "0 games; want at least 1"},
		{"no output directory", func(c *Config) { c.Out = "" }, "no output directory"},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		cfg := testConfig(t, dir, 2, 1, datasets.Arrow)
		c.edit(&cfg)
		_, err := Run(context.Background(), cfg)
		require.ErrorContains(t, err, c.want, c.name)
		_, statErr := os.Stat(dir)
		require.True(t, os.IsNotExist(statErr), "%s: the output directory was created", c.name)
	}
}

// TestRunOfOneGame: a single game is a valid run (the smallest).
func TestRunOfOneGame(t *testing.T) {
	res, err := Run(context.Background(), testConfig(t, t.TempDir(), 1, 1, datasets.Arrow))
	require.NoError(t, err)
	require.Equal(t, 1, res.Games)
}

// TestRunKeepsTheWorkersAsked: a configuration's worker count is kept (the data do not
// depend on it, so only the count shows a lost parallelism); 0 or less means one.
func TestRunKeepsTheWorkersAsked(t *testing.T) {
	for _, c := range []struct{ workers, want int }{{4, 4}, {1, 1}, {0, 1}, {-3, 1}} {
		cfg := testConfig(t, t.TempDir(), 2, c.workers, datasets.Arrow)
		require.NoError(t, cfg.check())
		require.Equal(t, c.want, cfg.Workers, "workers %d", c.workers)
	}
}

// TestRunKeepsTheShardSizeAsked: one game per shard is a valid shard size; 0 means the
// default.
func TestRunKeepsTheShardSizeAsked(t *testing.T) {
	for _, c := range []struct{ per, want int }{{1, 1}, {5, 5}, {0, DefaultGamesPerShard}} {
		cfg := testConfig(t, t.TempDir(), 2, 1, datasets.Arrow)
		cfg.GamesPerShard = c.per
		require.NoError(t, cfg.check())
		require.Equal(t, c.want, cfg.GamesPerShard, "games per shard %d", c.per)
	}
}

// TestStoppedPartRunCountsTheShardsThePartOwns: a part run stopped before any shard is
// written says how many of the part's own shards were written (0 of 2 for the last of three
// parts of 10 games in shards of 3, which owns shards 2 and 3), and wraps the cancellation.
func TestStoppedPartRunCountsTheShardsThePartOwns(t *testing.T) {
	cfg := testConfig(t, t.TempDir(), 10, 2, datasets.Arrow)
	cfg.Part = &datasets.Part{Index: 2, Count: 3}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, cfg)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorContains(t, err, "stopped with 0 of 2 shards written")
	require.Equal(t, 0, res.Games)
}
