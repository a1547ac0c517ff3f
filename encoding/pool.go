package encoding

import "github.com/container-rl/container/env/rules"

// Pool holds one Encoder with its observation and mask buffers per worker goroutine, for
// drivers that encode every decision on many goroutines (container bench --encode,
// self-play writers). Worker w may only use slot w.
type Pool struct {
	slots []poolSlot
}

type poolSlot struct {
	enc       *Encoder
	obs, mask []float32
}

// NewPool returns a pool of workers slots for the game's options (standard observation).
func NewPool(g *rules.Game, workers int) *Pool {
	p := &Pool{slots: make([]poolSlot, max(workers, 1))}
	for w := range p.slots {
		e := NewEncoder(g)
		p.slots[w] = poolSlot{enc: e, obs: make([]float32, e.Size()), mask: make([]float32, e.NumActions())}
	}
	return p
}

// Encode writes the observation and legal-action mask of s's current decider into worker
// w's buffers and returns them (valid until w's next call). At a terminal state the
// observation is seat 0's and the mask is all zero. It allocates nothing.
func (p *Pool) Encode(w int, s *rules.State) (obs, mask []float32) {
	sl := &p.slots[w]
	seat := s.CurrentPlayer()
	if seat < 0 {
		seat = 0
	}
	_ = sl.enc.Observe(s, seat, sl.obs)
	_, _ = sl.enc.Mask(s, sl.mask)
	return sl.obs, sl.mask
}

// Encoder returns worker w's encoder.
func (p *Pool) Encoder(w int) *Encoder { return p.slots[w].enc }
