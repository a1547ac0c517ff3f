package rules

import (
	"errors"
	"testing"
)

// TestTurnLimitBounded: a turn limit above MaxTurnLimit is refused (1e17 overflowed
// MaxGameLength before 2026-12-01), and the largest one keeps MaxGameLength positive.
func TestTurnLimitBounded(t *testing.T) {
	for _, tl := range []int{-1, MaxTurnLimit + 1, 1e17} {
		if err := (Options{Players: 4, TurnLimit: tl}).Validate(); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("turn limit %d: %v, want ErrInvalidOptions", tl, err)
		}
	}
	g, err := NewGame(Options{Players: 4, TurnLimit: MaxTurnLimit})
	if err != nil {
		t.Fatal(err)
	}
	if n := g.MaxGameLength(); n <= 0 || n != MaxTurnLimit*MaxStepsPerTurn+maxEndSteps {
		t.Fatalf("MaxGameLength %d", n)
	}
}
