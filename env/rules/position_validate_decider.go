package rules

// Machine checks of the turn counters and of who decides: the counters that follow the
// phase, the turn start, the decider of each phase and the lenders of player loans.

// checkTurnCounters checks the active turn's counters against the phase.
func (s *State) checkTurnCounters() error {
	m := &s.machine
	if ph, _ := s.underPhase(); ph == PhaseTerminal || (ph == PhaseBankPayColour && m.PayResume == resumeGameEnd) {
		return nil // the last turn's counters, kept
	}
	if m.CalledBank && (s.classic() || m.ActionsUsed == 0) {
		return machineErr("called_bank", "set with %d actions used%s", m.ActionsUsed, map[bool]string{true: " in the Classic variant", false: ""}[s.classic()])
	}
	if m.Produced && m.ActionsUsed == 0 {
		return machineErr("produced", "set with no action used")
	}
	if m.CalledBank && m.WonAuction {
		return machineErr("called_bank", "a player who won an auction this turn may not call the Bank")
	}
	if under, decision := s.underPhase(); !decision || s.atTurnStart(under) {
		if m.ActionsUsed != 0 || m.Produced || m.CalledBank || m.Repays != 0 || m.LuxuryUsed {
			return machineErr("actions_used", "the turn start (%s) comes before any action, repayment or Acquire Luxury", m.Phase)
		}
		// Any seat deciding at the turn start (a lender seizing, the defaulter's right-hand
		// player choosing) may have asked for a loan there, so loan_rejected is not bounded.
		if m.WonAuction && !(under == PhaseBankPayColour && m.Stage == stageWin) {
			return machineErr("won_auction", "auctions are won after the interest and default, paying for them (%s)", m.Phase)
		}
	}
	under, _ := s.underPhase()
	switch under {
	case PhaseProduceColour, PhaseRearrange, PhaseBuyFactory, PhaseBuyHarbor, PhaseLoadBank,
		PhaseDeliveryBid, PhaseRunoffBid, PhaseDeliveryTie, PhaseDeliveryAccept,
		PhaseBankCashBid, PhaseBankContainerBid, PhaseReturnBid:
		if m.ActionsUsed == 0 {
			return machineErr("actions_used", "0 during %s, which is part of an action", under)
		}
	case PhasePlace:
		if m.ActionsUsed == 0 && m.Action != AcquireLuxury {
			return machineErr("actions_used", "0 while placing for %s, which is an action", Move{Kind: m.Action})
		}
	}
	switch under {
	case PhaseBankCashBid, PhaseBankContainerBid, PhaseReturnBid:
		if !m.CalledBank {
			return machineErr("called_bank", "not set during %s", under)
		}
	case PhaseLuxuryPick:
		if !m.LuxuryUsed {
			return machineErr("luxury_used", "not set during %s", under)
		}
	}
	if (m.Action == Produce || under == PhaseProduceColour) && !m.Produced && under != PhaseTerminal {
		return machineErr("produced", "not set during a Produce action")
	}
	return nil
}

// atTurnStart reports whether phase p (not a loan decision) is part of the turn start.
func (s *State) atTurnStart(p Phase) bool {
	switch p {
	case PhaseInterestChoice, PhaseSeize, PhaseLenderChoice:
		return true
	case PhaseBankPayColour:
		return s.machine.PayResume == resumeTurnStart
	}
	return false
}

// checkDecider checks who decides.
func (s *State) checkDecider() error {
	m := &s.machine
	a := s.Active
	want := func(seat int8, who string) error {
		if m.Decider != seat {
			return machineErr("decider", "%d, but %s decides %s (seat %d)", m.Decider, who, m.Phase, seat)
		}
		return nil
	}
	switch m.Phase {
	case PhaseTerminal:
		return want(-1, "no one")
	case PhaseTurn, PhaseInterestChoice, PhaseProduceColour, PhasePlace, PhaseRearrange, PhaseBuyFactory,
		PhaseBuyHarbor, PhaseLoadBank, PhaseLuxuryPick, PhaseBankCashBid, PhaseBankContainerBid,
		PhaseDeliveryTie, PhaseDeliveryAccept:
		return want(a, "the active seat")
	case PhaseDeliveryBid, PhaseRunoffBid:
		if m.Decider == a {
			return machineErr("decider", "the deliverer (active seat %d) does not bid on its own cargo", a)
		}
	case PhaseReturnBid:
		if m.Returner < 0 || m.Returner == a {
			return machineErr("returner", "%d: an outbid opponent of the active seat puts its bid back", m.Returner)
		}
		return want(m.Returner, "the outbid player (returner)")
	case PhaseBankPayColour:
		return want(m.Payer, "the payer")
	case PhaseLoanTie, PhaseLoanAccept:
		return want(m.Borrower, "the borrower")
	case PhaseLoanOffer:
		if m.Decider == m.Borrower {
			return machineErr("decider", "the borrower %d does not offer itself a loan", m.Borrower)
		}
	case PhaseIncentiveBid:
		if m.Offers&(1<<m.Decider) == 0 {
			return machineErr("decider", "seat %d made no offer (offers %#x) but bids an incentive", m.Decider, m.Offers)
		}
	case PhaseSeize:
		if m.SeizeAt != seizeAnywhere {
			return want(int8(s.right(int(a))), "the player on the defaulter's right")
		}
		fallthrough
	case PhaseLenderChoice:
		if !s.lends(int(m.Decider), int(a)) {
			return machineErr("decider", "seat %d lent nothing to the defaulting active seat %d", m.Decider, a)
		}
	}
	return nil
}

// lends reports whether lender holds a player loan of borrower.
func (s *State) lends(lender, borrower int) bool {
	p := &s.Players[borrower]
	for i := 0; i < int(p.NumLoans) && i < MaxLoans; i++ {
		if int(p.Loans[i].Lender) == lender && lender != borrower {
			return true
		}
	}
	return false
}
