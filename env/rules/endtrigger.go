package rules

// This file keeps a Call Bank and the end trigger out of the same turn in either order
// (Rulebook, Game End, the "important" note; End ref, Game end): a player who has triggered
// the end may not Call Bank (canCallBank), and a player who has called the Bank this turn
// (a start, a raise or a truck company auction) may not trigger the end. The second half is
// enforced on the only two ways a container leaves the supply during play, Produce and
// Acquire Luxury: after a Call Bank, a choice is legal only if it can still be completed
// without two supply colours being empty at once. Produce with enough storage produces
// every colour it can, so it is illegal when that would empty a second colour; with short
// storage the colours are picked one at a time and only picks that leave a non-triggering
// completion are offered; Acquire Luxury is offered only with a pair of containers whose
// return (before the gold is taken) keeps the end untriggered, and each pick keeps one open.

// noTrigger reports whether the active player's choices must avoid triggering the end: it
// called the Bank this turn and the end is not triggered yet.
func (s *State) noTrigger() bool { return s.machine.CalledBank && !s.EndTriggered }

// produceAvoidsEnd reports whether a Produce by seat, started now, can be completed without
// emptying a second supply colour (every producible colour when storage allows, else a
// choice of space colours).
func (s *State) produceAvoidsEnd(seat int) bool {
	cands, n := s.producible(seat)
	return s.produceFeasible(s.Supply, cands, n, s.factorySpace(seat))
}

// produceFeasible: the candidates cands (n of them) are still to choose from, picks more
// must be taken (all of them when n <= picks) from the supply sup; can that end with fewer
// than two empty colours? Producing a colour whose supply holds one container empties it.
func (s *State) produceFeasible(sup Counts, cands Counts, n, picks int) bool {
	e := s.emptyIn(&sup)
	critical := 0
	for c := range cands {
		if cands[c] > 0 && sup[c] == 1 {
			critical++
		}
	}
	if n <= picks {
		return e+critical < 2
	}
	return e+max(0, picks-(n-critical)) < 2
}

// producePickAvoidsEnd reports whether picking colour c next (short-storage Produce) leaves a
// completion that does not trigger the end.
func (s *State) producePickAvoidsEnd(c Colour) bool {
	m := &s.machine
	cands, _ := s.producible(int(s.Active))
	n := 0
	for col := range cands {
		if cands[col] > 0 && m.Pending[col] == 0 && Colour(col) != c {
			n++
		} else {
			cands[col] = 0
		}
	}
	sup := s.Supply
	sup[c]--
	return s.produceFeasible(sup, cands, n, int(m.PickLeft)-1)
}

// luxuryTriggers reports whether returning containers of the colours in back to the supply
// sup and then taking a gold would leave two supply colours empty.
func (s *State) luxuryTriggers(sup Counts, back ...Colour) bool {
	for _, c := range back {
		sup[c]++
	}
	sup[Gold]--
	return s.emptyIn(&sup) >= 2
}

// luxuryFirstAvoidsEnd reports whether returning the container of colour c in lot i of
// district d first leaves a second container (same or later canonical index) whose return
// avoids the end.
func (s *State) luxuryFirstAvoidsEnd(d District, c Colour, i int) bool {
	lots := s.Players[s.Active].lots(d)
	first := luxuryPickIndex(c, i)
	for c2 := c; c2 < NumColours; c2++ {
		for i2 := range lots {
			n := lots[i2][c2]
			if luxuryPickIndex(c2, i2) == first {
				n-- // the first container itself
			}
			if n > 0 && luxuryPickIndex(c2, i2) >= first && !s.luxuryTriggers(s.Supply, c, c2) {
				return true
			}
		}
	}
	return false
}
