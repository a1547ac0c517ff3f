package rules

import "math/bits"

// This file runs the turn: its start (interest, default, auctions won), the turn menu's
// simple actions (build, sail), the end of the turn and the end of the game.

// startTurn resets the turn's counters and runs the turn start of the active player.
func (s *State) startTurn() {
	m := &s.machine
	m.ActionsUsed, m.Produced, m.CalledBank, m.WonAuction = 0, false, false, false
	m.Repays, m.LuxuryUsed, m.LoansBlocked, m.LoanRejected, m.LoanOffered = 0, false, false, 0, 0
	m.Stage = stageInterest
	m.Action = EndTurn // no action in progress (a finished delivery no longer commits bids)
	s.runTurnStart()
}

// runTurnStart continues the turn start from machine.Stage until a decision is pending or
// the turn menu is reached: pay interest, resolve default, win auctions.
func (s *State) runTurnStart() {
	m := &s.machine
	a := int(s.Active)
	for {
		switch m.Stage {
		case stageInterest:
			m.Stage = stageInterestPay
			p := &s.Players[a]
			m.InterestDue, m.UnpaidLoans = p.NumLoans, 0
			if p.NumLoans > 0 && p.Cash < int32(p.NumLoans) && s.canLoan(a) {
				if s.requestLoan(a, resumeInterest) {
					return
				}
			}
		case stageInterestPay:
			m.Stage = stageLenders
			if s.payInterest(a) {
				return
			}
		case stageLenders:
			if i := s.nextUnpaidPlayerLoan(a); i >= 0 {
				m.UnpaidLoans &^= 1 << i
				if s.seizeLocation(a) != seizeNothing {
					m.Phase = PhaseLenderChoice
					m.Decider = s.Players[a].Loans[i].Lender
					m.Counterpart = int8(a)
					return
				}
				continue // nothing to seize: forgiven
			}
			m.Unpaid = uint8(bits.OnesCount8(m.UnpaidLoans)) // the rest are Bank loans
			m.UnpaidLoans = 0
			m.Stage = stageSeize
		case stageSeize:
			for m.Unpaid > 0 {
				if s.seizeStep(a) {
					return
				}
			}
			m.Stage = stageWin
			if m.Seized.Total() > 0 {
				seized := m.Seized
				m.Seized = Counts{}
				if s.classic() {
					s.Removed.Add(&seized)
				} else if s.startPay(seized, s.right(a), resumeTurnStart) {
					return
				}
			}
		case stageWin:
			for k := AuctionKind(0); k < NumAuctionKinds; k++ {
				if au := &s.Auctions[k]; au.Active && int(au.Bidder) == a {
					m.WonAuction = true
					if s.winAuction(k, resumeTurnStart) {
						return
					}
				}
			}
			m.Stage = stageMenu
		default:
			s.toMenu()
			return
		}
	}
}

// toMenu returns to the active player's turn menu, closing the action in progress.
func (s *State) toMenu() {
	m := &s.machine
	m.Phase = PhaseTurn
	m.Decider = s.Active
	m.Action = EndTurn
	m.Counterpart = -1
	m.Free = false
	m.Pending = Counts{}
	m.Bought, m.PickLeft, m.LuxFirst = 0, 0, 0
	m.Fixed = [HarborPrices]Counts{}
}

// endTurn ends the active player's turn: the next player starts, or the game ends.
func (s *State) endTurn() {
	m := &s.machine
	if s.EndTriggered {
		m.Ending = EndTwoColours
	} else if int(s.Turn)+1 >= s.game.opts.TurnLimit {
		m.Ending = EndTurnLimit
	}
	if m.Ending != NotEnded {
		s.runGameEnd()
		return
	}
	s.Active = int8((int(s.Active) + 1) % s.n())
	s.Turn++
	s.startTurn()
}

// runGameEnd wins every open auction for its bidder, then ends the game.
func (s *State) runGameEnd() {
	for k := AuctionKind(0); k < NumAuctionKinds; k++ {
		if s.Auctions[k].Active {
			if s.winAuction(k, resumeGameEnd) {
				return
			}
		}
	}
	m := &s.machine
	s.Ended = m.Ending
	m.Phase = PhaseTerminal
	m.Decider = -1
	m.Counterpart = -1
}

// canBuildFactory reports whether seat may build a factory of colour c.
func (s *State) canBuildFactory(seat int, c Colour) bool {
	p := &s.Players[seat]
	nf := p.numFactories()
	return nf < MaxFactories && !p.hasFactory(c) && s.FactorySupply[c] > 0 &&
		int(p.Cash) >= FactoryCost[nf+1]
}

func (s *State) canBuildWarehouse(seat int) bool {
	p := &s.Players[seat]
	w := int(p.Warehouses)
	return w < MaxWarehouses && s.WarehouseSupply > 0 && int(p.Cash) >= WarehouseCost[w+1]
}

// buildFactory pays the next factory's cost to the supply and builds it.
func (s *State) buildFactory(seat int, c Colour) {
	p := &s.Players[seat]
	cost := FactoryCost[p.numFactories()+1]
	p.Cash -= int32(cost)
	s.machine.ToSupply += int64(cost)
	p.Factories |= 1 << c
	s.FactorySupply[c]--
}

func (s *State) buildWarehouse(seat int) {
	p := &s.Players[seat]
	cost := WarehouseCost[int(p.Warehouses)+1]
	p.Cash -= int32(cost)
	s.machine.ToSupply += int64(cost)
	p.Warehouses++
	s.WarehouseSupply--
}

// sailHarbor moves seat's ship to owner's harbor and offers the free Harbor Purchase.
func (s *State) sailHarbor(seat, owner int) {
	s.Players[seat].ShipAt = ShipPos{Where: AtHarbor, Seat: int8(owner)}
	// Offered also when only a loan would pay for a container (loans at any decision point).
	if s.canBuyHarbor(seat) || s.canLoan(seat) && s.harborStockLeft(seat) {
		m := &s.machine
		m.Action = HarborPurchase
		m.Phase = PhaseBuyHarbor
		m.Counterpart = int8(owner)
		m.Free = true
		m.Bought = 0
		return
	}
	s.toMenu()
}

// sailBank moves seat's ship to the Bank and offers loading the holding area.
func (s *State) sailBank(seat int) {
	s.Players[seat].ShipAt = ShipPos{Where: AtBank}
	if s.canLoadBank(seat) {
		m := &s.machine
		m.Action = SailBank
		m.Phase = PhaseLoadBank
		return
	}
	s.toMenu()
}

func (s *State) canLoadBank(seat int) bool {
	p := &s.Players[seat]
	return p.ShipAt.Where == AtBank && p.Holding.Total() > 0 && p.Ship.Total() < ShipCapacity
}
