package rules

import "fmt"

// Validation of a loaded position's decision machinery (machine.go), field by field and phase
// by phase, so that every position LoadPosition accepts is one the engine could have
// produced as far as the machine is concerned: its legal moves can be listed and each of them
// applied without a panic, a dead end or an invalid successor. The mutation harness and
// FuzzPositionMachine (position_mutation_test.go, position_fuzz_test.go) check it.
//
// Many fields keep their last value after the decision that uses them (the delivery bids,
// the loan request, the Bank bid kind, the payment counter): outside their phases only their
// ranges are checked. One helper checks one area; each error names the machine field.

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

// checkActionInProgress checks the action being carried out: its kind, district, other seat,
// the containers pending, bought, still to pick or fixed, and Acquire Luxury's first pick.
func (s *State) checkActionInProgress() error {
	m := &s.machine
	a := int(s.Active)
	p := &s.Players[a]
	under, decision := s.underPhase()
	if !decision || s.atTurnStart(under) {
		under = PhaseInterestChoice // the turn start: no action in progress
	}
	// The action kind each phase belongs to.
	okAction := false
	switch under {
	case PhaseTurn, PhaseInterestChoice, PhaseBankCashBid, PhaseBankContainerBid, PhaseReturnBid:
		okAction = m.Action == EndTurn
	case PhaseProduceColour:
		okAction = m.Action == Produce
	case PhasePlace:
		okAction = m.Action == Produce || m.Action == FactoryPurchase || m.Action == Reprice || m.Action == AcquireLuxury
	case PhaseRearrange:
		okAction = m.Action == Produce || m.Action == FactoryPurchase || m.Action == Reprice
	case PhaseBuyFactory:
		okAction = m.Action == FactoryPurchase
	case PhaseBuyHarbor:
		okAction = m.Action == HarborPurchase
	case PhaseLoadBank:
		okAction = m.Action == SailBank
	case PhaseDeliveryBid, PhaseRunoffBid, PhaseDeliveryTie, PhaseDeliveryAccept:
		okAction = m.Action == SailIsland
	case PhaseLuxuryPick:
		okAction = m.Action == AcquireLuxury
	case PhaseBankPayColour, PhaseTerminal: // the game end: the last turn's action
		okAction = m.Action == EndTurn || m.Action == SailIsland
	}
	if !okAction {
		return machineErr("action", "%s is not in progress during %s", Move{Kind: m.Action}, under)
	}
	// District.
	switch {
	case under == PhaseProduceColour || (under == PhasePlace || under == PhaseRearrange) && m.Action == Produce:
		if m.District != FactoryDistrict {
			return machineErr("district", "produced containers go to the factory district")
		}
	case under == PhaseBuyFactory || (under == PhasePlace || under == PhaseRearrange) && m.Action == FactoryPurchase:
		if m.District != HarborDistrict {
			return machineErr("district", "containers bought from a factory go to the harbor district")
		}
	}
	// The other seat.
	wantCP := int8(-1)
	switch under {
	case PhaseBuyFactory:
		wantCP = m.Counterpart
		if m.Counterpart < 0 || int(m.Counterpart) == a {
			return machineErr("counterpart", "%d: a Factory Purchase buys from an opponent", m.Counterpart)
		}
	case PhasePlace, PhaseRearrange:
		if m.Action == FactoryPurchase {
			wantCP = m.Counterpart
			if m.Counterpart < 0 || int(m.Counterpart) == a {
				return machineErr("counterpart", "%d: a Factory Purchase buys from an opponent", m.Counterpart)
			}
		}
	case PhaseBuyHarbor:
		if p.ShipAt.Where != AtHarbor {
			return machineErr("phase", "a Harbor Purchase with the active ship at %s", p.ShipAt)
		}
		wantCP = p.ShipAt.Seat
	case PhaseDeliveryBid, PhaseRunoffBid, PhaseDeliveryTie:
		wantCP = int8(a)
	case PhaseDeliveryAccept:
		wantCP = m.Winner
	case PhaseInterestChoice: // the turn start
		switch m.Phase {
		case PhaseSeize, PhaseLenderChoice:
			wantCP = int8(a) // the defaulter
		case PhaseBankPayColour:
		default:
			wantCP = m.Counterpart // interest: the last turn's value is kept
		}
	}
	if m.Counterpart != wantCP {
		return machineErr("counterpart", "%d during %s (want %d)", m.Counterpart, m.Phase, wantCP)
	}
	if m.Free && under != PhaseBuyHarbor {
		return machineErr("free", "only a Harbor Purchase can be the free anchor action")
	}
	// Pending, bought, pick_left, fixed, lux_first.
	pend := m.Pending.Total()
	switch under {
	case PhaseProduceColour:
		if err := s.checkProduceColour(); err != nil {
			return err
		}
	case PhasePlace:
		if pend == 0 {
			return machineErr("pending", "nothing to place")
		}
		switch m.Action {
		case AcquireLuxury:
			if m.Pending != (Counts{Gold: 1}) || m.LuxFirst == 0 {
				return machineErr("pending", "Acquire Luxury places exactly one gold container after two picks (pending %q, lux_first %d)", m.Pending.Letters(), m.LuxFirst)
			}
		case Reprice:
			if pend != 1 {
				return machineErr("pending", "a Reprice moves one container at a time, not %d", pend)
			}
		case FactoryPurchase:
			if m.Bought == 0 || pend > int(m.Bought) {
				return machineErr("pending", "%d containers to place but %d bought", pend, m.Bought)
			}
		case Produce:
			if pend > 1 {
				for c := Colour(0); c < NumColours; c++ {
					if m.Pending[c] > 1 || (m.Pending[c] == 1 && (c == Gold || !p.hasFactory(c))) {
						return machineErr("pending", "%q is not what the active seat's factories produce", m.Pending.Letters())
					}
				}
			}
		}
		if space := s.districtSpace(a, m.District); pend > space {
			return machineErr("pending", "%d containers to place in the %s district with room for %d", pend, m.District, space)
		}
	case PhaseReturnBid:
		if pend == 0 {
			return machineErr("pending", "nothing to put back")
		}
		r := int(m.Returner)
		if space := s.districtSpace(r, m.District); pend > space {
			return machineErr("pending", "%d containers to put back in the %s district with room for %d", pend, m.District, space)
		}
	case PhaseBuyFactory:
		if int(m.Bought) != pend {
			return machineErr("bought", "%d, but %d containers are pending", m.Bought, pend)
		}
	default:
		if pend != 0 {
			return machineErr("pending", "%q during %s, which places nothing", m.Pending.Letters(), m.Phase)
		}
	}
	switch {
	case under == PhaseBuyFactory:
	case under == PhaseBuyHarbor:
		if int(m.Bought) > p.Ship.Total() {
			return machineErr("bought", "%d bought but %d containers on the ship", m.Bought, p.Ship.Total())
		}
	case (under == PhasePlace || under == PhaseRearrange) && m.Action == FactoryPurchase:
		if m.Bought == 0 {
			return machineErr("bought", "0 after a Factory Purchase")
		}
	default:
		if m.Bought != 0 {
			return machineErr("bought", "%d during %s", m.Bought, under)
		}
	}
	if under != PhaseProduceColour && m.PickLeft != 0 {
		return machineErr("pick_left", "%d outside a short-storage Produce", m.PickLeft)
	}
	if err := s.checkFixed(under); err != nil {
		return err
	}
	switch {
	case under == PhaseLuxuryPick:
		if s.Supply[Gold] == 0 {
			return machineErr("phase", "Acquire Luxury with no gold container in the supply")
		}
	case under == PhasePlace && m.Action == AcquireLuxury:
	default:
		if m.LuxFirst != 0 {
			return machineErr("lux_first", "%d outside Acquire Luxury", m.LuxFirst)
		}
	}
	if under == PhaseLoadBank && !s.canLoadBank(a) {
		return machineErr("phase", "loading at the Bank needs the ship there, holding-area containers and room on the ship")
	}
	return nil
}

