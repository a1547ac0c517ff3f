package training

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

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
// ismcts bots). valueMix weighs the search's own value estimate into the decider's target:
// target = (1-valueMix)*outcome + valueMix*search value; the outcome is the game's rank
// reward for each seat, or -1 (a loss) for every seat when the game ended at the turn limit.
func loadExitRows(dir string, obsDim, numActions, seats int, valueMix float64) (*exitRows, error) {
	ds, err := datasets.Open(dir, datasets.AcceptEncodings(encoding.Versions()...))
	if err != nil {
		return nil, err
	}
	m := ds.Meta
	switch {
	case !m.Policy || !m.Value:
		return nil, fmt.Errorf("%w: buffer %s has no policy and value columns (not written by train exit)", ErrCorrupt, dir)
	case m.ObsDim != obsDim || m.NumActions != numActions || m.Seats != seats:
		return nil, fmt.Errorf("%w: buffer %s has %d features, %d actions, %d seats; the run's network reads %d, %d, %d",
			ErrIncompatible, dir, m.ObsDim, m.NumActions, m.Seats, obsDim, numActions, seats)
	}
	if !ds.Manifest.Complete() {
		return nil, fmt.Errorf("%w: buffer %s is incomplete (%d of %d shards)", ErrCorrupt, dir, len(ds.Manifest.Shards), ds.Manifest.NumShards())
	}
	r := &exitRows{ObsDim: obsDim, NumActions: numActions, ValueDim: seats}
	lost := map[uint64]bool{}
	for g, err := range ds.Games() {
		if err != nil {
			return nil, err
		}
		r.Games++
		r.Decisions += int64(g.Length)
		r.Turns += int64(g.Turns)
		if stalled(g.EndReason) {
			lost[g.GameID] = true
			r.TurnLimitGames++
		}
	}
	// Room for every decision up front (forced ones are left out, so a little is unused):
	// the rows are copied once, not again each time an append outgrows its array.
	_, steps := ds.Manifest.GamesDone()
	if steps > 0 && steps < 1<<31 {
		n := int(steps)
		r.Obs = make([]float32, 0, n*obsDim)
		r.Mask = make([]byte, 0, n*r.maskBytes())
		r.Policy = make([]float32, 0, n*numActions)
		r.Values = make([]float32, 0, n*seats)
	}
	mb := r.maskBytes()
	if m.MaskBytes() != mb {
		return nil, fmt.Errorf("%w: buffer %s: mask width %d, want %d", ErrCorrupt, dir, m.MaskBytes(), mb)
	}
	P, D, A := seats, obsDim, numActions
	for c, err := range ds.StepBatches() {
		if err != nil {
			return nil, err
		}
		for i := range c.Len() {
			mask := c.Mask.Value(i)
			legal := 0
			for _, b := range mask {
				legal += bits.OnesCount8(b)
			}
			if legal < 2 {
				r.Skipped++
				continue
			}
			pol := c.Policy[i*A : (i+1)*A]
			var sum float32
			for a, p := range pol {
				if p < 0 || p > 1 || (p > 0 && mask[a/8]&(1<<(a%8)) == 0) {
					return nil, fmt.Errorf("%w: buffer %s: row %d gives probability %g to action %d, which is not legal", ErrCorrupt, dir, i, p, a)
				}
				sum += p
			}
			if sum < 0.99 || sum > 1.01 {
				return nil, fmt.Errorf("%w: buffer %s: row %d's visit distribution sums to %g", ErrCorrupt, dir, i, sum)
			}
			r.Obs = append(r.Obs, c.Obs[i*D:(i+1)*D]...)
			r.Mask = append(r.Mask, mask...)
			r.Policy = append(r.Policy, pol...)
			d := int(c.Decider.Value(i))
			stall := lost[c.GameID.Value(i)]
			for k := range P {
				out := c.Returns[i*P+(d+k)%P]
				if stall {
					out = -1
				}
				if k == 0 && valueMix > 0 {
					out = float32((1-valueMix)*float64(out) + valueMix*float64(c.Value.Value(i)))
				}
				r.Values = append(r.Values, out)
			}
		}
	}
	return r, nil
}

// exitBatch is one training batch of search targets.
type exitBatch struct {
	Rows   int
	Obs    []float32 // [B*D]
	Mask   []float32 // [B*A], 1 = legal
	Policy []float32 // [B*A] target distribution
	Values []float32 // [B*V]
}

// rowRef names one row of the window: a generation's rows and an index.
type rowRef struct {
	gen *exitRows
	i   int
}

// sampleExitBatch fills b with rows drawn uniformly (with replacement) from refs.
func sampleExitBatch(b *exitBatch, refs []rowRef, rows int, rng *rand.Rand) {
	if len(refs) == 0 {
		b.Rows = 0
		return
	}
	g0 := refs[0].gen
	D, A, V := g0.ObsDim, g0.NumActions, g0.ValueDim
	b.Rows = rows
	b.Obs, b.Mask, b.Policy, b.Values = grow(b.Obs, rows*D), grow(b.Mask, rows*A), grow(b.Policy, rows*A), grow(b.Values, rows*V)
	mb := g0.maskBytes()
	for r := range rows {
		ref := refs[rng.IntN(len(refs))]
		g, i := ref.gen, ref.i
		copy(b.Obs[r*D:(r+1)*D], g.Obs[i*D:(i+1)*D])
		copy(b.Policy[r*A:(r+1)*A], g.Policy[i*A:(i+1)*A])
		copy(b.Values[r*V:(r+1)*V], g.Values[i*V:(i+1)*V])
		unpackMask(b.Mask[r*A:(r+1)*A], g.Mask[i*mb:(i+1)*mb])
	}
}
