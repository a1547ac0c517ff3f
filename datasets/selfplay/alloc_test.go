package selfplay

import (
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env"
	"github.com/stretchr/testify/require"
)

// TestPlayingAGameDoesNotAllocatePerStep replays the same game on a warm player: the
// allocations are a handful per game (options JSON, the game record), not per decision.
func TestPlayingAGameDoesNotAllocatePerStep(t *testing.T) {
	c := testConfig(t, t.TempDir(), 1, 1, datasets.Arrow)
	c.Agents = []string{"random", "random", "random"}
	meta, err := NewMeta(c.Env, "test")
	require.NoError(t, err)
	p, err := newPlayer(&c, meta)
	require.NoError(t, err)
	seed := env.GameSeed(1, 0, 0)
	_, steps, err := p.playGame(0, seed)
	require.NoError(t, err)
	n := len(steps)
	allocs := testing.AllocsPerRun(3, func() {
		_, _, err := p.playGame(0, seed)
		require.NoError(t, err)
	})
	t.Logf("%d steps, %.0f allocations per game", n, allocs)
	require.False(t, allocs > 64 || allocs > float64(n)/20, "%.0f allocations for a %d-step game: something allocates per step", allocs, n)
}
