package eval

import (
	"math"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol { // NaN fails every comparison: catch it
		t.Errorf("%s = %.6f, want %.6f", what, got, want)
	}
}

// Known values of the 95% Wilson score interval (z = 1.96).
func TestWilson_KnownValues(t *testing.T) {
	cases := []struct {
		wins   float64
		n      int
		lo, hi float64
	}{
		{50, 100, 0.403832, 0.596168},
		{0, 10, 0, 0.277533},
		{10, 10, 0.722467, 1},
		{1, 2, 0.094531, 0.905469},
		{25, 100, 0.175452, 0.343045},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.wins, c.n, Z95)
		near(t, "lo", lo, c.lo, 1e-5)
		near(t, "hi", hi, c.hi, 1e-5)
	}
	if lo, hi := Wilson(0, 0, Z95); lo != 0 || hi != 1 {
		t.Errorf("no games: [%v, %v], want [0, 1]", lo, hi)
	}
}

func score(total, rank int, winner bool) rules.Score {
	return rules.Score{Total: total, Cash: total, Rank: rank, Winner: winner}
}

func TestSummarize_SharedWinsAreSplitAndSeatsCounted(t *testing.T) {
	r := &Result{
		Agents:  []string{"a", "b", "c"},
		Options: rules.Options{Players: 3},
		Games: []GameResult{
			{Agents: []int{0, 1, 2}, Scores: []rules.Score{score(50, 1, true), score(40, 2, false), score(30, 3, false)}, Steps: 10, Turns: 4, EndReason: rules.EndTwoColours},
			{Agents: []int{1, 2, 0}, Scores: []rules.Score{score(60, 1, true), score(60, 1, true), score(10, 3, false)}, Steps: 20, Turns: 6, EndReason: rules.EndTurnLimit},
		},
	}
	s := Summarize(r)
	want := map[string]float64{"a": 1, "b": 0.5, "c": 0.5}
	for _, a := range s.Agents {
		near(t, a.Name+" wins", a.Wins, want[a.Name], 1e-12)
		if a.Games != 2 {
			t.Errorf("%s games = %d, want 2", a.Name, a.Games)
		}
	}
	near(t, "a mean total", s.Agents[0].MeanTotal, 30, 1e-12)
	near(t, "a mean rank", s.Agents[0].MeanRank, 2, 1e-12)
	near(t, "b median total", s.Agents[1].MedianTotal, 50, 1e-12)
	near(t, "seat 0 wins", s.Seats[0].Wins, 1.5, 1e-12)
	near(t, "seat 1 wins", s.Seats[1].Wins, 0.5, 1e-12)
	near(t, "b in seat 0", s.Agents[1].PerSeat[0].Rate, 0.5, 1e-12)
	if s.Steps.Mean != 15 || s.Steps.Min != 10 || s.Steps.Max != 20 || s.Turns.Median != 5 {
		t.Errorf("lengths: %+v %+v", s.Steps, s.Turns)
	}
	if s.EndReason["two-colours"] != 1 || s.EndReason["turn-limit"] != 1 {
		t.Errorf("end reasons: %v", s.EndReason)
	}
}

func TestSeatAgents_EveryAgentPlaysEverySeatEqually(t *testing.T) {
	for agents := 1; agents <= 5; agents++ {
		for players := 3; players <= 5; players++ {
			games := agents * 6
			count := make([][]int, agents)
			for i := range count {
				count[i] = make([]int, players)
			}
			var seats []int
			for g := 0; g < games; g++ {
				seats = SeatAgents(g, agents, players, seats)
				seen := map[int]bool{}
				for s, a := range seats {
					count[a][s]++
					if agents >= players && seen[a] {
						t.Fatalf("%d agents, %d players, game %d: agent %d sits twice", agents, players, g, a)
					}
					seen[a] = true
				}
			}
			for a := range count {
				for s := range count[a] {
					if count[a][s] != games/agents {
						t.Errorf("%d agents, %d players: agent %d in seat %d %d times, want %d", agents, players, a, s, count[a][s], games/agents)
					}
				}
			}
		}
	}
}

func TestSummarize_RepeatedNamesArePooled(t *testing.T) {
	r := &Result{
		Agents:  []string{"x", "random", "random"},
		Options: rules.Options{Players: 3},
		Games: []GameResult{
			{Agents: []int{0, 1, 2}, Scores: []rules.Score{score(50, 1, true), score(40, 2, false), score(30, 3, false)}},
			{Agents: []int{1, 2, 0}, Scores: []rules.Score{score(60, 1, true), score(20, 2, false), score(10, 3, false)}},
		},
	}
	s := Summarize(r)
	if len(s.Agents) != 2 || s.Agents[1].Name != "random" || s.Agents[1].Games != 4 {
		t.Fatalf("agents %+v, want x and random (4 seats)", s.Agents)
	}
	near(t, "random wins", s.Agents[1].Wins, 1, 1e-12)
	rt := DefaultRatingModel.Rate(r)
	if len(rt) != 2 || rt[0].Games+rt[1].Games != 6 {
		t.Fatalf("ratings %+v", rt)
	}
}

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

// Who moves first is drawn at setup, so the turn-order rates follow the drawn first player,
// not seat 0: here the first player wins every game while sitting in a different seat each time.
func TestSummarize_TurnOrderFollowsTheDrawnFirstPlayer(t *testing.T) {
	opts := rules.DefaultOptions()
	opts.Players = 3
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	seedFirst := map[int]uint64{}
	for seed := uint64(1); len(seedFirst) < 3; seed++ {
		if f := g.DrawSetup(seed).First; seedFirst[f] == 0 {
			seedFirst[f] = seed
		}
	}
	r := &Result{Agents: []string{"a", "b", "c"}, Options: opts}
	for first := 0; first < 3; first++ {
		sc := []rules.Score{score(10, 2, false), score(10, 2, false), score(10, 2, false)}
		sc[first] = score(50, 1, true)
		// The player after the first (in turn order) is second.
		sc[(first+1)%3] = score(30, 2, false)
		sc[(first+2)%3] = score(20, 3, false)
		r.Games = append(r.Games, GameResult{Seed: seedFirst[first], Agents: []int{0, 1, 2}, Scores: sc})
	}
	s := Summarize(r)
	if len(s.TurnOrder) != 3 {
		t.Fatalf("TurnOrder %+v", s.TurnOrder)
	}
	near(t, "first player's wins", s.TurnOrder[0].Wins, 3, 1e-12)
	near(t, "second player's wins", s.TurnOrder[1].Wins, 0, 1e-12)
	for seat := 0; seat < 3; seat++ {
		near(t, "seat wins", s.Seats[seat].Wins, 1, 1e-12)
	}
}
