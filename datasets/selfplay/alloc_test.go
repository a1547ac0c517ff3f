package selfplay

import (
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env"
)

// TestPlayingAGameDoesNotAllocatePerStep replays the same game on a warm player: the
// allocations are a handful per game (options JSON, the game record), not per decision.
func TestPlayingAGameDoesNotAllocatePerStep(t *testing.T) {
	c := testConfig(t, t.TempDir(), 1, 1, datasets.Arrow)
	c.Agents = []string{"random", "random", "random"}
	meta, err := NewMeta(c.Env, "test")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlayer(&c, meta)
	if err != nil {
		t.Fatal(err)
	}
	seed := env.GameSeed(1, 0, 0)
	_, steps, err := p.playGame(0, seed)
	if err != nil {
		t.Fatal(err)
	}
	n := len(steps)
	allocs := testing.AllocsPerRun(3, func() {
		if _, _, err := p.playGame(0, seed); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%d steps, %.0f allocations per game", n, allocs)
	if allocs > 64 || allocs > float64(n)/20 {
		t.Fatalf("%.0f allocations for a %d-step game: something allocates per step", allocs, n)
	}
}
