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