// districtSpace is the free storage of seat's district d, reserve tokens counted.
func (s *State) districtSpace(seat int, d District) int {
	if d == FactoryDistrict {
		return s.factorySpace(seat)
	}
	return s.harborSpace(seat)
}

// checkProduceColour checks a short-storage Produce: the colours chosen so far, the picks
// left (filling the factory storage exactly) and more candidates than picks.
func (s *State) checkProduceColour() error {
	m := &s.machine
	a := int(s.Active)
	p := &s.Players[a]
	for c := Colour(0); c < NumColours; c++ {
		if m.Pending[c] > 1 || (m.Pending[c] == 1 && (c == Gold || !p.hasFactory(c))) {
			return machineErr("pending", "%q is not what the active seat's factories produce", m.Pending.Letters())
		}
	}
	if m.PickLeft == 0 || int(m.PickLeft)+m.Pending.Total() != s.factorySpace(a) {
		return machineErr("pick_left", "%d colours left to pick + %d picked must fill the %d free factory spaces", m.PickLeft, m.Pending.Total(), s.factorySpace(a))
	}
	cands, _ := s.producible(a)
	left := 0
	for c := range cands {
		if cands[c] > 0 && m.Pending[c] == 0 {
			left++
		}
	}
	if left <= int(m.PickLeft) {
		return machineErr("pick_left", "%d picks left from %d producible colours: storage is not short", m.PickLeft, left)
	}
	return nil
}

