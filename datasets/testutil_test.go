package datasets

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

const testEncoding = "test-enc-1"

func testMeta(policy, value bool) *Meta {
	m := &Meta{
		EncodingVersion: testEncoding,
		ObsDim:          11,
		Features:        []Feature{{Name: "cash", Offset: 0, Size: 3}, {Name: "board", Offset: 3, Size: 8}},
		NumActions:      13,
		PhaseNames:      []string{"turn", "place", "bid"},
		Seats:           3,
		RulesOptions:    json.RawMessage(`{"players":3}`),
		ToolVersion:     "test",
		Reward:          "win-loss",
		Policy:          policy,
		Value:           value,
	}
	for a := 0; a < m.NumActions; a++ {
		m.ActionNames = append(m.ActionNames, fmt.Sprintf("a%d", a))
	}
	return m
}

// fakeGame builds a random but valid game with id id under m.
func fakeGame(m *Meta, id uint64, rng *rand.Rand) (*Game, []Step) {
	n := 1 + rng.IntN(40)
	g := &Game{
		GameID: id, Seed: rng.Uint64(), Options: `{"players":3,"seed":1}`,
		Length: int32(n), Turns: int32(n / 3), EndReason: "two-colours",
		Duration: time.Duration(rng.IntN(1e6)) * time.Microsecond,
	}
	for s := 0; s < m.Seats; s++ {
		g.Agents = append(g.Agents, fmt.Sprintf("agent%d", s%2))
		sc := Score{Cash: rng.Int32N(50), Island: rng.Int32N(80), Leftover: rng.Int32N(10), Loans: -rng.Int32N(22),
			DiscardedCount: rng.Int32N(4), Discarded: "red", AllColours: rng.IntN(2) == 0, FactoryContainers: rng.Int32N(5), Rank: int8(1 + s)}
		if s == 1 {
			sc.GoldAs = "blue"
		}
		sc.Total = sc.Cash + sc.Island + sc.Leftover + sc.Loans
		sc.Winner = s == 0
		g.Scores = append(g.Scores, sc)
	}
	g.Winners = []int8{0}
	if rng.IntN(3) == 0 {
		g.Winners = append(g.Winners, 2)
	}
	steps := make([]Step, n)
	rewards := make([]float32, n*m.Seats)
	returns := make([]float32, n*m.Seats)
	for t := range steps {
		for s := 0; s < m.Seats; s++ {
			rewards[t*m.Seats+s] = float32(rng.IntN(5)) - 2
		}
	}
	ReturnsToGo(rewards, m.Seats, returns)
	for t := range steps {
		s := &steps[t]
		s.GameID, s.Step, s.Turn = id, int32(t), int32(t/3)
		s.Decider = int8(t % m.Seats)
		s.Phase = uint8(rng.IntN(len(m.PhaseNames)))
		s.Obs = make([]float32, m.ObsDim)
		for i := range s.Obs {
			s.Obs[i] = rng.Float32()
		}
		for a := 0; a < m.NumActions; a++ {
			if rng.IntN(3) == 0 {
				s.Legal = append(s.Legal, a)
			}
		}
		if len(s.Legal) == 0 {
			s.Legal = []int{0}
		}
		s.Action = int32(s.Legal[rng.IntN(len(s.Legal))])
		s.ActionText = fmt.Sprintf("act %d", s.Action)
		s.Reward = rewards[t*m.Seats+int(s.Decider)]
		s.Done = t == n-1
		s.Returns = returns[t*m.Seats : (t+1)*m.Seats]
		if m.Policy {
			s.Policy = make([]float32, m.NumActions)
			for _, a := range s.Legal {
				s.Policy[a] = 1 / float32(len(s.Legal))
			}
		}
		if m.Value {
			s.Value = rng.Float32()*2 - 1
		}
	}
	return g, steps
}

func newTestRand() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }
