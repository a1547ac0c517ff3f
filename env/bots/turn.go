package bots

import (
	"github.com/container-rl/container/env/rules"
)

// turnScore values a move from the turn menu. EndTurn scores 0: the bot takes the best
// positive action until none is left.
func (s *Scripted) turnScore(b *board, m rules.Move) float64 {
	st := s.st
	p := b.p
	switch m.Kind {
	case rules.EndTurn:
		return 0
	case rules.RepayLoan:
		// Hysteresis with TakeLoan (which leaves cash below $14 when actions are used up and
		// below $22 otherwise) so the two never cycle.
		if s.freeN >= 4 {
			return never
		}
		if b.cash >= 22 || ((b.late || b.actionsLeft() == 0) && b.cash >= 14) {
			return 50
		}
		return never
	case rules.TakeLoan:
		if s.freeN >= 4 || int(p.NumLoans) >= rules.MaxLoans {
			return never
		}
		// Broke: borrow to keep trading (a second loan only when nearly penniless), but only
		// with something to do with the money: room to produce, cargo, or room to buy for resale.
		if b.cash < 4 && p.NumLoans == 0 && (b.ffree > 0 || b.shipN > 0 || b.hfree > 0) {
			return 45
		}
		if !b.late && p.NumLoans == 0 && b.actionsLeft() > 0 && b.nf < st.targetFactories && b.nf < rules.MaxFactories {
			cost := rules.FactoryCost[b.nf+1]
			if b.cash < cost && b.cash+10 >= cost && b.view.Turn < int32(4*b.players) {
				return 45
			}
		}
		return never
	case rules.Reprice:
		// A full district nobody buys from: drop the prices.
		if rules.District(m.Index) == rules.FactoryDistrict {
			if b.ffree <= 0 && !b.has(rules.Produce) && b.maxPrice(rules.FactoryDistrict) > stuckPrice(rules.FactoryDistrict) {
				return st.wProduce - 5
			}
		} else if b.hfree <= 0 && b.maxPrice(rules.HarborDistrict) > stuckPrice(rules.HarborDistrict) {
			return st.wFactoryPurchase - 5
		}
		return never
	case rules.BuildFactory:
		if b.late || b.nf >= st.targetFactories || b.nf >= rules.MaxFactories {
			return never
		}
		cost := rules.FactoryCost[b.nf+1]
		if b.cash < cost {
			return never
		}
		// Prefer a colour few others make (better prices), with supply left.
		c := m.Colour
		pref := -float64(b.factoryOwners(c, b.me)) + 0.05*float64(b.view.Supply[c])
		return st.wBuildFactory + pref
	case rules.BuildWarehouse:
		if int(p.Warehouses) >= rules.MaxWarehouses {
			return never
		}
		cost := rules.WarehouseCost[p.Warehouses+1]
		if b.late || int(p.Warehouses) >= st.targetWarehouses {
			// A full harbor and idle cash: room to buy keeps the trade (and the game) moving.
			if b.hfree <= 0 && b.cash >= cost+10 {
				return 1
			}
			return never
		}
		if b.cash < cost+3 {
			return never
		}
		return st.wBuildWarehouse
	case rules.Produce:
		n := b.producible()
		if n == 0 {
			return never
		}
		return st.wProduce + float64(n)
	case rules.FactoryPurchase:
		v := s.factoryPurchaseValue(b, int(m.Seat))
		if v <= 0 {
			return never
		}
		return st.wFactoryPurchase + v
	case rules.HarborPurchase:
		if p.ShipAt.Where != rules.AtHarbor {
			return never
		}
		v := s.harborValue(b, int(p.ShipAt.Seat))
		if v <= 0 {
			return never
		}
		return st.wShip + 4 + v
	case rules.SailOcean, rules.SailIsland, rules.SailBank, rules.SailHarbor:
		return s.sailScore(b, m)
	case rules.CallBankStart, rules.CallBankRaise, rules.TruckStart:
		return s.bankScore(b, m)
	case rules.AcquireLuxury:
		return s.luxuryScore(b, m)
	}
	return never
}

// factoryPurchaseValue is the expected profit of buying the cheap containers of seller's
// factory district into the bot's harbor.
func (s *Scripted) factoryPurchaseValue(b *board, seller int) float64 {
	if seller < 0 || seller >= b.players || seller == b.me || b.hfree <= 0 {
		return 0
	}
	budget := b.cash - 1
	if b.modules.Has(rules.Trucks) && b.view.Companies[b.me].Owner != int8(b.me) {
		budget-- // freight fee
	}
	room, v := b.hfree, 0.0
	sp := &b.view.Players[seller]
	for pi := 0; pi < rules.FactoryPrices && room > 0; pi++ {
		price := rules.FactoryPrice(pi)
		gain := float64(s.st.resale - 1 - price)
		if gain <= 0 {
			break
		}
		for c := range sp.FactoryLots[pi] {
			for k := 0; k < int(sp.FactoryLots[pi][c]) && room > 0 && budget >= price; k++ {
				v += gain
				room--
				budget -= price
			}
		}
	}
	return v
}

