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
	s.machine.Phase = PhaseBuyFactory
	s.machine.Action = FactoryPurchase
	s.machine.Counterpart = 9
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

// An illegal action is refused with ErrIllegalAction and leaves the state untouched.
func TestApplyCheckedRefusesAndKeepsState(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	h := s.Hash()
	id, _ := s.MoveToAction(Move{Kind: Place, Price: 2})
	err := s.ApplyChecked(id)
	if !errors.Is(err, ErrIllegalAction) || s.Hash() != h || len(s.History()) != 0 {
		t.Fatalf("err %v", err)
	}
	if err := s.ApplyMoveChecked(Move{Kind: Amount, Amount: 3}); !errors.Is(err, ErrIllegalAction) {
		t.Fatal("amount outside a bid accepted")
	}
	// Ids for relative seats 3 and 4 do not exist in a 3-player game.
	s3 := newTestState(t, Options{Players: 3})
	s3.Players[1].FactoryLots[0][Green] = 1
	s3.Players[2].FactoryLots[0][Red] = 1
	first, _ := KindBase(FactoryPurchase)
	for rel := 3; rel <= 4; rel++ {
		if err := s3.ApplyChecked(first + rel - 1); !errors.Is(err, ErrIllegalAction) {
			t.Fatalf("relative seat %d accepted in a 3-player game: %v", rel, err)
		}
	}
}
