package rules

// This file holds the Luxury Containers module's Acquire Luxury free action: once per turn,
// on the turn menu (never inside an action), return any 2 containers of one district to the
// supply and place a gold container from the supply in that district at any price, without
// repricing anything else. The two containers are picked one at a time in canonical order
// (the second pick's id is not below the first's), so each pair is one decision sequence.

// canAcquireLuxury reports whether seat may take Acquire Luxury on district d now.
func (s *State) canAcquireLuxury(seat int, d District) bool {
	if !s.game.opts.Modules.Has(Luxury) || s.machine.LuxuryUsed || s.Supply[Gold] == 0 {
		return false
	}
	p := &s.Players[seat]
	if d == FactoryDistrict && p.factoryCount() < 2 || d == HarborDistrict && p.harborCount() < 2 {
		return false
	}
	if !s.noTrigger() {
		return true
	}
	// After a Call Bank this turn: only with a pair whose return keeps the end untriggered.
	lots := p.lots(d)
	for c := Colour(0); c < NumColours; c++ {
		for i := range lots {
			if lots[i][c] > 0 && s.luxuryFirstAvoidsEnd(d, c, i) {
				return true
			}
		}
	}
	return false
}

func (s *State) acquireLuxury(d District) {
	m := &s.machine
	m.LuxuryUsed = true
	m.Action = AcquireLuxury
	m.District = d
	m.LuxFirst = 0
	m.Phase = PhaseLuxuryPick
}

// luxuryPickIndex orders the containers of a district for the canonical pick order.
func luxuryPickIndex(c Colour, lot int) uint8 { return uint8(int(c)*HarborPrices + lot) }

// canLuxuryPick reports whether the container of colour c in lot i may be returned next.
func (s *State) canLuxuryPick(c Colour, i int) bool {
	m := &s.machine
	lots := s.Players[s.Active].lots(m.District)
	if lots[i][c] == 0 {
		return false
	}
	if m.LuxFirst != 0 {
		return luxuryPickIndex(c, i) >= m.LuxFirst-1 &&
			(!s.noTrigger() || !s.luxuryTriggers(s.Supply, c))
	}
	if s.noTrigger() {
		return s.luxuryFirstAvoidsEnd(m.District, c, i)
	}
	// A first pick must leave a second container at the same or a later index.
	if lots[i][c] >= 2 {
		return true
	}
	for c2 := c; c2 < NumColours; c2++ {
		for i2 := range lots {
			if luxuryPickIndex(c2, i2) > luxuryPickIndex(c, i) && lots[i2][c2] > 0 {
				return true
			}
		}
	}
	return false
}

// luxuryPick returns a container to the supply; after the second, the gold is taken.
func (s *State) luxuryPick(c Colour, i int) {
	m := &s.machine
	s.Players[s.Active].lots(m.District)[i][c]--
	s.Supply[c]++
	if m.LuxFirst == 0 {
		m.LuxFirst = luxuryPickIndex(c, i) + 1
		return
	}
	s.Supply[Gold]--
	s.checkEnd()
	m.Pending[Gold]++
	s.startPlace()
}
