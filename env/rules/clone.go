package rules

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
