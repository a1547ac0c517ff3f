package rules

// Machine checks of the Off-Shore Bank and the turn start: Bank bids against the bid to
// beat, the interest and default decisions of a turn start, and Bank payments.

// checkBankBid checks a Bank bid being made or an outbid player putting containers back.
func (s *State) checkBankBid() error {
	m := &s.machine
	a := int(s.Active)
	under, decision := s.underPhase()
	if !decision {
		under = PhaseInterestChoice
	}
	if under != PhaseReturnBid {
		if m.Returner != -1 || m.ReturnFactory.Total() != 0 || m.ReturnHarbor.Total() != 0 {
			return machineErr("returner", "containers being put back outside %s", PhaseReturnBid)
		}
	}
	switch under {
	case PhaseBankCashBid, PhaseBankContainerBid, PhaseReturnBid:
	default:
		return nil
	}
	cash := under == PhaseBankCashBid
	if m.BidKind != TruckAuction && cash != (m.BidKind == ContainerLotAuction) {
		return machineErr("bid_kind", "a %s auction is not bid on in %s", m.BidKind, map[bool]string{true: "cash", false: "containers"}[cash])
	}
	au := &s.Auctions[m.BidKind]
	if !au.Active || int(au.Bidder) != a {
		return machineErr("bid_kind", "the %s auction is not open with the active seat %d as its bidder", m.BidKind, a)
	}
	if au.Cash != 0 || (under != PhaseBankContainerBid && (au.FromFactory.Total() != 0 || au.FromHarbor.Total() != 0)) {
		return machineErr("bid_kind", "the %s auction's tile already holds a bid", m.BidKind)
	}
	value := s.ownValue(a)
	switch under {
	case PhaseBankCashBid:
		if m.ToBeat >= s.Players[a].Cash {
			return machineErr("to_beat", "$%d to beat with $%d in hand", m.ToBeat, s.Players[a].Cash)
		}
	case PhaseBankContainerBid:
		if value == 0 || bidHalves(au)+value <= m.ToBeat {
			return machineErr("to_beat", "%d half-containers to beat with %d on the tile and %d in storage", m.ToBeat, bidHalves(au), value)
		}
	case PhaseReturnBid:
		if m.ReturnFactory.Total() != 0 && m.District == HarborDistrict {
			return machineErr("return_factory", "factory containers are put back before harbor ones")
		}
		if m.District == FactoryDistrict && m.ReturnFactory.Total() != 0 {
			return machineErr("return_factory", "the factory containers being put back are pending")
		}
		if back := m.Pending.halves() + m.ReturnHarbor.halves(); m.ToBeat < back {
			return machineErr("to_beat", "%d half-containers, less than the %d being put back", m.ToBeat, back)
		}
		if value <= m.ToBeat {
			return machineErr("to_beat", "%d half-containers to beat with %d in storage", m.ToBeat, value)
		}
		if m.ReturnHarbor.Total() > s.harborSpace(int(m.Returner)) {
			return machineErr("return_harbor", "%d containers to put back in a harbor with room for %d", m.ReturnHarbor.Total(), s.harborSpace(int(m.Returner)))
		}
	}
	return nil
}

