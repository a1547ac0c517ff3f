package rules

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

var setupOptionSets = []Options{{Players: 3}, {Players: 4}, {Players: 5}, {Players: 4, Variant: Classic},
	{Players: 5, Variant: Classic}, {Players: 3, Modules: AllModules}, {Players: 5, Modules: AllModules}}

// A game laid out from the choices the seeded setup draws is the seeded game, position for
// position, and the choices survive the trip through the draw sequence.
func TestSetupFromSeedDrawsIsTheSeededGame(t *testing.T) {
	for _, o := range setupOptionSets {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 50; seed++ {
			su := g.DrawSetup(seed)
			got, err := g.NewInitialStateSetup(su)
			if err != nil {
				t.Fatalf("%+v seed %d: %v", o, seed, err)
			}
			want := g.NewInitialStateSeed(seed)
			a, _ := got.MarshalPosition()
			b, _ := want.MarshalPosition()
			if !bytes.Equal(a, b) || got.Hash() != want.Hash() {
				t.Fatalf("%+v seed %d: setup from draws differs from the seeded setup:\n%s\n%s", o, seed, a, b)
			}
			draws := g.SetupDraws(su)
			if len(draws) != g.NumSetupDraws() {
				t.Fatalf("%+v: %d draws, NumSetupDraws %d", o, len(draws), g.NumSetupDraws())
			}
			back, err := g.SetupFromDraws(draws)
			if err != nil || !equalInts(g.SetupDraws(back), draws) {
				t.Fatalf("%+v seed %d: draws %v do not round-trip (%v)", o, seed, draws, err)
			}
			// Each draw is among the outcomes offered after the draws before it.
			for k := range draws {
				outs, err := g.SetupOutcomes(draws[:k], nil)
				if err != nil || !containsInt(outs, draws[k]) {
					t.Fatalf("%+v seed %d: draw %d = %d not among %v (%v)", o, seed, k, draws[k], outs, err)
				}
			}
		}
	}
}

// The number of outcomes of each draw: colours and cards dealt without repeats, any seat first.
func TestSetupOutcomeCounts(t *testing.T) {
	g, _ := NewGame(Options{Players: 4})
	prior := []int{}
	want := []int{5, 4, 3, 5, 4, 3, 2, 5, 4, 3, 2, 4}
	if g.NumSetupDraws() != len(want) {
		t.Fatalf("NumSetupDraws %d, want %d", g.NumSetupDraws(), len(want))
	}
	for k, n := range want {
		outs, err := g.SetupOutcomes(prior, nil)
		if err != nil || len(outs) != n {
			t.Fatalf("draw %d (%s): outcomes %v (%v), want %d of them", k, g.SetupDrawAt(k), outs, err, n)
		}
		prior = append(prior, outs[len(outs)-1])
	}
	if _, err := g.SetupOutcomes(prior, nil); !errors.Is(err, ErrBadSetup) {
		t.Errorf("outcomes after the last draw: %v, want ErrBadSetup", err)
	}
	if d := g.SetupDrawAt(8); d.Kind != DrawCard || d.Index != 1 || d.PrivateTo() != 1 || d.String() != "p2 scoring card" {
		t.Errorf("draw 8 is %+v %q, want p2's scoring card, private to seat 1", d, d)
	}
	if d := g.SetupDrawAt(3); d.PrivateTo() != -1 {
		t.Errorf("a factory draw is private to %d, want public (-1)", d.PrivateTo())
	}
}

// Bad draws and bad setups are errors naming what is wrong, never a game.
func TestBadSetupsAreRefused(t *testing.T) {
	g, _ := NewGame(Options{Players: 3})
	for _, draws := range [][]int{{5}, {-1}, {0, 0}, {0, 1, 2, 0, 0}, {0, 1, 2, 0, 1, 2, 0, 1, 2, 3}} {
		if _, err := g.SetupOutcomes(draws, nil); !errors.Is(err, ErrBadSetup) {
			t.Errorf("outcomes after %v: %v, want ErrBadSetup", draws, err)
		}
	}
	if _, err := g.SetupFromDraws([]int{0, 1, 2}); !errors.Is(err, ErrBadSetup) {
		t.Errorf("a short draw sequence: %v, want ErrBadSetup", err)
	}
	good := g.DrawSetup(1)
	for name, mut := range map[string]func(*Setup){
		"repeated bank colour": func(s *Setup) { s.Bank[1] = s.Bank[0] },
		"factory colour 5":     func(s *Setup) { s.Factories[2] = 5 },
		"repeated card":        func(s *Setup) { s.Cards[1] = s.Cards[0] },
		"first player 3":       func(s *Setup) { s.First = 3 },
	} {
		su := good
		mut(&su)
		if _, err := g.NewInitialStateSetup(su); !errors.Is(err, ErrBadSetup) {
			t.Errorf("%s: %v, want ErrBadSetup", name, err)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func containsInt(a []int, v int) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

// A bad draw or setup is refused with the range of values it may take: the colours and cards
// 0 to 4, the first player one of the seats. Bank draws are named by container and lot.
func TestBadSetupErrorsNameTheValidRange(t *testing.T) {
	g, _ := NewGame(Options{Players: 3})
	for _, tc := range []struct {
		draws []int
		says  string
	}{
		{[]int{5}, "draw 0 (bank container 1 (lot I)) is 5; want 0 to 4"},
		{[]int{0, -1}, "draw 1 (bank container 2 (lot II)) is -1; want 0 to 4"},
		{[]int{0, 1, 7}, "draw 2 (bank container 3 (lot II)) is 7; want 0 to 4"},
	} {
		if _, err := g.SetupOutcomes(tc.draws, nil); !errors.Is(err, ErrBadSetup) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("outcomes after %v: %v, want ErrBadSetup saying %q", tc.draws, err, tc.says)
		}
	}
	const first = "draw 9 (first player) is 3; want 0 to 2"
	if _, err := g.SetupFromDraws([]int{0, 1, 2, 0, 1, 2, 0, 1, 2, 3}); !errors.Is(err, ErrBadSetup) || !strings.Contains(err.Error(), first) {
		t.Errorf("first player 3 of 3 seats: %v, want ErrBadSetup saying %q", err, first)
	}
	good := g.DrawSetup(1)
	for _, tc := range []struct {
		mut  func(*Setup)
		says string
	}{
		{func(s *Setup) { s.Bank[2] = 5 }, "bank container 2 is 5; want 0 to 4"},
		{func(s *Setup) { s.Factories[2] = 5 }, "factory colour of seat 2 is 5; want 0 to 4"},
		{func(s *Setup) { s.Cards[0] = 5 }, "scoring card of seat 0 is 5; want 0 to 4"},
		{func(s *Setup) { s.First = 3 }, "first player 3; want 0 to 2"},
		{func(s *Setup) { s.First = -1 }, "first player -1; want 0 to 2"},
	} {
		su := good
		tc.mut(&su)
		if err := g.ValidateSetup(su); !errors.Is(err, ErrBadSetup) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%+v: %v, want ErrBadSetup saying %q", su, err, tc.says)
		}
	}
}
