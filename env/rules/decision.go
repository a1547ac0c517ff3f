package rules

// CurrentPlayer is the seat that decides now, or -1 when the game is over.
func (s *State) CurrentPlayer() int {
	if s.Ended != NotEnded {
		return -1
	}
	return int(s.Machine.Decider)
}

// Decision describes the pending decision.
func (s *State) Decision() Decision {
	m := &s.Machine
	d := Decision{
		Phase:       m.Phase,
		Decider:     s.CurrentPlayer(),
		Active:      int(s.Active),
		District:    m.District,
		Counterpart: -1,
		Pending:     m.Pending,
		Free:        m.Free,
	}
	switch m.Phase {
	case PhaseBuyFactory, PhaseBuyHarbor, PhaseSeize, PhaseDeliveryAccept:
		d.Counterpart = int(m.Counterpart)
	case PhaseDeliveryBid, PhaseRunoffBid, PhaseDeliveryTie:
		d.Counterpart = int(s.Active)
	case PhaseReturnBid:
		d.Counterpart = int(s.Active) // the seat that outbid the decider
	case PhaseBankCashBid, PhaseBankContainerBid:
		d.ToBeat = int(m.ToBeat)
	case PhaseBankPayColour:
		d.Pending = m.Pay
	case PhaseLoanOffer, PhaseIncentiveBid, PhaseLoanTie, PhaseLoanAccept:
		d.Counterpart = int(m.Borrower)
	case PhaseLenderChoice:
		d.Counterpart = int(m.Counterpart)
	}
	if m.Phase == PhaseSeize {
		d.District = seizeDistrict(m.SeizeAt)
	}
	if lo, hi, ok := s.amountRange(); ok {
		d.MinAmount, d.MaxAmount = int(lo), int(hi)
		d.AmountBase = int(m.AmountBase)
	}
	return d
}