// checkFixed checks the containers fixed by the arranging action in progress: never more
// than the lot holds, none in lots the district does not have, none outside arranging.
func (s *State) checkFixed(under Phase) error {
	m := &s.machine
	arranging := (under == PhasePlace || under == PhaseRearrange) && m.Action != AcquireLuxury
	if !arranging {
		if m.Fixed != ([HarborPrices]Counts{}) {
			return machineErr("fixed", "containers fixed outside an arranging action (%s)", under)
		}
		return nil
	}
	lots := s.Players[s.Active].lots(m.District)
	for i := range m.Fixed {
		for c := Colour(0); c < NumColours; c++ {
			have := 0
			if i < len(lots) {
				have = int(lots[i][c])
			}
			if int(m.Fixed[i][c]) > have {
				return machineErr(fmt.Sprintf("fixed[%d]", i), "%d %s containers fixed in a lot holding %d", m.Fixed[i][c], c, have)
			}
		}
	}
	if under == PhaseRearrange && !s.canMoveAny() {
		return machineErr("phase", "rearranging with every container already moved this action")
	}
	return nil
}

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

// checkDelivery checks a delivery auction in progress: sealed bids in turn order from the
// deliverer's left, the runoff among the tied, the tie break, the winner.
func (s *State) checkDelivery() error {
	m := &s.machine
	n := s.n()
	a := int(s.Active)
	under, decision := s.underPhase()
	if !decision {
		return nil
	}
	switch under {
	case PhaseDeliveryBid, PhaseRunoffBid, PhaseDeliveryTie, PhaseDeliveryAccept:
	default:
		return nil
	}
	if p := &s.Players[a]; p.ShipAt.Where != AtIsland || p.Ship.Total() == 0 {
		return machineErr("phase", "a delivery auction needs the active ship at the island with cargo")
	}
	self := uint8(1) << a
	if (m.HasBid|m.Tied|m.HasRunoff)&self != 0 || m.Bids[a] != 0 || m.Runoff[a] != 0 {
		return machineErr("has_bid", "the deliverer (seat %d) does not bid", a)
	}
	// The bidder deciding now (the loan borrower when a loan interrupted the bid).
	bidder := int(m.Decider)
	if isLoanPhase(m.Phase) {
		bidder = int(m.LoanReturnDecider)
	}
	// before(x) is the set of seats from the deliverer's left up to, not including, x.
	before := func(x int) uint8 {
		var b uint8
		for i := (a + 1) % n; i != x && i != a; i = (i + 1) % n {
			b |= 1 << i
		}
		return b
	}
	all := s.seatMask() &^ self
	for i := 0; i < n; i++ {
		if m.HasBid&(1<<i) == 0 && m.Bids[i] != 0 {
			return machineErr(fmt.Sprintf("bids[%d]", i), "$%d from a seat that has not bid", m.Bids[i])
		}
		if m.HasRunoff&(1<<i) == 0 && m.Runoff[i] != 0 {
			return machineErr(fmt.Sprintf("runoff[%d]", i), "$%d from a seat that made no runoff addition", m.Runoff[i])
		}
		if m.HasBid&(1<<i) != 0 && s.Players[i].Cash < m.Bids[i]+m.Runoff[i] {
			return machineErr(fmt.Sprintf("bids[%d]", i), "$%d bid (+ $%d runoff) with $%d in hand", m.Bids[i], m.Runoff[i], s.Players[i].Cash)
		}
	}
	best := int32(-1)
	var maxSet uint8
	if m.HasBid == all {
		for i := 0; i < n; i++ {
			if i != a && m.Bids[i] > best {
				best, maxSet = m.Bids[i], 0
			}
			if i != a && m.Bids[i] == best {
				maxSet |= 1 << i
			}
		}
	}
	many := func(x uint8) bool { return x&(x-1) != 0 }
	// total is the best bid + runoff among the seats in set, and the seats reaching it.
	total := func(set uint8) (int32, uint8) {
		t, at := int32(-1), uint8(0)
		for i := 0; i < n; i++ {
			if set&(1<<i) == 0 {
				continue
			}
			if v := m.Bids[i] + m.Runoff[i]; v > t {
				t, at = v, 1<<i
			} else if v == t {
				at |= 1 << i
			}
		}
		return t, at
	}
	switch under {
	case PhaseDeliveryBid:
		if m.HasBid != before(bidder) || m.Revealed || m.Tied != 0 || m.HasRunoff != 0 || m.RunoffRevealed || m.Winner != -1 {
			return machineErr("has_bid", "%#x: the seats from the deliverer's left up to seat %d bid first, nothing revealed or tied yet", m.HasBid, bidder)
		}
	case PhaseRunoffBid:
		if m.HasBid != all || !m.Revealed || m.Tied != maxSet || !many(m.Tied) {
			return machineErr("tied", "%#x: a runoff is among the two or more highest first-round bidders (%#x)", m.Tied, maxSet)
		}
		if m.Tied&(1<<bidder) == 0 || m.HasRunoff != before(bidder)&m.Tied || m.RunoffRevealed || m.Winner != -1 {
			return machineErr("has_runoff", "%#x: the tied seats before seat %d add first, nothing revealed yet", m.HasRunoff, bidder)
		}
	case PhaseDeliveryTie, PhaseDeliveryAccept:
		if m.HasBid != all || !m.Revealed {
			return machineErr("has_bid", "%#x: every opponent of the deliverer has bid", m.HasBid)
		}
		if m.HasRunoff == 0 {
			if under == PhaseDeliveryTie || m.RunoffRevealed || m.Tied != maxSet || many(m.Tied) {
				return machineErr("tied", "%#x: without a runoff the single highest bidder (%#x) wins", m.Tied, maxSet)
			}
		} else {
			_, at := total(m.HasRunoff)
			if m.HasRunoff != maxSet || !many(maxSet) || !m.RunoffRevealed || m.Tied != at {
				return machineErr("tied", "%#x: after a runoff among %#x the highest totals (%#x) are tied", m.Tied, m.HasRunoff, at)
			}
			if under == PhaseDeliveryTie && !many(m.Tied) {
				return machineErr("tied", "%#x: the deliverer breaks a tie of two or more", m.Tied)
			}
		}
		if under == PhaseDeliveryTie && m.Winner != -1 {
			return machineErr("winner", "%d before the tie is broken", m.Winner)
		}
		if under == PhaseDeliveryAccept && (m.Winner < 0 || m.Tied&(1<<m.Winner) == 0) {
			return machineErr("winner", "%d is not among the highest bidders (%#x)", m.Winner, m.Tied)
		}
	}
	return nil
}

