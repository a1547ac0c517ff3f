package rules

import "fmt"

// Apply applies a legal action id without checking it (self-play hot path).
func (s *State) Apply(id int) { s.ApplyMove(s.ActionToMove(id)) }

// ApplyChecked applies id if it is legal; otherwise it returns an error wrapping
// ErrIllegalAction and leaves the state untouched. It never panics: should the engine fail
// on a state it could not have produced (one changed behind Validate's back), the state is
// restored and the failure returned as an error wrapping ErrBadPosition.
func (s *State) ApplyChecked(id int) (err error) {
	if s.Ended != NotEnded {
		return fmt.Errorf("%w: action %d: the game is over", ErrIllegalAction, id)
	}
	if id < 0 || id >= NumDistinctActions() {
		return fmt.Errorf("%w: action %d is outside 0..%d", ErrIllegalAction, id, NumDistinctActions()-1)
	}
	saved := *s
	defer s.recoverApply(&saved, &err)
	m := s.ActionToMove(id)
	if !s.isLegal(m) {
		return fmt.Errorf("%w: action %d (%s) in phase %s of seat p%d", ErrIllegalAction, id, m, s.machine.Phase, s.machine.Decider+1)
	}
	s.ApplyMove(m)
	return nil
}

// ApplyMoveChecked is ApplyChecked for a Move.
func (s *State) ApplyMoveChecked(m Move) (err error) {
	if s.Ended != NotEnded {
		return fmt.Errorf("%w: move %s: the game is over", ErrIllegalAction, m)
	}
	saved := *s
	defer s.recoverApply(&saved, &err)
	if !s.isLegal(m) {
		return fmt.Errorf("%w: move %s in phase %s of seat p%d", ErrIllegalAction, m, s.machine.Phase, s.machine.Decider+1)
	}
	s.ApplyMove(m)
	return nil
}

// recoverApply turns a panic of a checked apply into an error and restores the state saved
// before it (the second line of defence behind Validate).
func (s *State) recoverApply(saved *State, err *error) {
	if r := recover(); r != nil {
		*s = *saved
		*err = fmt.Errorf("%w: the engine cannot continue from this position (phase %s, seat p%d): %v", ErrBadPosition, s.machine.Phase, s.machine.Decider+1, r)
	}
}

// isLegal reports whether m is one of the legal moves (amounts by range, others by list).
func (s *State) isLegal(m Move) bool {
	if m.Kind == Amount {
		lo, hi, ok := s.amountRange()
		return ok && m == (Move{Kind: Amount, Amount: m.Amount}) && m.Amount >= max(lo, s.machine.AmountBase) && m.Amount <= hi
	}
	k := sink{s: s, noAmounts: true, matching: true, want: m}
	s.generate(&k)
	return k.found
}

// ApplyMove applies a legal move without checking it.
func (s *State) ApplyMove(mv Move) {
	s.history = append(s.history, mv)
	s.Steps++
	m := &s.machine
	d := int(m.Decider)
	switch mv.Kind {
	case EndTurn:
		s.endTurn()
	case TakeLoan:
		s.requestLoan(d, resumeDecision)
	case PayInterest:
		s.payInterestChoice(int(mv.Index))
	case RepayLoan:
		s.repay(d, int(mv.Index))
	case BuildFactory:
		m.ActionsUsed++
		s.buildFactory(d, mv.Colour)
	case BuildWarehouse:
		m.ActionsUsed++
		s.buildWarehouse(d)
	case Produce:
		m.ActionsUsed++
		s.produce(d)
	case FactoryPurchase:
		m.ActionsUsed++
		s.factoryPurchase(d, int(mv.Seat))
	case HarborPurchase:
		m.ActionsUsed++
		s.harborPurchase(d)
	case Reprice:
		m.ActionsUsed++
		s.reprice(District(mv.Index))
	case SailOcean:
		m.ActionsUsed++
		s.Players[d].ShipAt = ShipPos{Where: AtOcean}
	case SailIsland:
		m.ActionsUsed++
		s.sailIsland(d)
	case SailBank:
		m.ActionsUsed++
		s.sailBank(d)
	case SailHarbor:
		m.ActionsUsed++
		s.sailHarbor(d, int(mv.Seat))
	case CallBankStart:
		m.ActionsUsed++
		m.CalledBank = true
		s.startBank(d, int(mv.Index))
	case CallBankRaise:
		m.ActionsUsed++
		m.CalledBank = true
		s.raiseBank(d, AuctionKind(mv.Index))
	case TruckStart:
		m.ActionsUsed++
		m.CalledBank = true
		s.startTruck(d, int(mv.Seat), mv.Index == 1)
	case AcquireLuxury:
		s.acquireLuxury(District(mv.Index))
	case Place:
		s.place(int(mv.Price))
	case PickFactory, PickHarbor:
		dist := FactoryDistrict
		if mv.Kind == PickHarbor {
			dist = HarborDistrict
		}
		i := lotIndex(dist, int(mv.Price))
		switch m.Phase {
		case PhaseRearrange:
			s.pickUp(mv.Colour, i)
		case PhaseBuyFactory:
			s.buyFromFactory(mv.Colour, i)
		case PhaseBuyHarbor:
			s.buyFromHarbor(mv.Colour, i)
		case PhaseBankContainerBid:
			s.bidContainer(dist, mv.Colour, i)
		case PhaseLuxuryPick:
			s.luxuryPick(mv.Colour, i)
		case PhaseSeize:
			s.seizeFrom(&s.Players[m.Counterpart].lots(dist)[i], mv.Colour)
		}
	case PickShip:
		s.seizeFrom(&s.Players[m.Counterpart].Ship, mv.Colour)
	case PickIsland:
		s.seizeFrom(&s.Players[m.Counterpart].Island, mv.Colour)
	case PickHolding:
		if m.Phase == PhaseLoadBank {
			s.loadHolding(mv.Colour)
		} else {
			s.seizeFrom(&s.Players[m.Counterpart].Holding, mv.Colour)
		}
	case PickColour:
		if m.Phase == PhaseProduceColour {
			s.produceColour(mv.Colour)
		} else {
			s.payOne(mv.Colour)
			if !s.continuePay() {
				s.resumePay()
			}
		}
	case AmountHundred:
		m.AmountBase += 100
		s.Presses++
	case Amount:
		m.AmountBase = 0
		switch m.Phase {
		case PhaseDeliveryBid:
			s.deliveryBid(mv.Amount)
		case PhaseRunoffBid:
			s.runoffBid(mv.Amount)
		case PhaseBankCashBid:
			s.cashBid(mv.Amount)
		case PhaseIncentiveBid:
			s.incentiveBid(mv.Amount)
		}
	case Yes, No:
		switch yes := mv.Kind == Yes; m.Phase {
		case PhaseDeliveryAccept:
			s.resolveDelivery(yes)
		case PhaseLoanOffer:
			s.loanOffer(yes)
		case PhaseLoanAccept:
			s.loanAccept(yes)
		case PhaseLenderChoice:
			s.lenderChoice(yes)
		}
	case ChooseSeat:
		if m.Phase == PhaseLoanTie {
			s.toLoanAccept(int(mv.Seat))
		} else {
			s.toAccept(int(mv.Seat))
		}
	case Done:
		switch m.Phase {
		case PhaseBuyFactory:
			s.startPlace()
		default:
			s.toMenu()
		}
	}
}
