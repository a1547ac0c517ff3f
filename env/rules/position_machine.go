package rules

import "fmt"

// Adapters between the position format, scoring and the engine's decision machinery
// (machine.go). They are the only places the position files (position_json.go, position_validate.go)
// and scoring.go read the machine.

// machineContainers counts containers held by the machine, in no board location: containers
// waiting to be placed or chosen while producing (Pending, except during a Harbor Purchase,
// where Pending only mirrors what is already on the ship), an outbid player's containers
// still to be put back, containers being paid to the Bank, and containers seized so far.
func (s *State) machineContainers() Counts {
	m := &s.machine
	var t Counts
	if ph, _ := s.interrupted(); ph != PhaseBuyHarbor {
		t.Add(&m.Pending)
	}
	t.Add(&m.ReturnFactory)
	t.Add(&m.ReturnHarbor)
	t.Add(&m.Pay)
	t.Add(&m.Seized)
	return t
}

// resetMachineForPosition sets the machine of a loaded position that left "machine" out:
// the active player's turn menu with no action used (interest already paid), or the end of
// the game when "ended" is set. The cash ledger is set so that the cash in play is explained
// by what entered from or left to the supply.
func (s *State) resetMachineForPosition() {
	s.machine = decisionMachine{Winner: -1, Returner: -1, Counterpart: -1}
	m := &s.machine
	m.Stage = stageMenu
	m.Phase = PhaseTurn
	m.Decider = s.Active
	m.Action = EndTurn
	if s.Ended != NotEnded {
		m.Phase = PhaseTerminal
		m.Decider = -1
		m.Ending = s.Ended
	}
	cf := s.CashFlow()
	if d := cf.InPlay - cf.Start; d > 0 {
		m.FromSupply = d
	} else {
		m.ToSupply = -d
	}
}

// validateMachine checks the machine against the board where the position format can.
func (s *State) validateMachine() error {
	m := &s.machine
	n := s.game.opts.Players
	if m.Phase >= NumPhases {
		return fmt.Errorf("%w: machine: unknown phase %d", ErrBadPosition, m.Phase)
	}
	if (m.Phase == PhaseTerminal) != (s.Ended != NotEnded) {
		return fmt.Errorf("%w: machine: phase %s but ended %q", ErrBadPosition, m.Phase, endReasonNames[min(int(s.Ended), len(endReasonNames)-1)])
	}
	if m.Phase != PhaseTerminal && (m.Decider < 0 || int(m.Decider) >= n) {
		return fmt.Errorf("%w: machine: decider %d is not a seat", ErrBadPosition, m.Decider)
	}
	if m.Phase == PhaseTurn && m.Decider != s.Active {
		return fmt.Errorf("%w: machine: the turn menu belongs to the active seat %d, not %d", ErrBadPosition, s.Active, m.Decider)
	}
	if cf := s.CashFlow(); cf.InPlay != cf.Start+cf.FromSupply-cf.ToSupply {
		return fmt.Errorf("%w: machine: cash in play $%d is not the start $%d + $%d from the supply - $%d to it", ErrBadPosition, cf.InPlay, cf.Start, cf.FromSupply, cf.ToSupply)
	}
	return s.validateMachineFields() // position_validate_machine.go
}

// interrupted returns the decision a loan request interrupted (a loan may be requested at
// any decision point, and that decision's bid or containers are still part of the position)
// with its decider, or the pending decision and decider when no request is open.
func (s *State) interrupted() (Phase, int8) {
	m := &s.machine
	if m.Phase >= PhaseLoanOffer && m.Phase <= PhaseLoanAccept && m.LoanResume == resumeDecision {
		return m.LoanReturnPhase, m.LoanReturnDecider
	}
	return m.Phase, m.Decider
}

// bidInProgress reports whether the machine is making a bid on the auction of kind (the tile
// may hold a partial bid, or none yet).
func (s *State) bidInProgress(kind AuctionKind) bool {
	m := &s.machine
	switch ph, _ := s.interrupted(); ph {
	case PhaseBankCashBid, PhaseBankContainerBid, PhaseReturnBid:
		return m.BidKind == kind
	}
	return false
}

// machineDistrictContainers calls add for the containers the machine holds that still
// belong to a seat's district (waiting to be placed after producing or buying, or an outbid
// player's returned bid), so scoring "as if the game ended now" counts them there.
func (s *State) machineDistrictContainers(add func(seat int, d District, c *Counts)) {
	m := &s.machine
	switch ph, decider := s.interrupted(); ph {
	case PhasePlace, PhaseReturnBid:
		add(int(decider), m.District, &m.Pending)
	case PhaseProduceColour, PhaseBuyFactory:
		add(int(s.Active), m.District, &m.Pending)
	}
	if m.Returner >= 0 {
		add(int(m.Returner), FactoryDistrict, &m.ReturnFactory)
		add(int(m.Returner), HarborDistrict, &m.ReturnHarbor)
	}
}
