package bots

import (
	"math/rand/v2"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func counts(w, g, r, b, y, gold int) rules.Counts {
	return rules.Counts{uint8(w), uint8(g), uint8(r), uint8(b), uint8(y), uint8(gold)}
}

// Card 0 is white $10, green two-value, red $6, blue $4, yellow $2
// (reference-game-end-and-scoring.txt, "Scoring cards").
func TestIslandScore_FinalScoringSteps1and2(t *testing.T) {
	cases := []struct {
		name string
		isl  rules.Counts
		card uint8
		want int
	}{
		{"empty", counts(0, 0, 0, 0, 0, 0), 0, 0},
		{"most common white discarded, all colours make green $10", counts(2, 1, 1, 1, 1, 0), 0, 10 + 6 + 4 + 2},
		{"two-value colour tied for most common is discarded", counts(2, 2, 0, 0, 0, 0), 0, 20},
		{"without every colour the two-value colour is $5", counts(2, 1, 0, 0, 0, 0), 0, 5},
		{"tie not involving the two-value colour: discard the cheaper", counts(2, 0, 2, 0, 0, 0), 0, 20},
		{"gold counts as the best colour (Luxury Containers)", counts(1, 0, 1, 1, 1, 1), 0, 22},
		{"card 3: red $10, blue two-value", counts(0, 0, 1, 2, 0, 0), 3, 10},
	}
	for _, c := range cases {
		if got := islandScore(&c.isl, c.card); got != c.want {
			t.Errorf("%s: islandScore(%v, card %d) = %d, want %d", c.name, c.isl, c.card, got, c.want)
		}
	}
}

func TestMarginal_SecondOfAColourCanBeWorthNothing(t *testing.T) {
	isl := counts(1, 0, 0, 0, 0, 0)
	white := counts(1, 0, 0, 0, 0, 0)
	red := counts(0, 0, 1, 0, 0, 0)
	// One white alone is discarded (most common): worth 0. A second white: still discarded.
	if got := marginal(&isl, &white, 0); got != 0 {
		t.Errorf("marginal second white = %d, want 0", got)
	}
	// A red next to a white: the tie discards red (cheaper), white scores 10.
	if got := marginal(&isl, &red, 0); got != 10 {
		t.Errorf("marginal red next to white = %d, want 10", got)
	}
}

func TestIslandScore_UnknownCardIsTheMeanOfTheCards(t *testing.T) {
	isl := counts(1, 1, 0, 0, 0, 0)
	sum := 0
	for c := uint8(0); c < 5; c++ {
		sum += islandScore(&isl, c)
	}
	if got := islandScore(&isl, rules.Unknown); got != sum/5 {
		t.Errorf("unknown card = %d, want %d", got, sum/5)
	}
}

// The bots' island valuation agrees with the rules engine's final scoring on random areas.
func TestIslandScore_AgreesWithTheRulesEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var isl rules.Counts
		for c := range isl {
			isl[c] = uint8(rng.IntN(4))
		}
		if rng.IntN(2) == 0 {
			isl[rules.Gold] = 0
		}
		card := uint8(rng.IntN(5))
		want, _, _, _ := rules.ScoreIsland(int(card), isl, true)
		if got := islandScore(&isl, card); got != want {
			t.Fatalf("island %v card %d: bots value %d, rules %d", isl, card, got, want)
		}
	}
}
