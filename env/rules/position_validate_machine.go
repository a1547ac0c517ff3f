package rules

import "fmt"

// Validation of a loaded position's decision machinery (machine.go), field by field and phase
// by phase, so that every position LoadPosition accepts is one the engine could have
// produced as far as the machine is concerned: its legal moves can be listed and each of them
// applied without a panic, a dead end or an invalid successor. The mutation harness and
// FuzzPositionMachine (position_test.go, position_fuzz_test.go) check it.
//
// Many fields keep their last value after the decision that uses them (the delivery bids,
// the loan request, the Bank bid kind, the payment counter): outside their phases only their
// ranges are checked. One helper checks one area; each error names the machine field. This
// file holds the entry point, the cash bounds and the ranges of every field; the other areas
// are in position_validate_decider.go (turn counters, who decides), position_validate_action.go
// (the action in progress), position_validate_bank.go (Bank bids, turn start, payments) and
// position_validate_delivery.go (deliveries, loan requests, amounts, a legal move).

// machineErr is a position error about one machine field.
func machineErr(field, format string, args ...any) error {
	return fmt.Errorf("%w: machine: %s: %s", ErrBadPosition, field, fmt.Sprintf(format, args...))
}

// validateMachineFields checks every machine field against the phase and the board.
func (s *State) validateMachineFields() error {
	for _, check := range []func() error{
		s.checkCashBounds,
		s.checkMachineRanges,
		s.checkTurnCounters,
		s.checkDecider,
		s.checkActionInProgress,
		s.checkBankBid,
		s.checkTurnStart,
		s.checkBankPayment,
		s.checkDelivery,
		s.checkLoanRequest,
		s.checkAmountBase,
		s.checkHasLegalMove,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// isLoanPhase reports whether p is a decision of a player-loan request.
func isLoanPhase(p Phase) bool { return p >= PhaseLoanOffer && p <= PhaseLoanAccept }

// underPhase is the decision a loan request interrupted (the phase itself otherwise); a
// request made while paying interest at the turn start reports PhaseInterestChoice's place:
// the turn start (ok false).
func (s *State) underPhase() (p Phase, decision bool) {
	m := &s.machine
	if !isLoanPhase(m.Phase) {
		return m.Phase, true
	}
	if m.LoanResume == resumeInterest {
		return m.Phase, false
	}
	return m.LoanReturnPhase, true
}

// seatMask is the bit set of the game's seats.
func (s *State) seatMask() uint8 { return uint8(1<<s.n() - 1) }

// checkCashBounds bounds every cash amount by MaxPositionCash (and the machine's amounts by
// 0 below).
func (s *State) checkCashBounds() error {
	n := s.n()
	over := func(v int64) bool { return v < 0 || v > MaxPositionCash }
	for i := 0; i < n; i++ {
		if int64(s.Players[i].Cash) > MaxPositionCash {
			return fmt.Errorf("%w: player %d: cash $%d is above $%d", ErrBadPosition, i, s.Players[i].Cash, MaxPositionCash)
		}
		if int64(s.Companies[i].Pile) > MaxPositionCash {
			return fmt.Errorf("%w: company %d: pile $%d is above $%d", ErrBadPosition, i, s.Companies[i].Pile, MaxPositionCash)
		}
	}
	for k := range s.Auctions {
		if int64(s.Auctions[k].Cash) > MaxPositionCash {
			return fmt.Errorf("%w: %s auction: cash bid $%d is above $%d", ErrBadPosition, AuctionKind(k), s.Auctions[k].Cash, MaxPositionCash)
		}
	}
	for l, c := range s.Bank.CashLots {
		if int64(c) > MaxPositionCash {
			return fmt.Errorf("%w: Bank cash lot %d: $%d is above $%d", ErrBadPosition, l, c, MaxPositionCash)
		}
	}
	m := &s.machine
	for _, a := range []struct {
		name string
		v    *[MaxPlayers]int32
	}{{"bids", &m.Bids}, {"runoff", &m.Runoff}, {"incentives", &m.Incentives}} {
		for i, v := range a.v {
			if over(int64(v)) {
				return machineErr(fmt.Sprintf("%s[%d]", a.name, i), "$%d is outside $0..$%d", v, MaxPositionCash)
			}
			if i >= n && v != 0 {
				return machineErr(fmt.Sprintf("%s[%d]", a.name, i), "seat %d is not in a %d-player game", i, n)
			}
		}
	}
	if over(int64(m.ToBeat)) {
		return machineErr("to_beat", "%d is outside 0..%d", m.ToBeat, MaxPositionCash)
	}
	if m.FromSupply < 0 || m.ToSupply < 0 {
		return machineErr("from_supply", "the cash ledger ($%d from, $%d to the supply) is negative", m.FromSupply, m.ToSupply)
	}
	return nil
}

// checkMachineRanges checks each field's own range, whatever the phase.
func (s *State) checkMachineRanges() error {
	m := &s.machine
	n := s.n()
	seatOrNone := func(field string, v int8) error {
		if v < -1 || int(v) >= n {
			return machineErr(field, "%d is not a seat (or -1)", v)
		}
		return nil
	}
	seat := func(field string, v int8) error {
		if v < 0 || int(v) >= n {
			return machineErr(field, "%d is not a seat", v)
		}
		return nil
	}
	for _, e := range []error{
		seatOrNone("counterpart", m.Counterpart), seatOrNone("returner", m.Returner),
		seatOrNone("winner", m.Winner), seatOrNone("lender", m.Lender),
		seat("payer", m.Payer), seat("borrower", m.Borrower), seat("loan_return_decider", m.LoanReturnDecider),
	} {
		if e != nil {
			return e
		}
	}
	switch m.Action {
	case EndTurn, Produce, FactoryPurchase, HarborPurchase, Reprice, SailIsland, SailBank, AcquireLuxury:
	default:
		return machineErr("action", "%d is not an action that runs over several decisions", m.Action)
	}
	for _, f := range []struct {
		name string
		v    uint8
		max  int
	}{
		{"actions_used", m.ActionsUsed, 2},
		{"repays", m.Repays, maxRepaysPerTurn},
		{"lux_first", m.LuxFirst, NumColours * HarborPrices},
		{"district", uint8(m.District), int(HarborDistrict)},
		{"bought", m.Bought, max(ShipCapacity, MaxWarehouses)},
		{"pick_left", m.PickLeft, 2 * MaxFactories},
		{"bid_kind", uint8(m.BidKind), NumAuctionKinds - 1},
		{"stage", m.Stage, int(stageMenu)},
		{"unpaid", m.Unpaid, MaxLoans},
		{"seize_at", m.SeizeAt, int(seizeAnywhere)},
		{"ending", uint8(m.Ending), int(EndTurnLimit)},
		{"pay_resume", m.PayResume, int(resumeGameEnd)},
		{"interest_due", m.InterestDue, MaxLoans},
		{"unpaid_loans", m.UnpaidLoans, 1<<MaxLoans - 1},
		{"loan_resume", m.LoanResume, int(resumeInterest)},
		{"loan_return_phase", uint8(m.LoanReturnPhase), int(NumPhases) - 1},
	} {
		if int(f.v) > f.max {
			return machineErr(f.name, "%d is outside 0..%d", f.v, f.max)
		}
	}
	if m.SeizeAt == seizeNothing {
		return machineErr("seize_at", "%d (nothing to seize) is never kept", m.SeizeAt)
	}
	for _, f := range []struct {
		name string
		v    uint8
	}{{"has_bid", m.HasBid}, {"tied", m.Tied}, {"has_runoff", m.HasRunoff}, {"offers", m.Offers},
		{"has_incentive", m.HasIncentive}, {"loan_tied", m.LoanTied}, {"loan_rejected", m.LoanRejected}} {
		if f.v&^s.seatMask() != 0 {
			return machineErr(f.name, "bits %#x name seats outside a %d-player game", f.v, n)
		}
	}
	if m.Hidden {
		return machineErr("hidden", "a redacted view (sealed values hidden) is not a position")
	}
	mods := s.game.opts.Modules
	if !mods.Has(Luxury) && (m.LuxuryUsed || m.LuxFirst != 0) {
		return machineErr("luxury_used", "Acquire Luxury without the luxury module")
	}
	if !mods.Has(PlayerLoans) && (m.LoanRejected != 0 || m.LoansBlocked) {
		return machineErr("loan_rejected", "a rejected player loan without the player-loans module")
	}
	if m.LoansBlocked != (m.LoanRejected&(1<<s.Active) != 0) {
		return machineErr("loans_blocked", "%v, but loan_rejected %#x says the active seat %d did %sreject a loan", m.LoansBlocked, m.LoanRejected, s.Active, map[bool]string{true: "not ", false: ""}[m.LoansBlocked])
	}
	switch m.Phase {
	case PhaseInterestChoice, PhaseLoanOffer, PhaseIncentiveBid, PhaseLoanTie, PhaseLoanAccept, PhaseLenderChoice:
		if !mods.Has(PlayerLoans) {
			return machineErr("phase", "%s without the player-loans module", m.Phase)
		}
	case PhaseLuxuryPick:
		if !mods.Has(Luxury) {
			return machineErr("phase", "%s without the luxury module", m.Phase)
		}
	case PhaseLoadBank, PhaseBankCashBid, PhaseBankContainerBid, PhaseBankPayColour, PhaseReturnBid:
		if s.classic() {
			return machineErr("phase", "%s in the Classic variant, which has no Bank board", m.Phase)
		}
	}
	if isLoanPhase(m.LoanReturnPhase) || m.LoanReturnPhase == PhaseTerminal {
		return machineErr("loan_return_phase", "a loan request never interrupts %s", m.LoanReturnPhase)
	}
	return nil
}