// checkLoanRequest checks a player-loan request: who borrows and why, the offers asked for
// in turn order, the sealed incentives, the tie, the lender chosen.
func (s *State) checkLoanRequest() error {
	m := &s.machine
	if !isLoanPhase(m.Phase) {
		return nil
	}
	n := s.n()
	b := int(m.Borrower)
	if !s.canLoan(b) {
		return machineErr("borrower", "seat %d may not take a loan (two loans, or one rejected this turn)", b)
	}
	if m.LoanResume == resumeInterest {
		if b != int(s.Active) {
			return machineErr("borrower", "%d, but only the active seat %d pays interest", b, s.Active)
		}
	} else {
		if m.LoanReturnDecider != m.Borrower {
			return machineErr("loan_return_decider", "%d, but the borrower %d asked for the loan at its own decision", m.LoanReturnDecider, b)
		}
		if !s.loanRequestable(m.LoanReturnPhase) {
			return machineErr("loan_return_phase", "no loan may be requested during %s", m.LoanReturnPhase)
		}
		// Loans are requested at any decision of the borrower (CLARIFICATIONS, Loans): the
		// borrower must be the seat that decides the interrupted decision.
		ph, dec := m.Phase, m.Decider
		m.Phase, m.Decider = m.LoanReturnPhase, m.LoanReturnDecider
		err := s.checkDecider()
		m.Phase, m.Decider = ph, dec
		if err != nil {
			return machineErr("loan_return_decider", "%d does not decide the interrupted %s", m.LoanReturnDecider, m.LoanReturnPhase)
		}
	}
	// asked(x) is the set of seats from the borrower's left up to, not including, x.
	asked := func(x int) uint8 {
		var set uint8
		for i := (b + 1) % n; i != x && i != b; i = (i + 1) % n {
			set |= 1 << i
		}
		return set
	}
	for i := 0; i < n; i++ {
		bit := uint8(1) << i
		if m.Offers&bit != 0 && !s.canOffer(i, b) {
			return machineErr("offers", "seat %d cannot offer seat %d a loan (loan cards, $%d free)", i, b, LoanAmount)
		}
		if m.HasIncentive&bit == 0 && m.Incentives[i] != 0 {
			return machineErr(fmt.Sprintf("incentives[%d]", i), "$%d from a seat that bid no incentive", m.Incentives[i])
		}
		if m.HasIncentive&bit != 0 && m.Incentives[i] > s.freeCash(i)-LoanAmount {
			return machineErr(fmt.Sprintf("incentives[%d]", i), "$%d incentive with $%d free", m.Incentives[i], s.freeCash(i))
		}
	}
	if m.HasIncentive&^m.Offers != 0 || m.LoanTied&^m.Offers != 0 {
		return machineErr("has_incentive", "incentives %#x or ties %#x from seats that made no offer (%#x)", m.HasIncentive, m.LoanTied, m.Offers)
	}
	many := func(x uint8) bool { return x&(x-1) != 0 }
	best, at := int32(-1), uint8(0)
	for i := 0; i < n; i++ {
		if m.Offers&(1<<i) != 0 {
			if v := m.Incentives[i]; v > best {
				best, at = v, 1<<i
			} else if v == best {
				at |= 1 << i
			}
		}
	}
	d := int(m.Decider)
	switch m.Phase {
	case PhaseLoanOffer:
		if !s.isAsked(d, b) || m.Offers&^asked(d) != 0 {
			return machineErr("offers", "%#x: seat %d is asked after the seats before it, and must be one who could lend as far as the borrower knows", m.Offers, d)
		}
		if m.HasIncentive != 0 || m.LoanTied != 0 || m.IncentiveRevealed || m.Lender != -1 {
			return machineErr("has_incentive", "incentives or a lender before the offers are in")
		}
	case PhaseIncentiveBid:
		if !many(m.Offers) || m.HasIncentive != asked(d)&m.Offers || m.IncentiveRevealed || m.LoanTied != 0 || m.Lender != -1 {
			return machineErr("has_incentive", "%#x: the offering seats before seat %d bid first, nothing revealed yet (offers %#x)", m.HasIncentive, d, m.Offers)
		}
	case PhaseLoanTie:
		if !many(m.Offers) || m.HasIncentive != m.Offers || !m.IncentiveRevealed || m.LoanTied != at || !many(at) || m.Lender != -1 {
			return machineErr("loan_tied", "%#x: the borrower breaks a tie among the two or more highest incentives (%#x)", m.LoanTied, at)
		}
	case PhaseLoanAccept:
		if m.Lender < 0 || m.Offers&(1<<m.Lender) == 0 {
			return machineErr("lender", "%d made no offer (offers %#x)", m.Lender, m.Offers)
		}
		if many(m.Offers) {
			if m.HasIncentive != m.Offers || !m.IncentiveRevealed || m.LoanTied != at || at&(1<<m.Lender) == 0 {
				return machineErr("lender", "%d: the highest incentive (%#x) lends after every offerer bid", m.Lender, at)
			}
		} else if m.HasIncentive != 0 || m.IncentiveRevealed || m.LoanTied != 0 {
			return machineErr("has_incentive", "incentives with a single offer")
		}
	}
	return nil
}