// harborValue is the value of buying the worthwhile containers in seat h's harbor onto the ship.
func (s *Scripted) harborValue(b *board, h int) float64 {
	if h < 0 || h >= b.players || h == b.me || b.shipFree <= 0 {
		return 0
	}
	budget := b.cash - 1
	room, v := b.shipFree, 0.0
	var extra rules.Counts
	hp := &b.view.Players[h]
	for pi := 0; pi < rules.HarborPrices && room > 0; pi++ {
		price := rules.HarborPrice(pi)
		for c := range hp.HarborLots[pi] {
			for k := 0; k < int(hp.HarborLots[pi][c]) && room > 0 && budget >= price; k++ {
				g := s.shipValue(b, rules.Colour(c), &extra) - float64(price)
				if g <= 0 {
					break
				}
				v += g
				extra[c]++
				room--
				budget -= price
			}
		}
	}
	return v
}

// bestHarbor is the opponent harbor most worth sailing to.
func (s *Scripted) bestHarbor(b *board) (int, float64) {
	best, bv := -1, 0.0
	for h := 0; h < b.players; h++ {
		if v := s.harborValue(b, h); v > bv {
			best, bv = h, v
		}
	}
	return best, bv
}

func (s *Scripted) sailScore(b *board, m rules.Move) float64 {
	st := s.st
	at := b.p.ShipAt
	bestH, bestV := s.bestHarbor(b)
	wantBank := b.holding > 0 && b.shipFree > 0
	wantDeliver := b.shipN >= st.deliverAt || (b.shipN > 0 && (b.late || (bestV < 1 && !wantBank)))
	switch m.Kind {
	case rules.SailIsland:
		if !wantDeliver {
			return never
		}
		// Delivering ends the turn: do it after everything else worth doing.
		return 2 + float64(b.shipN)
	case rules.SailBank:
		if !wantBank || wantDeliver {
			return never
		}
		return st.wShip + 6
	case rules.SailHarbor:
		if wantDeliver || int(m.Seat) != bestH || bestV < 1 {
			return never
		}
		return st.wShip + 4 + bestV/2
	case rules.SailOcean:
		switch at.Where {
		case rules.AtIsland:
			if b.shipN == 0 && bestV < 1 && !wantBank {
				return never
			}
			return st.wShip
		case rules.AtHarbor:
			if wantDeliver || wantBank || (bestH >= 0 && bestH != int(at.Seat) && bestV >= 1 && s.harborValue(b, int(at.Seat)) < 1) {
				return st.wShip + 3
			}
		case rules.AtBank:
			if wantDeliver || b.holding == 0 || b.shipFree == 0 || bestV >= 1 {
				return st.wShip + 3
			}
		}
	}
	return never
}

// bankScore values starting or raising an Off-Shore Bank auction or a Truck Company auction.
func (s *Scripted) bankScore(b *board, m rules.Move) float64 {
	st := s.st
	if b.late {
		return never
	}
	stock := b.p.FactoryLots[0].Total() + b.p.FactoryLots[1].Total()
	switch m.Kind {
	case rules.CallBankStart:
		i := int(m.Index)
		if i >= rules.BankLots { // cash lot: bid our cheapest container(s)
			cash := int(b.view.Bank.CashLots[i-rules.BankLots])
			if stock == 0 || cash < 4 {
				return never
			}
			return st.wBank + float64(cash-2)
		}
		lot := &b.view.Bank.ContainerLots[i]
		if lot.Total() == 0 || b.cash < 6 {
			return never
		}
		v := s.goodsValue(b, lot) + 3*lot.Total()/2
		if v < 8 {
			return never
		}
		return st.wBank + float64(v)/4
	case rules.CallBankRaise:
		if !st.exact {
			return never
		}
		a := &b.view.Auctions[m.Index]
		switch rules.AuctionKind(m.Index) {
		case rules.ContainerLotAuction:
			lot := &b.view.Bank.ContainerLots[a.Target]
			v := s.goodsValue(b, lot)
			if int(a.Cash)+1 > v/2 || int(a.Cash)+1 > b.cash-3 {
				return never
			}
			return st.wBank
		case rules.CashLotAuction:
			n := a.FromFactory.Total() + a.FromHarbor.Total()
			cash := int(b.view.Bank.CashLots[a.Target])
			if stock <= n || cash < 3*(n+1) {
				return never
			}
			return st.wBank
		}
		return never
	case rules.TruckStart:
		if !st.trucks || m.Index != 0 || b.cash < 8 {
			return never
		}
		c := int(m.Seat)
		if c < 0 || c >= b.players || b.view.Companies[c].Owner >= 0 {
			return never
		}
		if c == b.me {
			return st.wBank + 1
		}
		if pile := int(b.view.Companies[c].Pile); pile >= 3 {
			return st.wBank + float64(pile)/2
		}
	}
	return never
}

// luxuryScore values Acquire Luxury: trade two cheap containers of a full district for a gold.
func (s *Scripted) luxuryScore(b *board, m rules.Move) float64 {
	if !s.st.luxury || b.view.Supply[rules.Gold] == 0 {
		return never
	}
	// One gold at a time, only in a full district: two cheap containers that do not sell
	// become one that sells dearer (gold is any colour on the buyer's island).
	if rules.District(m.Index) == rules.FactoryDistrict {
		if !s.st.exact || b.ffree > 0 || b.goldIn(rules.FactoryDistrict) || b.p.FactoryLots[0].Total()+b.p.FactoryLots[1].Total() < 2 {
			return never
		}
		return 5
	}
	if b.hfree > 0 || b.goldIn(rules.HarborDistrict) || b.p.HarborLots[0].Total()+b.p.HarborLots[1].Total()+b.p.HarborLots[2].Total() < 2 {
		return never
	}
	return 4
}
