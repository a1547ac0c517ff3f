package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// TestNewGameStartsAtThePlainTurnMenuOfItsBoard: a freshly set-up game is the first player's
// turn menu with nothing in progress (rulebook setup step 14: a random first player starts;
// no delivery auction has been won, no other seat is involved): its position, saved without
// the "machine" section (which a loaded position fills with the turn-menu defaults), loads
// back as exactly the same position.
func TestNewGameStartsAtThePlainTurnMenuOfItsBoard(t *testing.T) {
	for _, o := range []Options{
		{Players: 3}, {Players: 4, Modules: AllModules}, {Players: 5, Variant: Classic, Modules: PlayerLoans | Luxury},
	} {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			name := fmt.Sprintf("%+v seed %d", o, seed)
			s := g.NewInitialStateSeed(seed)
			d := s.Decision()
			if d.Phase != PhaseTurn || d.Decider != int(s.FirstPlayer) || d.Counterpart != -1 {
				t.Errorf("%s: decision %s of seat %d (counterpart %d), want the first player's turn menu", name, d.Phase, d.Decider, d.Counterpart)
			}
			data, err := s.MarshalPosition()
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if _, ok := m["machine"]; !ok {
				t.Fatalf("%s: no machine section in %s", name, data)
			}
			delete(m, "machine")
			bare, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			loaded, err := LoadPosition(bare)
			if err != nil {
				t.Fatalf("%s: the start position without its machine does not load: %v", name, err)
			}
			again, err := loaded.MarshalPosition()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Errorf("%s: start position\n%s\nreloads without its machine as\n%s", name, data, again)
			}
			if _, err := LoadPosition(data); err != nil {
				t.Errorf("%s: the start position does not load: %v", name, err)
			}
		}
	}
}

// ResetState must set up exactly the game NewInitialStateSeed does, over any previous game,
// and without allocating (self-play and vectorised environments reset games in a loop).
func TestResetStateMatchesNewInitialStateWithoutAllocating(t *testing.T) {
	for _, o := range []Options{{Players: 3}, {Players: 4, Modules: AllModules}, {Players: 5, Variant: Classic}} {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewInitialStateSeed(99)
		ids := make([]int, 0, NumDistinctActions())
		for i := 0; i < 300 && !s.IsTerminal(); i++ {
			ids = s.LegalActions(ids)
			s.Apply(ids[i%len(ids)])
		}
		for seed := uint64(0); seed < 20; seed++ {
			g.ResetState(s, seed)
			want := g.NewInitialStateSeed(seed)
			if s.Hash() != want.Hash() || len(s.History()) != 0 {
				t.Fatalf("%+v seed %d: ResetState differs from NewInitialStateSeed", o, seed)
			}
		}
		allocs := testing.AllocsPerRun(100, func() { g.ResetState(s, 7) })
		if allocs != 0 {
			t.Errorf("%+v: ResetState allocates %.1f times per call, want 0", o, allocs)
		}
	}
}
