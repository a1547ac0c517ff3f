package rules

import (
	"testing"
)

// A redacted view is marked Hidden (and so is not a position, State.Validate) exactly when it
// hides a sealed value: a seat's own sealed delivery bid, runoff addition or loan incentive is
// never hidden from it, another seat's is, and the view of no seat (-1, the game over; or a
// seat past the last) hides every one. A position with nothing sealed hides nothing from
// anyone. CLARIFICATIONS "Hidden information".
func TestRedactedViewIsHiddenExactlyWhenAnotherSeatsSealedValueIsHidden(t *testing.T) {
	const n = 5
	base := newTestState(t, Options{Players: n, Modules: PlayerLoans})
	var view State
	for v := -1; v <= n; v++ {
		base.Redact(v, &view)
		if view.machine.Hidden {
			t.Errorf("nothing sealed: seat %d's view is marked hidden", v)
		}
	}
	kinds := []struct {
		name string
		seal func(m *decisionMachine, b int)
		seen func(m *decisionMachine, b int) int32
	}{
		{"delivery bid", func(m *decisionMachine, b int) { m.HasBid, m.Bids[b] = 1<<b, 17 }, func(m *decisionMachine, b int) int32 { return m.Bids[b] }},
		{"runoff addition", func(m *decisionMachine, b int) { m.HasRunoff, m.Runoff[b] = 1<<b, 17 }, func(m *decisionMachine, b int) int32 { return m.Runoff[b] }},
		{"loan incentive", func(m *decisionMachine, b int) { m.HasIncentive, m.Incentives[b] = 1<<b, 17 }, func(m *decisionMachine, b int) int32 { return m.Incentives[b] }},
	}
	for _, k := range kinds {
		for b := 0; b < n; b++ {
			s := base.Clone()
			k.seal(&s.machine, b)
			for v := -1; v <= n; v++ {
				s.Redact(v, &view)
				own := v == b
				if view.machine.Hidden == own {
					t.Errorf("%s of seat %d only: seat %d's view marked hidden %v, want %v", k.name, b, v, view.machine.Hidden, !own)
				}
				if got, want := k.seen(&view.machine, b), map[bool]int32{true: 17, false: 0}[own]; got != want {
					t.Errorf("%s of seat %d: seat %d's view reads %d, want %d", k.name, b, v, got, want)
				}
			}
		}
	}
}

// A view shows the viewer's own scoring card and no one else's (every card hidden from the
// view of no seat).
func TestRedactedViewShowsOnlyTheViewersScoringCard(t *testing.T) {
	for n := 3; n <= MaxPlayers; n++ {
		s := newTestState(t, Options{Players: n})
		var view State
		for v := -1; v < n; v++ {
			s.Redact(v, &view)
			for i := 0; i < n; i++ {
				if s.Players[i].Card == Unknown {
					t.Fatalf("test setup: seat %d has no card", i)
				}
				want := uint8(Unknown)
				if i == v {
					want = s.Players[i].Card
				}
				if view.Players[i].Card != want {
					t.Errorf("%d players: seat %d's view of seat %d's card: %d, want %d", n, v, i, view.Players[i].Card, want)
				}
			}
		}
	}
}

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
