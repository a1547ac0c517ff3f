package eval

import (
	"testing"

	"github.com/container-rl/container/env/rules"
)

// oneGame is a tournament result of a single game: seat s played agent seats[s] and finished
// at ranks[s].
func oneGame(agents []string, seats, ranks []int) *Result {
	sc := make([]rules.Score, len(seats))
	for s, rk := range ranks {
		sc[s] = rules.Score{Rank: rk, Winner: rk == 1}
	}
	return &Result{Agents: agents, Options: rules.Options{Players: len(seats)}, Games: []GameResult{{Agents: seats, Scores: sc}}}
}

// container rate after one game between two new agents reports the values of the
// hand-computed two-player update (TestRatingUpdate_TwoPlayersHandComputed): the winner's
// mean 27.63523, the loser's 22.36477, both sigmas 8.06550, and ordinal mu - 3 sigma.
func TestRateReportsTheHandComputedSigmaAndOrdinal(t *testing.T) {
	rt := DefaultRatingModel.Rate(oneGame([]string{"a", "b"}, []int{0, 1}, []int{1, 2}))
	if rt[0].Name != "a" || rt[1].Name != "b" {
		t.Fatalf("order %s %s", rt[0].Name, rt[1].Name)
	}
	near(t, "winner mu", rt[0].Mu, 27.63523, 1e-4)
	near(t, "loser mu", rt[1].Mu, 22.36477, 1e-4)
	for _, a := range rt {
		near(t, a.Name+" sigma", a.Sigma, 8.06550, 1e-4)
		near(t, a.Name+" ordinal", a.Ordinal, a.Mu-3*a.Sigma, 1e-12)
		if a.Games != 1 {
			t.Errorf("%s: %d games, want 1", a.Name, a.Games)
		}
	}
}

// An agent that fills two seats of one game gets the sum of its seats' mean changes and the
// product of their variance factors. Worked by hand for three fresh seats (mu 25, sigma 25/3,
// beta 25/6), agent x first and second, agent y third: c^2 = 3(sigma^2+beta^2), c = 16.137431,
// k = (sigma/c) sigma^2/c^2 = 0.1377061; the variance factors are 1 - (2/9)k = 0.9693987 for
// first place and 1 - (2/9 + 1/4)k = 0.9349721 for second and third; the mean changes are
// (2/3) sigma^2/c and (1/6) sigma^2/c for x's seats (sum 3.586096) and -(5/6) sigma^2/c for y.
// So x: mu 28.586096, sigma 25/3 sqrt(0.9693987*0.9349721) = 7.933582; y: mu 21.413904,
// sigma 25/3 sqrt(0.9349721) = 8.057830.
func TestRateCombinesTheSeatsOfAnAgentThatPlaysTwice(t *testing.T) {
	rt := DefaultRatingModel.Rate(oneGame([]string{"x", "y"}, []int{0, 0, 1}, []int{1, 2, 3}))
	if rt[0].Name != "x" || rt[1].Name != "y" {
		t.Fatalf("order %s %s", rt[0].Name, rt[1].Name)
	}
	near(t, "x mu", rt[0].Mu, 28.586096, 1e-5)
	near(t, "x sigma", rt[0].Sigma, 7.933582, 1e-5)
	near(t, "y mu", rt[1].Mu, 21.413904, 1e-5)
	near(t, "y sigma", rt[1].Sigma, 8.057830, 1e-5)
	if rt[0].Games != 2 || rt[1].Games != 1 {
		t.Errorf("games %d %d, want 2 (two seats) and 1", rt[0].Games, rt[1].Games)
	}
}

// Agents with equal ordinals keep their order of first appearance (the sort is stable): three
// agents that have not played are listed as given.
func TestRateListsAgentsWithEqualOrdinalsInTheirOrder(t *testing.T) {
	r := &Result{Agents: []string{"c", "a", "b"}, Options: rules.Options{Players: 3}}
	rt := DefaultRatingModel.Rate(r)
	if len(rt) != 3 || rt[0].Name != "c" || rt[1].Name != "a" || rt[2].Name != "b" {
		t.Fatalf("order %+v, want c a b", rt)
	}
	for i, a := range rt {
		if a.Agent != i || a.Rating != DefaultRatingModel.Prior() || a.Games != 0 {
			t.Errorf("agent %d: %+v, want the prior after no games", i, a)
		}
	}
}

// An agent without games has a win rate of 0 (not NaN) and the whole interval [0, 1].
func TestRateOfNoGamesIsZeroWithTheWholeInterval(t *testing.T) {
	r := newRate(0, 0)
	if r.Rate != 0 || r.Lo != 0 || r.Hi != 1 || r.Games != 0 {
		t.Fatalf("no games: %+v, want rate 0 in [0, 1]", r)
	}
	r = newRate(1.5, 4)
	if r.Rate != 0.375 {
		t.Fatalf("1.5 wins of 4: rate %v, want 0.375", r.Rate)
	}
}
