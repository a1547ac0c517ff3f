package eval

import (
	"context"
	"math"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// The median of an odd count is the middle value, of an even count the mean of the two middle
// values, of nothing 0.
func TestMedianOfOddEvenAndNoValues(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}, {nil, 0}} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

// Summarize's per-agent means are the breakdown summed over the agent's games divided by
// their number (worked by hand for three games of two agents), and an agent that played no
// game has zero means, not NaN.
func TestSummaryMeansWorkedByHand(t *testing.T) {
	sc := func(cash, island, left, loans, rank int) rules.Score {
		return rules.Score{Cash: cash, Island: island, Leftover: left, Loans: loans, Total: cash + island + left - loans, Rank: rank, Winner: rank == 1}
	}
	r := &Result{Agents: []string{"a", "b", "idle"}, Options: rules.Options{Players: 2}, Games: []GameResult{
		{Index: 0, Agents: []int{0, 1}, Scores: []rules.Score{sc(10, 20, 2, 0, 1), sc(5, 10, 0, 11, 2)}},
		{Index: 1, Agents: []int{1, 0}, Scores: []rules.Score{sc(30, 0, 4, 0, 1), sc(0, 12, 0, 0, 2)}},
		{Index: 2, Agents: []int{0, 1}, Scores: []rules.Score{sc(2, 40, 0, 0, 1), sc(1, 1, 1, 0, 2)}},
	}}
	s := Summarize(r)
	want := map[string][6]float64{ // cash, island, leftover, loans, total, rank
		"a":    {4, 24, 2.0 / 3, 0, 86.0 / 3, 4.0 / 3},
		"b":    {12, 11.0 / 3, 5.0 / 3, 11.0 / 3, 41.0 / 3, 5.0 / 3},
		"idle": {0, 0, 0, 0, 0, 0},
	}
	for _, a := range s.Agents {
		w := want[a.Name]
		got := [6]float64{a.MeanCash, a.MeanIsland, a.MeanLeftover, a.MeanLoans, a.MeanTotal, a.MeanRank}
		for i := range w {
			if math.IsNaN(got[i]) || math.Abs(got[i]-w[i]) > 1e-9 {
				t.Errorf("%s: means (cash, island, leftover, loans, total, rank) %v, want %v", a.Name, got, w)
				break
			}
		}
	}
}

// A tournament of a single game runs; zero games is a configuration error.
func TestRunPlaysOneGameAndRefusesNone(t *testing.T) {
	cfg := smallConfig("random")
	cfg.Games = 1
	r, err := Run(context.Background(), cfg)
	if err != nil || len(r.Games) != 1 {
		t.Fatalf("one game: %v", err)
	}
	cfg.Games = 0
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Fatal("zero games accepted")
	}
}

// A game's Turns counts the turns played: a game stopped by a turn limit of 5 reports 5.
func TestGameResultCountsTheTurnsPlayed(t *testing.T) {
	cfg := smallConfig("random")
	cfg.Games = 2
	cfg.Options.TurnLimit = 5
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.Games {
		if g.EndReason != rules.EndTurnLimit || g.Turns != 5 {
			t.Fatalf("game %d: ended %v after %d turns, want the turn limit after 5", g.Index, g.EndReason, g.Turns)
		}
	}
}