// checkTurnStart checks the turn start (interest, default, auctions won) and the game end.
func (s *State) checkTurnStart() error {
	m := &s.machine
	a := int(s.Active)
	p := &s.Players[a]
	wantStage := stageMenu
	// A loan requested at a turn-start decision (loans at any decision point) keeps that
	// decision's stage.
	ph, _ := s.underPhase()
	switch ph {
	case PhaseInterestChoice, PhaseLenderChoice:
		wantStage = stageLenders
	case PhaseSeize:
		wantStage = stageSeize
		if m.SeizeAt == seizeAnywhere {
			wantStage = stageLenders
		}
	case PhaseBankPayColour:
		if m.PayResume == resumeTurnStart {
			wantStage = stageWin // paying seized containers, or the bid of an auction won
		}
	case PhaseLoanOffer, PhaseIncentiveBid, PhaseLoanTie, PhaseLoanAccept:
		if m.LoanResume == resumeInterest {
			wantStage = stageInterestPay
		}
	}
	if m.Stage != wantStage {
		return machineErr("stage", "%d during %s (want %d)", m.Stage, m.Phase, wantStage)
	}
	if ph == PhaseSeize && m.SeizeAt != seizeAnywhere {
		if m.Unpaid == 0 || int(m.Unpaid)+m.Seized.Total() > MaxLoans {
			return machineErr("unpaid", "%d loans unpaid + %d containers seized during a default", m.Unpaid, m.Seized.Total())
		}
		if loc := s.seizeLocation(a); m.SeizeAt != loc || s.seizeOptions(a, loc) < 2 {
			return machineErr("seize_at", "%d, but the containers are seized from location %d first (a choice only between two or more)", m.SeizeAt, loc)
		}
	} else {
		if m.Unpaid != 0 || m.Seized.Total() != 0 {
			return machineErr("unpaid", "%d unpaid loans and %q seized outside a Bank default", m.Unpaid, m.Seized.Letters())
		}
	}
	if ph == PhaseSeize && m.SeizeAt == seizeAnywhere || ph == PhaseLenderChoice {
		if s.seizeLocation(a) == seizeNothing {
			return machineErr("phase", "%s with nothing of the active seat to seize", m.Phase)
		}
	}
	if m.Stage == stageLenders {
		for i := 0; i < MaxLoans; i++ {
			if m.UnpaidLoans&(1<<i) != 0 && i >= int(p.NumLoans) {
				return machineErr("unpaid_loans", "bit %d is not a loan of the active seat", i)
			}
		}
		if int(m.InterestDue) > int(p.NumLoans) {
			return machineErr("interest_due", "%d loans due, %d held", m.InterestDue, p.NumLoans)
		}
	} else if m.UnpaidLoans != 0 {
		return machineErr("unpaid_loans", "%#x outside the lenders' turn to seize", m.UnpaidLoans)
	}
	if ph == PhaseInterestChoice {
		if m.InterestDue != 2 || p.NumLoans != 2 || p.Cash != 1 || p.Loans[0].Lender == p.Loans[1].Lender || m.UnpaidLoans != 0 {
			return machineErr("interest_due", "choosing which interest to pay needs two loans due from different lenders and $1 in hand")
		}
	}
	gameEnd := ph == PhaseTerminal || (ph == PhaseBankPayColour && m.PayResume == resumeGameEnd)
	if !gameEnd && m.Ending != NotEnded {
		return machineErr("ending", "the game is ending (%d) during %s", m.Ending, m.Phase)
	}
	if gameEnd {
		if m.Phase == PhaseTerminal && m.Ending != s.Ended {
			return machineErr("ending", "%d, but the game ended with %d", m.Ending, s.Ended)
		}
		switch m.Ending {
		case EndTwoColours:
			if !s.EndTriggered {
				return machineErr("ending", "two colours ran out, but end_triggered is not set")
			}
		case EndTurnLimit:
			if s.EndTriggered || int(s.Turn)+1 < s.game.opts.TurnLimit {
				return machineErr("ending", "turn limit, but turn %d of %d (end_triggered %v)", s.Turn+1, s.game.opts.TurnLimit, s.EndTriggered)
			}
		default:
			return machineErr("ending", "the game ends without a reason")
		}
	}
	if m.PayResume == resumeGameEnd && !gameEnd {
		return machineErr("pay_resume", "a payment at the game end, but the game goes on (%s)", m.Phase)
	}
	if !isLoanPhase(m.Phase) && m.LoanResume != resumeDecision {
		return machineErr("loan_resume", "%d outside a loan request", m.LoanResume)
	}
	return nil
}

// checkBankPayment checks containers being paid to the Bank's container lots.
func (s *State) checkBankPayment() error {
	m := &s.machine
	if ph, _ := s.underPhase(); ph != PhaseBankPayColour {
		if m.Pay.Total() != 0 {
			return machineErr("pay", "%q being paid outside %s", m.Pay.Letters(), PhaseBankPayColour)
		}
		return nil
	}
	if m.Pay.distinct() < 2 {
		return machineErr("pay", "%q: a colour is chosen only between two or more", m.Pay.Letters())
	}
	if m.PayResume == resumeTurnStart {
		want := s.Active // the bid of an auction won
		if !m.WonAuction {
			want = int8(s.right(int(s.Active))) // seized containers: the defaulter's right picks
		}
		if m.Payer != want {
			return machineErr("payer", "%d, but seat %d pays at this point of the turn start", m.Payer, want)
		}
	}
	return nil
}
