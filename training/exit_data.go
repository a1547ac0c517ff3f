package training

import (
	"context"
	"fmt"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
)

// exitRows is one generation of the replay buffer in memory: every decision with at least
// two legal actions (a forced move teaches nothing and the search does not look at it), its
// observation, legal mask, the search's root visit distribution (policy target) and value
// targets for every seat, seat 0 = the decider.
type exitRows struct {
	ObsDim, NumActions, ValueDim int
	Obs                          []float32 // [N*ObsDim]
	Mask                         []byte    // [N*MaskBytes] legal bits, LSB first
	Policy                       []float32 // [N*NumActions] visit shares
	Values                       []float32 // [N*ValueDim]
	// Per game of the generation (forced moves included): how many ended at the turn limit
	// (or were truncated), decisions and turns in all.
	Games, TurnLimitGames int
	Decisions, Turns      int64
	// Skipped counts the forced decisions left out.
	Skipped int
}

func (r *exitRows) Len() int { return len(r.Values) / max(r.ValueDim, 1) }

func (r *exitRows) maskBytes() int { return (r.NumActions + 7) / 8 }

// stalled reports whether a game's end reason is the safety turn limit (or a truncation):
// the value targets of such a game are a loss for every seat.
func stalled(endReason string) bool { return endReason == "turn-limit" || endReason == "truncated" }

// loadExitRows reads one generation's dataset (container selfplay --record-policy output of
// ismcts bots) into memory, through a Search stream (see StreamOptions.Search: forced moves
// left out, a turn-limit game a loss for every seat, valueMix weighing in the search's value).
// Training streams the window instead (exitRun.train); this serves tests and inspection.
func loadExitRows(dir string, obsDim, numActions, seats int, valueMix float64) (*exitRows, error) {
	s, err := openExitStream([]string{dir}, obsDim, numActions, seats, valueMix, 1, 0, nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	all, err := s.ReadAll()
	if err != nil {
		return nil, err
	}
	st := s.Games[0]
	r := &exitRows{ObsDim: obsDim, NumActions: numActions, ValueDim: seats, Obs: all.Obs, Mask: all.Mask, Policy: all.Policy, Values: all.Values,
		Games: st.Games, TurnLimitGames: st.TurnLimitGames, Decisions: st.Decisions, Turns: st.Turns}
	r.Skipped = int(st.Decisions) - r.Len()
	return r, nil
}

// openExitStream opens replay buffer generations as a Search stream of buffer decisions,
// refusing buffers of other sizes than the run's network.
func openExitStream(dirs []string, obsDim, numActions, seats int, valueMix float64, buffer int, seed uint64, ctx context.Context) (*Stream, error) {
	for _, dir := range dirs {
		ds, err := datasets.Open(dir, datasets.AcceptEncodings(encoding.Versions()...))
		if err != nil {
			return nil, err
		}
		if m := ds.Meta; m.ObsDim != obsDim || m.NumActions != numActions || m.Seats != seats {
			return nil, fmt.Errorf("%w: buffer %s has %d features, %d actions, %d seats; the run's network reads %d, %d, %d",
				ErrIncompatible, dir, m.ObsDim, m.NumActions, m.Seats, obsDim, numActions, seats)
		}
	}
	return OpenStream(dirs, StreamOptions{Buffer: buffer, Seed: seed, Search: true, ValueMix: valueMix, Ctx: ctx})
}

// exitBatch is one training batch of search targets.
type exitBatch struct {
	Rows   int
	Obs    []float32 // [B*D]
	Mask   []float32 // [B*A], 1 = legal
	Policy []float32 // [B*A] target distribution
	Values []float32 // [B*V]
}
