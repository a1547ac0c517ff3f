package training

import (
	"fmt"
	"hash/fnv"

	"github.com/container-rl/container/env/rules"
)

// Samples is an in-memory behaviour-cloning dataset: one row per decision.
type Samples struct {
	EncodingVersion string
	// Source says where the samples come from (a dataset's seed, games and agents, or the
	// teachers' games); a behaviour-cloning run records it and refuses to resume on other
	// data. Empty: not known.
	Source     string
	Rules      rules.Options
	ObsDim     int
	NumActions int
	ValueDim   int
	Obs        []float32 // [N*ObsDim]
	Mask       []byte    // [N*MaskBytes()] legal-action bits, LSB first
	Actions    []int32   // [N]
	Values     []float32 // [N*ValueDim] each seat's outcome, seat 0 = the decider
	Games      []uint64  // [N] game id, for the train/validation split
	// Policy is a search's target distribution [N*NumActions] (train exit's replay buffer);
	// nil for behaviour cloning.
	Policy []float32
}

// MaskBytes is the packed width of one mask row.
func (s *Samples) MaskBytes() int { return (s.NumActions + 7) / 8 }

// Len is the number of rows.
func (s *Samples) Len() int { return len(s.Actions) }

// Append adds one row; legal lists the legal action ids.
func (s *Samples) Append(game uint64, obs []float32, legal []int, action int, values []float32) {
	s.Obs = append(s.Obs, obs...)
	row := make([]byte, s.MaskBytes())
	for _, a := range legal {
		row[a/8] |= 1 << (a % 8)
	}
	s.Mask = append(s.Mask, row...)
	s.Actions = append(s.Actions, int32(action))
	s.Values = append(s.Values, values...)
	s.Games = append(s.Games, game)
}

// Check verifies the slices agree with the declared widths and every action is legal.
func (s *Samples) Check() error {
	n := s.Len()
	mb := s.MaskBytes()
	switch {
	case s.ObsDim <= 0 || s.NumActions <= 0 || s.ValueDim <= 0:
		return fmt.Errorf("%w: samples with widths obs %d actions %d values %d", ErrConfig, s.ObsDim, s.NumActions, s.ValueDim)
	case len(s.Obs) != n*s.ObsDim || len(s.Mask) != n*mb || len(s.Values) != n*s.ValueDim || len(s.Games) != n:
		return fmt.Errorf("%w: samples slices disagree with %d rows", ErrConfig, n)
	}
	for i, a := range s.Actions {
		if a < 0 || int(a) >= s.NumActions || s.Mask[i*mb+int(a)/8]&(1<<(a%8)) == 0 {
			return fmt.Errorf("%w: row %d: action %d is not legal", ErrConfig, i, a)
		}
	}
	return nil
}

// Split returns the row indices of the training and validation sets, split by game: a game's
// rows all go to validation when a hash of its id falls under valPercent.
func (s *Samples) Split(valPercent int) (train, val []int) {
	for i, g := range s.Games {
		if heldOut(g, valPercent) {
			val = append(val, i)
		} else {
			train = append(train, i)
		}
	}
	return train, val
}

// heldOut reports whether game g belongs to the validation set: a hash of its id falls
// under valPercent (of 100).
func heldOut(g uint64, valPercent int) bool {
	if valPercent <= 0 {
		return false
	}
	h := fnv.New64a()
	var b [8]byte
	putUint64(b[:], g)
	h.Write(b[:])
	return int(h.Sum64()%100) < valPercent
}

// fill copies the rows idx into b (growing its slices once).
func (s *Samples) fill(b *Batch, idx []int) {
	s.size(b, len(idx))
	s.fillAt(b, 0, idx)
}

// size sizes b for rows rows of s's widths.
func (s *Samples) size(b *Batch, rows int) {
	D, A, V := s.ObsDim, s.NumActions, s.ValueDim
	b.Rows = rows
	b.Obs = grow(b.Obs, rows*D)
	b.Mask = grow(b.Mask, rows*A)
	b.Values = grow(b.Values, rows*V)
	b.Policy = b.Policy[:0]
	if s.Policy != nil {
		b.Policy = grow(b.Policy, rows*A)
	}
	if cap(b.Actions) < rows {
		b.Actions = make([]int32, rows)
	}
	b.Actions = b.Actions[:rows]
}

// fillAt copies the rows idx into b's rows from r0 on (b sized by size).
func (s *Samples) fillAt(b *Batch, r0 int, idx []int) {
	D, A, V, mb := s.ObsDim, s.NumActions, s.ValueDim, s.MaskBytes()
	for k, i := range idx {
		r := r0 + k
		copy(b.Obs[r*D:(r+1)*D], s.Obs[i*D:(i+1)*D])
		copy(b.Values[r*V:(r+1)*V], s.Values[i*V:(i+1)*V])
		unpackMask(b.Mask[r*A:(r+1)*A], s.Mask[i*mb:(i+1)*mb])
		b.Actions[r] = s.Actions[i]
		if s.Policy != nil {
			copy(b.Policy[r*A:(r+1)*A], s.Policy[i*A:(i+1)*A])
		}
	}
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// unpackMask writes the legal-action bit set bits (bit a%8 of byte a/8 for action a) into m
// as 1 for a legal action and 0 otherwise.
func unpackMask(m []float32, bits []byte) {
	for a := range m {
		m[a] = float32(bits[a/8] >> (a % 8) & 1)
	}
}
