package rules

import "unsafe"

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := &State{}
	c.CopyFrom(s)
	return c
}

// CopyFrom makes s a deep copy of src, reusing s's history storage (no allocation once the
// history capacity suffices).
func (s *State) CopyFrom(src *State) {
	h := s.history
	*s = *src
	if cap(h) < len(src.history) {
		h = make([]Move, 0, max(historyCap, cap(src.history)))
	}
	s.history = append(h[:0], src.history...)
}

// positionBytes is the memory of every position field: from Players up to the history.
// State has no padding-sensitive pointer fields in this range, and Go zeroes and copies
// padding with the struct, so equal positions have equal bytes.
func (s *State) positionBytes() []byte {
	start := unsafe.Offsetof(s.Players)
	end := unsafe.Offsetof(s.history)
	base := unsafe.Pointer(s)
	return unsafe.Slice((*byte)(unsafe.Add(base, start)), end-start)
}

// Hash is a 64-bit FNV-1a hash (word-wise) of the whole position (not the history).
func (s *State) Hash() uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	b := s.positionBytes()
	h := uint64(offset)
	for len(b) >= 8 {
		h ^= *(*uint64)(unsafe.Pointer(&b[0]))
		h *= prime
		b = b[8:]
	}
	for _, c := range b {
		h ^= uint64(c)
		h *= prime
	}
	return h
}

// Redact writes into dst what seat may see: opponents' scoring cards become Unknown, other
// seats' unrevealed delivery bids and runoff additions read 0 (Machine.Hidden marks it),
// history is dropped. dst must not be s. Encoders and renderers read only redacted views.
func (s *State) Redact(seat int, dst *State) {
	h := dst.history
	*dst = *s
	dst.history = h[:0]
	for i := 0; i < s.n(); i++ {
		if i != seat {
			dst.Players[i].Card = Unknown
		}
	}
	// Hidden is decided from public facts only (who has bid), never from the values.
	m := &dst.Machine
	others := uint8(1<<s.n()-1) &^ (1 << seat)
	m.Hidden = false
	if !m.Revealed {
		m.Hidden = m.Hidden || m.HasBid&others != 0
		for i := 0; i < s.n(); i++ {
			if i != seat {
				m.Bids[i] = 0
			}
		}
	}
	if !m.RunoffRevealed {
		m.Hidden = m.Hidden || m.HasRunoff&others != 0
		for i := 0; i < s.n(); i++ {
			if i != seat {
				m.Runoff[i] = 0
			}
		}
	}
	if !m.IncentiveRevealed {
		m.Hidden = m.Hidden || m.HasIncentive&others != 0
		for i := 0; i < s.n(); i++ {
			if i != seat {
				m.Incentives[i] = 0
			}
		}
	}
}
