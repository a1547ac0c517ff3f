package rules

import (
	"slices"
	"testing"
)

// Helpers shared by the package's tests: a bare test game, moves applied in notation.

// newTestState returns a 4-player (or n-player) game whose boards are emptied, every seat
// with $20 and one factory of its own colour (seat i: colour i), seat 0 to move.
func newTestState(t *testing.T, o Options) *State {
	t.Helper()
	g, err := NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(1)
	for i := 0; i < o.Players; i++ {
		p := &s.Players[i]
		p.FactoryLots = [FactoryPrices]Counts{}
		p.Factories = 1 << Colour(i)
	}
	s.Bank.ContainerLots = [BankLots]Counts{{1, 1}, {0, 0, 1}}
	s.Active = 0
	s.Turn = 1
	s.toMenu()
	return s
}

// play applies moves in notation, failing the test on an illegal one.
func play(t *testing.T, s *State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ApplyMoveChecked(m); err != nil {
			t.Fatalf("%s: %v (legal: %v)", text, err, s.LegalMoves(nil))
		}
	}
}

// legal reports whether the move written in notation is legal now.
func legal(t *testing.T, s *State, text string) bool {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Contains(s.LegalMoves(nil), m)
}

func wantPhase(t *testing.T, s *State, p Phase, decider int) {
	t.Helper()
	if s.machine.Phase != p || s.CurrentPlayer() != decider {
		t.Fatalf("phase %s decider %d, want %s decider %d", s.machine.Phase, s.CurrentPlayer(), p, decider)
	}
}
