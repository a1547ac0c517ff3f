package rules

import "math/bits"

// This file holds small facts about a player's board: storage, factories, lots.

func (s *State) n() int { return s.game.opts.Players }

func (s *State) classic() bool { return s.game.opts.Variant == Classic }

// right is the seat on the right of seat p: the previous seat in turn order.
func (s *State) right(p int) int { return (p + s.n() - 1) % s.n() }

func (p *Player) numFactories() int { return bits.OnesCount8(p.Factories) }

func (p *Player) hasFactory(c Colour) bool { return p.Factories&(1<<c) != 0 }

func (p *Player) factoryLimit() int { return 2 * p.numFactories() }

func (p *Player) harborLimit() int { return int(p.Warehouses) }

func (p *Player) factoryCount() int {
	t := 0
	for i := range p.FactoryLots {
		t += p.FactoryLots[i].Total()
	}
	return t
}

func (p *Player) harborCount() int {
	t := 0
	for i := range p.HarborLots {
		t += p.HarborLots[i].Total()
	}
	return t
}

// reserve counts seat's containers on Bank bid tiles that came from district d (they keep
// their storage space: reserve tokens).
func (s *State) reserve(seat int, d District) int {
	t := 0
	for k := range s.Auctions {
		a := &s.Auctions[k]
		if a.Active && int(a.Bidder) == seat {
			if d == FactoryDistrict {
				t += a.FromFactory.Total()
			} else {
				t += a.FromHarbor.Total()
			}
		}
	}
	return t
}

// factorySpace is the free factory storage of seat, reserve tokens counted.
func (s *State) factorySpace(seat int) int {
	p := &s.Players[seat]
	return p.factoryLimit() - p.factoryCount() - s.reserve(seat, FactoryDistrict)
}

// harborSpace is the free harbor storage of seat, reserve tokens counted.
func (s *State) harborSpace(seat int) int {
	p := &s.Players[seat]
	return p.harborLimit() - p.harborCount() - s.reserve(seat, HarborDistrict)
}

// lots returns the storage lots of a district (factory: 4 lots, harbor: 5).
func (p *Player) lots(d District) []Counts {
	if d == FactoryDistrict {
		return p.FactoryLots[:]
	}
	return p.HarborLots[:]
}

// lotIndex converts the price in dollars of a lot of district d to the lot's index. The
// price comes from a legal move (Apply takes only legal ids; ApplyChecked checks), so it is a lot's price.
func lotIndex(d District, price int) int {
	if d == FactoryDistrict {
		return price - 1
	}
	return price - 2
}

// lotPrice converts a lot index of district d to its price in dollars.
func lotPrice(d District, i int) int {
	if d == FactoryDistrict {
		return FactoryPrice(i)
	}
	return HarborPrice(i)
}

// lowest returns the lowest colour with a non-zero count (NumColours if none).
func (c *Counts) lowest() Colour {
	for i, n := range c {
		if n > 0 {
			return Colour(i)
		}
	}
	return NumColours
}

// distinct is the number of colours with a non-zero count.
func (c *Counts) distinct() int {
	d := 0
	for _, n := range c {
		if n > 0 {
			d++
		}
	}
	return d
}

// halves is the Bank-bid value of c in half-containers: a gold container counts 1.5.
func (c *Counts) halves() int32 {
	return 2*int32(c.Total()) + int32(c[Gold])
}

// minPrice is the cheapest non-empty lot price of a district (0 if empty).
func minPrice(lots []Counts, d District) int {
	for i := range lots {
		if lots[i].Total() > 0 {
			return lotPrice(d, i)
		}
	}
	return 0
}

// emptyColours counts the supply colours that have run out (gold only with Luxury).
func (s *State) emptyColours() int { return s.emptyIn(&s.Supply) }

// emptyIn counts the colours of the supply sup that have run out (gold only with Luxury).
func (s *State) emptyIn(sup *Counts) int {
	e := 0
	for c := 0; c < NumNormalColours; c++ {
		if sup[c] == 0 {
			e++
		}
	}
	if s.game.opts.Modules.Has(Luxury) && sup[Gold] == 0 {
		e++
	}
	return e
}

// checkEnd sets EndTriggered once two supply colours are empty at the same time.
func (s *State) checkEnd() {
	if !s.EndTriggered && s.emptyColours() >= 2 {
		s.EndTriggered = true
	}
}

// rel converts an absolute seat to a seat relative to the decider.
func (s *State) rel(seat int) int {
	return (seat - int(s.machine.Decider) + s.n()) % s.n()
}

// abs converts a seat relative to the decider to an absolute seat; -1 when rel is not a
// seat of this game (ids for seats 4 and 5 in a 3-player game), so such ids are never legal.
func (s *State) abs(rel int) int {
	if rel >= s.n() {
		return -1
	}
	return (int(s.machine.Decider) + rel) % s.n()
}
