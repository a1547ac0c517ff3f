package eval

import (
	"math"
	"sort"

	"github.com/container-rl/container/env/rules"
)

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for wins successes out of n trials (wins may be
// fractional: shared wins count 1/k each) at normal quantile z.
func Wilson(wins float64, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := wins / nf
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// Rate is a proportion with its 95% Wilson interval.
type Rate struct {
	Wins  float64 `json:"wins"`
	Games int     `json:"games"`
	Rate  float64 `json:"rate"`
	Lo    float64 `json:"ci_lo"`
	Hi    float64 `json:"ci_hi"`
}

func newRate(wins float64, n int) Rate {
	r := Rate{Wins: wins, Games: n}
	if n > 0 {
		r.Rate = wins / float64(n)
	}
	r.Lo, r.Hi = Wilson(wins, n, Z95)
	return r
}

// AgentStats summarises one agent (all entries of Agents with its name) over all the seats
// it played.
type AgentStats struct {
	Name string `json:"name"`
	Rate
	MeanTotal   float64 `json:"mean_total"`
	MedianTotal float64 `json:"median_total"`
	MeanRank    float64 `json:"mean_rank"`
	// Mean score breakdown.
	MeanCash     float64 `json:"mean_cash"`
	MeanIsland   float64 `json:"mean_island"`
	MeanLeftover float64 `json:"mean_leftover"`
	MeanLoans    float64 `json:"mean_loans"`
	// PerSeat[s] is the agent's win rate in seat s.
	PerSeat []Rate `json:"per_seat"`
}

// Dist summarises a sample of integers.
type Dist struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Min    int     `json:"min"`
	Max    int     `json:"max"`
}

// Summary is the statistics of a tournament.
type Summary struct {
	Games  int          `json:"games"`
	Agents []AgentStats `json:"agents"`
	// Seats[s] is the win rate of whoever sat in seat s. Who moves first is drawn at setup,
	// so a seat is no turn position: TurnOrder is.
	Seats []Rate `json:"seats"`
	// TurnOrder[k] is the win rate of whoever moved k-th in turn order (k = 0: the first
	// player, drawn at setup from the game's seed); nil when the games' first players cannot
	// be known (options no game can have).
	TurnOrder []Rate         `json:"turn_order"`
	Steps     Dist           `json:"steps"`
	Turns     Dist           `json:"turns"`
	EndReason map[string]int `json:"end_reasons"`
}

// winShares returns each seat's share of the win: 1/k for each of k shared winners.
func winShares(sc []rules.Score, dst []float64) []float64 {
	dst = dst[:0]
	k := 0
	for _, s := range sc {
		if s.Winner {
			k++
		}
	}
	for _, s := range sc {
		if s.Winner {
			dst = append(dst, 1/float64(k))
		} else {
			dst = append(dst, 0)
		}
	}
	return dst
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func dist(xs []int) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	d := Dist{Min: xs[0], Max: xs[0]}
	f := make([]float64, len(xs))
	t := 0
	for i, x := range xs {
		t += x
		d.Min, d.Max = min(d.Min, x), max(d.Max, x)
		f[i] = float64(x)
	}
	d.Mean = float64(t) / float64(len(xs))
	d.Median = median(f)
	return d
}

var endReasonNames = map[rules.EndReason]string{
	rules.NotEnded: "not-ended", rules.EndTwoColours: "two-colours", rules.EndTurnLimit: "turn-limit",
}

// Summarize computes the statistics of a tournament result.
func Summarize(r *Result) *Summary {
	players := r.Options.Players
	sum := &Summary{Games: len(r.Games), EndReason: map[string]int{}}
	type acc struct {
		wins, rank, cash, island, left, loans float64
		totals                                []float64
		seatWins                              []float64
		seatN                                 []int
	}
	names, of := r.Players()
	accs := make([]acc, len(names))
	for i := range accs {
		accs[i].seatWins = make([]float64, players)
		accs[i].seatN = make([]int, players)
	}
	seatWins := make([]float64, players)
	orderWins := make([]float64, players)
	game, gameErr := rules.NewGame(r.Options)
	var steps, turns []int
	var shares []float64
	for _, g := range r.Games {
		shares = winShares(g.Scores, shares)
		first := 0
		if gameErr == nil {
			first = game.DrawSetup(g.Seed).First
		}
		for s, sc := range g.Scores {
			a := &accs[of[g.Agents[s]]]
			a.wins += shares[s]
			a.rank += float64(sc.Rank)
			a.cash += float64(sc.Cash)
			a.island += float64(sc.Island)
			a.left += float64(sc.Leftover)
			a.loans += float64(sc.Loans)
			a.totals = append(a.totals, float64(sc.Total))
			a.seatWins[s] += shares[s]
			a.seatN[s]++
			seatWins[s] += shares[s]
			orderWins[(s-first+players)%players] += shares[s]
		}
		steps = append(steps, g.Steps)
		turns = append(turns, g.Turns)
		name := endReasonNames[g.EndReason]
		if name == "" {
			name = "other"
		}
		sum.EndReason[name]++
	}
	for i, a := range accs {
		n := len(a.totals)
		st := AgentStats{Name: names[i], Rate: newRate(a.wins, n), MedianTotal: median(a.totals)}
		if n > 0 {
			nf := float64(n)
			t := 0.0
			for _, x := range a.totals {
				t += x
			}
			st.MeanTotal, st.MeanRank = t/nf, a.rank/nf
			st.MeanCash, st.MeanIsland, st.MeanLeftover, st.MeanLoans = a.cash/nf, a.island/nf, a.left/nf, a.loans/nf
		}
		for s := 0; s < players; s++ {
			st.PerSeat = append(st.PerSeat, newRate(a.seatWins[s], a.seatN[s]))
		}
		sum.Agents = append(sum.Agents, st)
	}
	for s := 0; s < players; s++ {
		sum.Seats = append(sum.Seats, newRate(seatWins[s], len(r.Games)))
		if gameErr == nil {
			sum.TurnOrder = append(sum.TurnOrder, newRate(orderWins[s], len(r.Games)))
		}
	}
	sum.Steps, sum.Turns = dist(steps), dist(turns)
	return sum
}
