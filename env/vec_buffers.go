package env

import "fmt"

// VecBuffers are caller-owned buffers a VecEnv writes into instead of allocating its own, so a
// host program (the Python package, through the C ABI in capi/) can read them without a copy.
// A nil slice is allocated by the VecEnv as usual, except for the optional outputs (Legal,
// NumLegal, Mask8), which are written only when given. Lengths must be exact.
type VecBuffers struct {
	Obs        []float32 // N x D
	Mask       []float32 // N x A
	Rewards    []float32 // N x P
	Agents     []int     // N
	Terminated []bool    // N
	Truncated  []bool    // N
	// Legal (N x A) receives row i's legal ids in ascending order, padded with -1; NumLegal
	// (N) their count. Both or neither.
	Legal, NumLegal []int32
	// Mask8 (N x A) receives the legal-action mask as bytes (1 legal, 0 not).
	Mask8 []int8
}

// NewVecInto is NewVec writing into the buffers b (see VecBuffers).
func NewVecInto(n int, o Options, baseSeed uint64, workers int, b VecBuffers) (*VecEnv, error) {
	return newVec(n, o, baseSeed, workers, b)
}

// useBuffers sets v's buffers from b (N, D, A, P already set), allocating those left nil.
func (v *VecEnv) useBuffers(b VecBuffers) error {
	n, d, a, p := v.N, v.D, v.A, v.P
	check := func(name string, got, want int) error {
		if got != want {
			return fmt.Errorf("%w: %s buffer has %d entries; want %d", ErrInvalidOptions, name, got, want)
		}
		return nil
	}
	type sized struct {
		name      string
		got, want int
		given     bool
	}
	for _, s := range []sized{
		{"observation", len(b.Obs), n * d, b.Obs != nil}, {"mask", len(b.Mask), n * a, b.Mask != nil},
		{"reward", len(b.Rewards), n * p, b.Rewards != nil}, {"agent", len(b.Agents), n, b.Agents != nil},
		{"terminated", len(b.Terminated), n, b.Terminated != nil}, {"truncated", len(b.Truncated), n, b.Truncated != nil},
		{"legal", len(b.Legal), n * a, b.Legal != nil}, {"legal-count", len(b.NumLegal), n, b.NumLegal != nil},
		{"byte-mask", len(b.Mask8), n * a, b.Mask8 != nil},
	} {
		if s.given {
			if err := check(s.name, s.got, s.want); err != nil {
				return err
			}
		}
	}
	if (b.Legal == nil) != (b.NumLegal == nil) {
		return fmt.Errorf("%w: the legal and legal-count buffers come together", ErrInvalidOptions)
	}
	v.Obs, v.Mask, v.Rewards = orMake(b.Obs, n*d), orMake(b.Mask, n*a), orMake(b.Rewards, n*p)
	v.Agents, v.Terminated, v.Truncated = orMake(b.Agents, n), orMake(b.Terminated, n), orMake(b.Truncated, n)
	v.legal, v.numLegal, v.mask8 = b.Legal, b.NumLegal, b.Mask8
	return nil
}

func orMake[T any](s []T, n int) []T {
	if s == nil {
		return make([]T, n)
	}
	return s
}

// writeLegal fills game i's rows of the optional legal, count and byte-mask outputs; full
// pads the whole legal row (the previous count is not known yet).
func (v *VecEnv) writeLegal(i int, e *Env, full bool) {
	legal := e.Legal()
	if v.legal != nil {
		row := v.legal[i*v.A : (i+1)*v.A]
		for k, id := range legal {
			row[k] = int32(id)
		}
		// Pad with -1 past the count; entries past the previous count are already -1.
		prev := int(v.numLegal[i])
		if full || prev < 0 || prev > len(row) {
			prev = len(row)
		}
		for k := len(legal); k < prev; k++ {
			row[k] = -1
		}
		v.numLegal[i] = int32(len(legal))
	}
	if v.mask8 != nil {
		m := v.mask8[i*v.A : (i+1)*v.A]
		clear(m)
		for _, id := range legal {
			m[id] = 1
		}
	}
}
