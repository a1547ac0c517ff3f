package rules

import (
	"errors"
	"testing"
)

// TestApplyCheckedNeverPanics: a state corrupted behind Validate's back (a Factory Purchase
// from seat 9) makes ApplyChecked and ApplyMoveChecked return an error wrapping
// ErrBadPosition and leave the state as it was, instead of panicking.
func TestApplyCheckedNeverPanics(t *testing.T) {
	s := loadTestPosition(t, "opening-4p.json")
	s.Machine.Phase = PhaseBuyFactory
	s.Machine.Action = FactoryPurchase
	s.Machine.Counterpart = 9
	h := s.Hash()
	first, _ := KindBase(PickFactory)
	if err := s.ApplyChecked(first); !errors.Is(err, ErrBadPosition) {
		t.Fatalf("ApplyChecked: %v, want ErrBadPosition", err)
	}
	if err := s.ApplyMoveChecked(Move{Kind: Done}); !errors.Is(err, ErrBadPosition) {
		t.Fatalf("ApplyMoveChecked: %v, want ErrBadPosition", err)
	}
	if s.Hash() != h || len(s.History()) != 0 {
		t.Fatal("the failed apply changed the state")
	}
}

// BenchmarkApplyChecked measures one checked random-play step (legal actions + ApplyChecked).
func BenchmarkApplyChecked(b *testing.B) {
	g, _ := NewGame(DefaultOptions())
	start := g.NewInitialStateSeed(3)
	s := start.Clone()
	ids := make([]int, 0, 256)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if s.IsTerminal() {
			s.CopyFrom(start)
		}
		ids = s.LegalActions(ids)
		i++
		if err := s.ApplyChecked(ids[i%len(ids)]); err != nil {
			b.Fatal(err)
		}
	}
}
