package eval

import (
	"testing"

	"github.com/container-rl/container/env/rules"
)

// Two fresh players, one win: worked by hand from Weng & Lin's Algorithm 4 with mu 25,
// sigma 25/3, beta 25/6: c^2 = 2(sigma^2+beta^2) = 173.6111, c = 13.17616; the winner's
// share of exp(mu/c) is 1/2, so omega = (1 - 1/2) sigma^2/c = 2.63523 and
// delta = (1/2)(1/2) (sigma/c) sigma^2/c^2 = 0.0632456, sigma' = sigma sqrt(1-delta) = 8.06550.
func TestRatingUpdate_TwoPlayersHandComputed(t *testing.T) {
	m := DefaultRatingModel
	rs := []Rating{m.Prior(), m.Prior()}
	up := m.Update(rs, []int{1, 2})
	near(t, "winner mu", up[0].Mu, 27.63523, 1e-4)
	near(t, "loser mu", up[1].Mu, 22.36477, 1e-4)
	near(t, "winner sigma", up[0].Sigma, 8.06550, 1e-4)
	near(t, "loser sigma", up[1].Sigma, 8.06550, 1e-4)
}

// A tie between equals moves no mean and shrinks both uncertainties as a decided game does.
func TestRatingUpdate_TieBetweenEquals(t *testing.T) {
	m := DefaultRatingModel
	up := m.Update([]Rating{m.Prior(), m.Prior()}, []int{1, 1})
	near(t, "mu 0", up[0].Mu, 25, 1e-12)
	near(t, "mu 1", up[1].Mu, 25, 1e-12)
	near(t, "sigma", up[0].Sigma, 8.06550, 1e-4)
}

// With equal uncertainties the mean changes of a Plackett-Luce update sum to zero, and the
// order of the new means follows the finishing order.
func TestRatingUpdate_FourPlayersZeroSumAndOrdered(t *testing.T) {
	m := DefaultRatingModel
	rs := []Rating{{20, 5}, {25, 5}, {30, 5}, {22, 5}}
	ranks := []int{2, 4, 1, 3}
	up := m.Update(rs, ranks)
	sum := 0.0
	for i := range rs {
		sum += up[i].Mu - rs[i].Mu
		if up[i].Sigma >= rs[i].Sigma {
			t.Errorf("player %d sigma did not shrink: %v", i, up[i].Sigma)
		}
	}
	near(t, "sum of mean changes", sum, 0, 1e-9)
	if !(up[2].Mu > rs[2].Mu && up[1].Mu < rs[1].Mu) {
		t.Errorf("first place should gain and last should lose: %+v", up)
	}
}

func TestRate_RanksTheAgentThatAlwaysWinsFirst(t *testing.T) {
	r := &Result{Agents: []string{"weak", "strong", "mid"}, Options: rules.Options{Players: 3}}
	var seats []int
	for g := 0; g < 30; g++ {
		seats = SeatAgents(g, 3, 3, seats)
		sc := make([]rules.Score, 3)
		for s, a := range seats {
			rank := map[int]int{0: 3, 1: 1, 2: 2}[a]
			sc[s] = rules.Score{Rank: rank, Winner: rank == 1}
		}
		r.Games = append(r.Games, GameResult{Index: g, Agents: append([]int(nil), seats...), Scores: sc})
	}
	rt := DefaultRatingModel.Rate(r)
	if rt[0].Name != "strong" || rt[1].Name != "mid" || rt[2].Name != "weak" {
		t.Fatalf("order %s %s %s, want strong mid weak", rt[0].Name, rt[1].Name, rt[2].Name)
	}
	for _, a := range rt {
		if a.Games != 30 || a.Sigma >= DefaultRatingModel.Sigma0 {
			t.Errorf("%s: games %d sigma %.2f", a.Name, a.Games, a.Sigma)
		}
	}
}

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