// loanRequestable reports whether a loan may be requested during phase p (where TakeLoan is
// one of the legal moves).
func (s *State) loanRequestable(p Phase) bool { return loanAt(p) }

// checkAmountBase: an amount built with AmountHundred is a multiple of $100, exists only in
// a pending amount decision (a delivery bid, a runoff addition, a Bank cash bid, an incentive
// bid) of a game that is not over, and never exceeds the largest legal amount (AmountHundred
// is legal only while $100 more fits), so the decision keeps a legal id.
func (s *State) checkAmountBase() error {
	b := s.machine.AmountBase
	if b == 0 {
		return nil
	}
	if b < 0 || b%100 != 0 {
		return machineErr("amount_base", "$%d is not a non-negative multiple of $100", b)
	}
	_, hi, ok := s.amountRange()
	if s.Ended != NotEnded || !ok {
		return machineErr("amount_base", "$%d built outside an amount decision (phase %s)", b, s.machine.Phase)
	}
	if b > hi {
		return machineErr("amount_base", "$%d built, above the largest legal amount $%d", b, hi)
	}
	return nil
}

// checkHasLegalMove: a game that is not over has a decision with at least one legal move.
func (s *State) checkHasLegalMove() error {
	if s.Ended != NotEnded {
		return nil
	}
	if lo, hi, ok := s.amountRange(); ok && lo <= hi {
		return nil
	}
	k := sink{s: s, noAmounts: true}
	s.generate(&k)
	if len(k.moves) == 0 {
		return machineErr("phase", "%s of seat %d has no legal move", s.machine.Phase, s.machine.Decider)
	}
	return nil
}
