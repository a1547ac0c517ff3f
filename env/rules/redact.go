package rules

// Redact writes into dst what seat may see: opponents' scoring cards become Unknown, other
// seats' unrevealed delivery bids, runoff additions and loan incentives read 0 (the machine's
// Hidden flag marks it), history is dropped, and Steps counts public decisions only (PublicSteps). dst must not be s. Encoders and renderers read only redacted views.
func (s *State) Redact(seat int, dst *State) {
	h := dst.history
	*dst = *s
	dst.history = h[:0]
	// How many amount:+100 presses were made tells whether some sealed amount reached $100:
	// the view counts public decisions only (PublicSteps).
	dst.Steps, dst.Presses = s.PublicSteps(), 0
	for i := 0; i < s.n(); i++ {
		if i != seat {
			dst.Players[i].Card = Unknown
		}
	}
	// Hidden is decided from public facts only (who has bid), never from the values.
	m := &dst.machine
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
		hideOthers(&m.Bids, s.n(), seat)
	}
	if !m.RunoffRevealed {
		m.Hidden = m.Hidden || m.HasRunoff&others != 0
		hideOthers(&m.Runoff, s.n(), seat)
	}
	if !m.IncentiveRevealed {
		m.Hidden = m.Hidden || m.HasIncentive&others != 0
		hideOthers(&m.Incentives, s.n(), seat)
	}
}

// PublicSteps is the number of decisions applied so far that every seat sees: Steps less the
// amount:+100 presses (Presses), which build an amount, sealed or not, in several decisions
// while the other seats see one. A redacted view's Steps is this count (and its Presses 0).
// Each amount counts once, as every decision did before amounts above $99 had +100 presses.
func (s *State) PublicSteps() int32 { return s.Steps - s.Presses }

// hideOthers zeroes the sealed values of every seat but seat.
func hideOthers(v *[MaxPlayers]int32, n, seat int) {
	for i := 0; i < n; i++ {
		if i != seat {
			v[i] = 0
		}
	}
}

// DecisionFor writes into dst the pending decision as seat may know it, the same as the
// Decision of seat's redacted view (Redact): other seats' sealed values not yet revealed read
// 0; when another seat decides an amount, its amount in progress (AmountBase) reads 0 and
// MinAmount, MaxAmount are computed from those seen values (an incentive bid's limit is the
// lender's cash less its sealed delivery bid, which seat has not seen, so seat gets the bound
// it can work out: the cash less what it has seen). Every other field is the state's own,
// and the decider's own decision is the state's. The observation encoder reads it with the
// view (encoding.Encoder.Observe); like Redact it fills a caller's value, so a hot loop
// copies nothing.
func (s *State) DecisionFor(seat int, dst *Decision) {
	s.fillDecision(dst)
	m := &s.machine
	if !m.Revealed {
		hideOthers(&dst.Delivery.Bids, s.n(), seat)
	}
	if !m.RunoffRevealed {
		hideOthers(&dst.Delivery.Runoff, s.n(), seat)
	}
	if !m.IncentiveRevealed {
		hideOthers(&dst.Loan.Incentives, s.n(), seat)
	}
	if int(m.Decider) != seat {
		dst.AmountBase = 0
		if lo, hi, ok := s.amountRangeSeen(&dst.Delivery.Bids, &dst.Delivery.Runoff); ok {
			dst.MinAmount, dst.MaxAmount = int(lo), int(hi)
		}
	}
}
