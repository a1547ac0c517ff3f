package encoding

import (
	"fmt"

	"github.com/container-rl/container/env/rules"
)

// Mask writes the legal-action mask of s's current decider into dst (length
// rules.NumDistinctActions()): 1 for a legal id, 0 otherwise. At a terminal state every
// entry is 0. It returns the number of legal actions.
func (e *Encoder) Mask(s *rules.State, dst []float32) (int, error) {
	return writeMask(e, s, dst, 1)
}

// MaskBool is Mask for a []bool buffer.
func (e *Encoder) MaskBool(s *rules.State, dst []bool) (int, error) {
	return writeMask(e, s, dst, true)
}

// writeMask sets dst[id] = legal for every legal id of s's decider and zeroes the rest.
func writeMask[T float32 | bool](e *Encoder, s *rules.State, dst []T, legal T) (int, error) {
	if len(dst) != rules.NumDistinctActions() {
		return 0, fmt.Errorf("%w: mask buffer of %d, want %d", ErrBufferSize, len(dst), rules.NumDistinctActions())
	}
	clear(dst)
	if s.IsTerminal() {
		return 0, nil
	}
	e.legal = s.LegalActions(e.legal)
	for _, id := range e.legal {
		dst[id] = legal
	}
	return len(e.legal), nil
}

// Legal returns the legal ids computed by the last Mask or MaskBool call (valid until the
// next call; do not modify).
func (e *Encoder) Legal() []int { return e.legal }
