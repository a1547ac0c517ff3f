package rules

// This file resolves a default (Bank Loans, Default): one container seized per unpaid loan
// from the first non-empty location of island, ship, holding area, harbor, factory (never a
// bid tile); the player on the defaulter's right picks the container when there is a choice.

// seizeLocation is the first location of seat holding a container (seizeNothing if none).
func (s *State) seizeLocation(seat int) uint8 {
	p := &s.Players[seat]
	switch {
	case p.Island.Total() > 0:
		return seizeIsland
	case p.Ship.Total() > 0:
		return seizeShip
	case p.Holding.Total() > 0:
		return seizeHolding
	case p.harborCount() > 0:
		return seizeHarbor
	case p.factoryCount() > 0:
		return seizeFactory
	}
	return seizeNothing
}

// seizeOptions counts the different containers the seizer could take at loc: colours in an
// unpriced area, (colour, lot) pairs in a district.
func (s *State) seizeOptions(seat int, loc uint8) int {
	p := &s.Players[seat]
	switch loc {
	case seizeIsland:
		return p.Island.distinct()
	case seizeShip:
		return p.Ship.distinct()
	case seizeHolding:
		return p.Holding.distinct()
	}
	lots := p.lots(seizeDistrict(loc))
	k := 0
	for i := range lots {
		k += lots[i].distinct()
	}
	return k
}

func seizeDistrict(loc uint8) District {
	if loc == seizeHarbor {
		return HarborDistrict
	}
	return FactoryDistrict
}

// seizeStep seizes one container for an unpaid loan of seat. It returns true when the
// seizer must choose (a PhaseSeize decision is pending).
func (s *State) seizeStep(seat int) bool {
	m := &s.machine
	loc := s.seizeLocation(seat)
	if loc == seizeNothing {
		m.Unpaid = 0 // nothing to seize: the interest is forgiven this turn
		return false
	}
	if s.seizeOptions(seat, loc) > 1 {
		m.Phase = PhaseSeize
		m.Decider = int8(s.right(seat))
		m.Counterpart = int8(seat)
		m.SeizeAt = loc
		return true
	}
	p := &s.Players[seat]
	switch loc {
	case seizeIsland:
		s.seize(&p.Island, p.Island.lowest())
	case seizeShip:
		s.seize(&p.Ship, p.Ship.lowest())
	case seizeHolding:
		s.seize(&p.Holding, p.Holding.lowest())
	default:
		lots := p.lots(seizeDistrict(loc))
		for i := range lots {
			if c := lots[i].lowest(); c < NumColours {
				s.seize(&lots[i], c)
				break
			}
		}
	}
	return false
}

// seizeFrom takes the seizer's pick: to the lender's scoring area (Player Loans) or to the
// Bank's seized pile; the turn start then continues.
func (s *State) seizeFrom(area *Counts, c Colour) {
	if s.machine.SeizeAt == seizeAnywhere {
		s.lenderSeize(area, c)
		return
	}
	s.seize(area, c)
	s.runTurnStart()
}

// seize moves one container of colour c from area to the seized pile.
func (s *State) seize(area *Counts, c Colour) {
	area[c]--
	s.machine.Seized[c]++
	s.machine.Unpaid--
}
