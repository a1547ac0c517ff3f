package rules

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
	others := uint8(1<<s.n() - 1)
	if seat >= 0 && seat < s.n() {
		others &^= 1 << seat
	} // any other seat (-1 once the game is over) sees no one's sealed values
	m.Hidden = false
	if int(m.Decider) != seat {
		m.AmountBase = 0 // the decider's amount in progress (a sealed bid may be one)
	}
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
