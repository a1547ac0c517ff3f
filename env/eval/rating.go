package eval

import (
	"math"
	"sort"
)

// Rating is a Bayesian skill estimate: mean Mu and standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is the conservative skill estimate Mu - 3 Sigma used for ranking.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// RatingModel holds the parameters of the Weng-Lin Plackett-Luce update (Weng & Lin 2011,
// "A Bayesian Approximation Method for Online Ranking", Algorithm 4; the OpenSkill defaults).
type RatingModel struct {
	Mu0, Sigma0 float64 // prior of a new agent
	Beta        float64 // performance noise
	Kappa       float64 // floor of the variance shrink factor
}

// DefaultRatingModel is mu 25, sigma 25/3, beta 25/6, kappa 1e-4.
var DefaultRatingModel = RatingModel{Mu0: 25, Sigma0: 25.0 / 3, Beta: 25.0 / 6, Kappa: 1e-4}

// Prior is the rating of an agent that has not played.
func (m RatingModel) Prior() Rating { return Rating{m.Mu0, m.Sigma0} }

// Update returns the ratings after one game between len(rs) players, where ranks[i] is
// player i's finishing position (1 = best; equal ranks are ties).
func (m RatingModel) Update(rs []Rating, ranks []int) []Rating {
	n := len(rs)
	c2 := 0.0
	for _, r := range rs {
		c2 += r.Sigma*r.Sigma + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)
	e := make([]float64, n)
	for i, r := range rs {
		e[i] = math.Exp(r.Mu / c)
	}
	// sumQ[q]: sum of e over the players ranked no better than q; a[q]: players tied with q.
	sumQ := make([]float64, n)
	a := make([]int, n)
	for q := range rs {
		for i := range rs {
			if ranks[i] >= ranks[q] {
				sumQ[q] += e[i]
			}
			if ranks[i] == ranks[q] {
				a[q]++
			}
		}
	}
	out := make([]Rating, n)
	for i, r := range rs {
		omega, delta := 0.0, 0.0
		for q := range rs {
			if ranks[q] > ranks[i] {
				continue
			}
			quot := e[i] / sumQ[q]
			if q == i {
				omega += (1 - quot) / float64(a[q])
			} else {
				omega -= quot / float64(a[q])
			}
			delta += quot * (1 - quot) / float64(a[q])
		}
		s2 := r.Sigma * r.Sigma
		gamma := r.Sigma / c
		omega *= s2 / c
		delta *= gamma * s2 / c2
		out[i] = Rating{Mu: r.Mu + omega, Sigma: math.Sqrt(s2 * math.Max(1-delta, m.Kappa))}
	}
	return out
}

// AgentRating is one agent's rating after a tournament.
type AgentRating struct {
	Agent int    `json:"agent"` // index in the names of Result.Players (and Summary.Agents)
	Name  string `json:"name"`
	Rating
	Ordinal float64 `json:"ordinal"`
	Games   int     `json:"games"`
}

// Rate rates the agents of a tournament by applying Update to every game in game-index order.
// Each seat is a player in the update; an agent (a name) that fills several seats of one game
// gets the sum of its seats' mean changes and the product of their variance factors. The result is
// sorted by Ordinal, best first.
func (m RatingModel) Rate(r *Result) []AgentRating {
	names, of := r.Players()
	cur := make([]Rating, len(names))
	games := make([]int, len(names))
	for i := range cur {
		cur[i] = m.Prior()
	}
	for _, g := range r.Games {
		rs := make([]Rating, len(g.Agents))
		ranks := make([]int, len(g.Agents))
		for s, ga := range g.Agents {
			rs[s] = cur[of[ga]]
			ranks[s] = g.Scores[s].Rank
		}
		up := m.Update(rs, ranks)
		next := append([]Rating(nil), cur...)
		varFactor := make([]float64, len(cur))
		for i := range varFactor {
			varFactor[i] = 1
		}
		for s, ga := range g.Agents {
			a := of[ga]
			next[a].Mu += up[s].Mu - rs[s].Mu
			varFactor[a] *= (up[s].Sigma * up[s].Sigma) / (rs[s].Sigma * rs[s].Sigma)
			games[a]++
		}
		for a := range next {
			next[a].Sigma = cur[a].Sigma * math.Sqrt(varFactor[a])
		}
		cur = next
	}
	out := make([]AgentRating, len(cur))
	for i, rt := range cur {
		out[i] = AgentRating{Agent: i, Name: names[i], Rating: rt, Ordinal: rt.Ordinal(), Games: games[i]}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ordinal > out[j].Ordinal })
	return out
}
