package bridge

import (
	"math"
	"testing"
)

// A rollout may start at the root, before any setup draw: it draws the setup, plays the game
// out and leaves the root as it was.
func TestSpielRolloutFromTheRootDrawsTheSetup(t *testing.T) {
	x := newSpielT(t, `{"players": 3}`)
	out := make([]float64, 3)
	if err := SpielRollout(x.h, 4, RolloutReturns, out); err != nil {
		t.Fatal(err)
	}
	if s := out[0] + out[1] + out[2]; math.Abs(s-1) > 1e-6 {
		t.Fatalf("returns %v add up to %v, want the win-loss split", out, s)
	}
	if p, acts := x.status(); p != SpielChance || len(acts) != 5 {
		t.Fatalf("the root became player %d with %d actions", p, len(acts))
	}
}
