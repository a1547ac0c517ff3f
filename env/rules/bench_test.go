package rules

import (
	"math/rand/v2"
	"testing"
)

// benchState returns a 4-player position some way into a random game.
func benchState(b *testing.B) *State {
	g, err := NewGame(DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	s := g.NewInitialStateSeed(1)
	r := rand.New(rand.NewPCG(1, 2))
	ids := make([]int, 0, 256)
	for i := 0; i < 200 && !s.IsTerminal(); i++ {
		ids = s.LegalActions(ids)
		s.Apply(ids[r.IntN(len(ids))])
	}
	return s
}

func BenchmarkLegalActions(b *testing.B) {
	s := benchState(b)
	ids := make([]int, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		ids = s.LegalActions(ids)
	}
}

// BenchmarkApply measures one random-play step (legal actions + apply), restarting the game
// from a copy when it ends.
func BenchmarkApply(b *testing.B) {
	g, _ := NewGame(DefaultOptions())
	start := g.NewInitialStateSeed(3)
	s := start.Clone()
	r := rand.New(rand.NewPCG(3, 4))
	ids := make([]int, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		if s.IsTerminal() {
			s.CopyFrom(start)
		}
		ids = s.LegalActions(ids)
		s.Apply(ids[r.IntN(len(ids))])
	}
}

func BenchmarkClone(b *testing.B) {
	s := benchState(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Clone()
	}
}

func BenchmarkCopyFrom(b *testing.B) {
	s := benchState(b)
	d := s.Clone()
	b.ReportAllocs()
	for b.Loop() {
		d.CopyFrom(s)
	}
}

func BenchmarkHash(b *testing.B) {
	s := benchState(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Hash()
	}
}

// BenchmarkRandomGame plays whole 4-player random games (uniform over legal ids) from a
// reused state; it reports steps per game.
func BenchmarkRandomGame(b *testing.B) {
	g, _ := NewGame(DefaultOptions())
	s := g.NewInitialStateSeed(0)
	r := rand.New(rand.NewPCG(5, 6))
	ids := make([]int, 0, 256)
	steps := 0
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		s.CopyFrom(g.NewInitialStateSeed(seed))
		for !s.IsTerminal() {
			ids = s.LegalActions(ids)
			s.Apply(ids[r.IntN(len(ids))])
			steps++
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
}
