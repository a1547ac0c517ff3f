package rules

import (
	"fmt"
)

// Machine checks of the action in progress: what each phase of an action holds (the
// containers to place, produce colours, fixed containers within their lots).

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
