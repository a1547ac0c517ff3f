package bots

import (
	"math/bits"

	"github.com/container-rl/container/env/rules"
)

// board is what a scripted bot reads off its view before scoring the legal moves.
type board struct {
	view     *rules.State
	d        rules.Decision
	me       int
	players  int
	modules  rules.Modules
	p        *rules.Player
	cash     int
	nf       int // factories
	ffree    int // free factory storage (reserve tokens counted)
	hfree    int // free harbor storage (reserve tokens counted)
	shipN    int
	shipFree int
	holding  int
	late     bool   // the supply is close to running out of a second colour
	kinds    uint64 // bit k: some legal move has kind k
}

func (b *board) fill(view *rules.State, legal []int) {
	*b = board{view: view, d: view.Decision()}
	b.me = b.d.Decider
	if b.me < 0 || b.me >= rules.MaxPlayers {
		b.me = 0
	}
	if g := view.Game(); g != nil {
		o := g.Options()
		b.players, b.modules = o.Players, o.Modules
	}
	if b.players == 0 {
		for i := range view.Players {
			if view.Players[i].Warehouses > 0 {
				b.players = i + 1
			}
		}
	}
	b.p = &view.Players[b.me]
	b.cash = int(b.p.Cash)
	b.nf = bits.OnesCount8(b.p.Factories)
	fStored, hStored := 0, 0
	for i := range b.p.FactoryLots {
		fStored += b.p.FactoryLots[i].Total()
	}
	for i := range b.p.HarborLots {
		hStored += b.p.HarborLots[i].Total()
	}
	for i := range view.Auctions {
		a := &view.Auctions[i]
		if a.Active && int(a.Bidder) == b.me {
			fStored += a.FromFactory.Total()
			hStored += a.FromHarbor.Total()
		}
	}
	b.ffree = 2*b.nf - fStored
	b.hfree = int(b.p.Warehouses) - hStored
	b.shipN = b.p.Ship.Total()
	b.shipFree = rules.ShipCapacity - b.shipN
	b.holding = b.p.Holding.Total()
	// Late game: a second colour is about to run out of the supply.
	lo1, lo2 := 1<<30, 1<<30
	nc := rules.NumNormalColours
	if b.modules.Has(rules.Luxury) {
		nc = rules.NumColours
	}
	for c := 0; c < nc; c++ {
		v := int(view.Supply[c])
		if v < lo1 {
			lo1, lo2 = v, lo1
		} else if v < lo2 {
			lo2 = v
		}
	}
	b.late = lo2 <= b.players+1
	for _, id := range legal {
		b.kinds |= 1 << uint(view.ActionToMove(id).Kind)
	}
}

func (b *board) has(k rules.MoveKind) bool { return b.kinds&(1<<uint(k)) != 0 }

// producible is how many containers a Produce would make now.
func (b *board) producible() int {
	if b.cash < 1 {
		return 0
	}
	n := 0
	for c := 0; c < rules.NumNormalColours; c++ {
		if b.p.Factories&(1<<c) != 0 && b.view.Supply[c] > 0 {
			n++
		}
	}
	return min(n, b.ffree)
}

// factoryStock counts the containers of colour c in every factory district except seat skip.
func (b *board) factoryStock(c rules.Colour, skip int) int {
	n := 0
	for s := 0; s < b.players; s++ {
		if s == skip {
			continue
		}
		for i := range b.view.Players[s].FactoryLots {
			n += int(b.view.Players[s].FactoryLots[i][c])
		}
	}
	return n
}

// factoryOwners counts the players other than skip with a factory of colour c.
func (b *board) factoryOwners(c rules.Colour, skip int) int {
	n := 0
	for s := 0; s < b.players; s++ {
		if s != skip && b.view.Players[s].Factories&(1<<c) != 0 {
			n++
		}
	}
	return n
}

// actionsLeft is how many of the active player's two actions are left this turn.
func (b *board) actionsLeft() int { return max(0, 2-int(b.d.Turn.ActionsUsed)) }

// maxPrice is the highest price of a normal (not gold) container in the bot's district d
// (0 if there is none).
func (b *board) maxPrice(d rules.District) int {
	normal := func(c *rules.Counts) bool { return c.Total() > int(c[rules.Gold]) }
	if d == rules.HarborDistrict {
		for i := rules.HarborPrices - 1; i >= 0; i-- {
			if normal(&b.p.HarborLots[i]) {
				return rules.HarborPrice(i)
			}
		}
		return 0
	}
	for i := rules.FactoryPrices - 1; i >= 0; i-- {
		if normal(&b.p.FactoryLots[i]) {
			return rules.FactoryPrice(i)
		}
	}
	return 0
}

// goldIn reports whether the bot has a gold container in district d.
func (b *board) goldIn(d rules.District) bool {
	if d == rules.HarborDistrict {
		for i := range b.p.HarborLots {
			if b.p.HarborLots[i][rules.Gold] > 0 {
				return true
			}
		}
		return false
	}
	for i := range b.p.FactoryLots {
		if b.p.FactoryLots[i][rules.Gold] > 0 {
			return true
		}
	}
	return false
}
