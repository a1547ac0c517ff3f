package rules

import (
	"bytes"
	"testing"
)

// CLARIFICATIONS "Hidden information" (every sealed bid stays hidden until the reveal): a
// bid of $150, entered as +$100 then $150 (the notation names the whole amount), takes two
// decisions where a bid of $50 takes one; the step count every seat sees (a redacted view's Steps, PublicSteps) counts each amount
// once, so it is the same for both bids and shows nothing of the sealed value.
func TestPublicStepsDoNotCountAmountPresses(t *testing.T) {
	views := map[string]int32{}
	for _, bid := range [][]string{{"$50"}, {"+$100", "$150"}} {
		s := newTestState(t, Options{Players: 3})
		s.Players[1].Cash = 200
		s.Players[0].Ship = Counts{Red: 1}
		play(t, s, "sail:island")
		before := s.Steps
		play(t, s, bid...)
		wantPhase(t, s, PhaseDeliveryBid, 2)
		if got, want := s.Steps-before, int32(len(bid)); got != want {
			t.Fatalf("%v: %d steps, want %d (every decision counts in Steps)", bid, got, want)
		}
		if s.PublicSteps() != before+1 {
			t.Fatalf("%v: public steps %d, want %d (one per amount)", bid, s.PublicSteps(), before+1)
		}
		for seat := 0; seat < 3; seat++ {
			var v State
			s.Redact(seat, &v)
			if v.Steps != s.PublicSteps() || v.Presses != 0 {
				t.Fatalf("%v: seat %d's view has steps %d presses %d, want %d and 0", bid, seat, v.Steps, v.Presses, s.PublicSteps())
			}
		}
		views[bid[0]] = s.PublicSteps()
	}
	if views["$50"] != views["+$100"] {
		t.Fatalf("public steps after a $50 bid %d, after a $150 bid %d", views["$50"], views["+$100"])
	}
}

// The position format keeps the press count, so a loaded position is observed like the
// original; a count below zero or above the steps is refused.
func TestPositionKeepsAmountPresses(t *testing.T) {
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(1)
	s.Steps, s.Presses = 40, 3
	b, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"presses": 3`)) && !bytes.Contains(b, []byte(`"presses":3`)) {
		t.Fatalf("position lacks the press count: %s", b)
	}
	r, err := LoadPosition(b)
	if err != nil {
		t.Fatal(err)
	}
	if r.Steps != 40 || r.Presses != 3 || r.PublicSteps() != 37 {
		t.Fatalf("loaded steps %d presses %d", r.Steps, r.Presses)
	}
	for _, bad := range []int32{-1, 41} {
		s.Presses = bad
		if err := s.Validate(); err == nil {
			t.Errorf("presses %d of 40 steps accepted", bad)
		}
	}
}
