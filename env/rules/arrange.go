package rules

// This file holds producing, buying from factories and harbors, and arranging containers
// in storage lots (Produce, Factory Purchase, Harbor Purchase, Reprice actions).
//
// Arranging is a loop of atomic decisions: the pending (new) containers are placed one at a
// time, lowest colour first, at a price the owner picks; then the owner may pick up any
// container not yet placed during this action and place it again, or stop (Done). Each
// container moves at most once per action (machine.Fixed), so the loop is finite and every
// final arrangement is reachable.

// producible lists (as a count per colour, 0 or 1) what seat's factories could produce now.
func (s *State) producible(seat int) (c Counts, n int) {
	p := &s.Players[seat]
	for col := Colour(0); col < NumNormalColours; col++ {
		if p.hasFactory(col) && s.Supply[col] > 0 {
			c[col] = 1
			n++
		}
	}
	return c, n
}

// canProduce: once per turn, the $1 wage in hand, at least one container fits.
func (s *State) canProduce(seat int) bool {
	if s.machine.Produced || s.Players[seat].Cash < 1 || s.factorySpace(seat) <= 0 {
		return false
	}
	_, n := s.producible(seat)
	return n > 0 && (!s.noTrigger() || s.produceAvoidsEnd(seat))
}

// produce pays the wage to the right-hand player and takes the new containers from the
// supply; when storage is short the player picks the colours (PhaseProduceColour).
func (s *State) produce(seat int) {
	m := &s.machine
	m.Produced = true
	s.Players[seat].Cash--
	s.Players[s.right(seat)].Cash++
	m.Action = Produce
	m.District = FactoryDistrict
	m.Fixed = [HarborPrices]Counts{}
	cands, n := s.producible(seat)
	space := s.factorySpace(seat)
	if n <= space {
		for c := range cands {
			if cands[c] > 0 {
				s.Supply[c]--
				m.Pending[c]++
			}
		}
		s.checkEnd()
		s.startPlace()
		return
	}
	m.Phase = PhaseProduceColour
	m.PickLeft = uint8(space)
}

// produceColour takes one container of colour c for a short-storage Produce.
func (s *State) produceColour(c Colour) {
	m := &s.machine
	s.Supply[c]--
	m.Pending[c]++
	m.PickLeft--
	if m.PickLeft == 0 {
		s.checkEnd()
		s.startPlace()
	}
}

// startPlace asks the active player to place the pending containers.
func (s *State) startPlace() {
	m := &s.machine
	m.Phase = PhasePlace
	m.Decider = s.Active
}

// place puts the lowest-coloured pending container in the lot priced price of the
// district being arranged, by the decider.
func (s *State) place(price int) {
	m := &s.machine
	c := m.Pending.lowest()
	i := lotIndex(m.District, price)
	s.Players[m.Decider].lots(m.District)[i][c]++
	m.Pending[c]--
	if m.Phase == PhaseReturnBid {
		if m.Pending.Total() == 0 {
			s.continueReturn()
		}
		return
	}
	m.Fixed[i][c]++
	if m.Pending.Total() == 0 {
		if m.Action == AcquireLuxury {
			s.toMenu() // the gold is placed; nothing else may be repriced
			return
		}
		s.startRearrange()
	}
}

// startRearrange opens the optional rearrange loop, or ends the action when nothing can move.
func (s *State) startRearrange() {
	m := &s.machine
	if !s.canMoveAny() {
		s.toMenu()
		return
	}
	m.Phase = PhaseRearrange
	m.Decider = s.Active
}

// movable is how many containers of colour c in lot i may still be picked up this action.
func (s *State) movable(i int, c Colour) int {
	m := &s.machine
	return int(s.Players[s.Active].lots(m.District)[i][c]) - int(m.Fixed[i][c])
}

func (s *State) canMoveAny() bool {
	lots := s.Players[s.Active].lots(s.machine.District)
	for i := range lots {
		for c := Colour(0); c < NumColours; c++ {
			if s.movable(i, c) > 0 {
				return true
			}
		}
	}
	return false
}

// pickUp takes a container of colour c from lot i for placing again.
func (s *State) pickUp(c Colour, i int) {
	m := &s.machine
	s.Players[s.Active].lots(m.District)[i][c]--
	m.Pending[c]++
	m.Phase = PhasePlace
}

// reprice starts a Reprice action on district d.
func (s *State) reprice(d District) {
	m := &s.machine
	m.Action = Reprice
	m.District = d
	m.Fixed = [HarborPrices]Counts{}
	s.startRearrange()
}

// canFactoryPurchase reports whether buyer may buy at least one container from seller's
// factory lots: one in stock, harbor space (space is s.harborSpace(buyer)), the price (and
// with Trucks the $1 freight fee).
func (s *State) canFactoryPurchase(buyer, seller, space int) bool {
	if buyer == seller || space <= 0 {
		return false
	}
	mp := minPrice(s.Players[seller].FactoryLots[:], FactoryDistrict)
	return mp > 0 && int(s.Players[buyer].Cash) >= mp+s.freightFee(buyer)
}

// freightFee is the Truck Companies fee for a Factory Purchase by buyer: $1 unless the
// module is off or the buyer owns its own company.
func (s *State) freightFee(buyer int) int {
	if !s.game.opts.Modules.Has(Trucks) || int(s.Companies[buyer].Owner) == buyer {
		return 0
	}
	return 1
}

// companyAuctioned reports whether seat's Truck Company is the target of the open truck
// auction.
func (s *State) companyAuctioned(seat int) bool {
	a := &s.Auctions[TruckAuction]
	return a.Active && int(a.Target) == seat
}

// factoryPurchase starts buying from seller's factory lots.
func (s *State) factoryPurchase(buyer, seller int) {
	m := &s.machine
	if fee := s.freightFee(buyer); fee > 0 {
		s.Players[buyer].Cash -= int32(fee)
		switch o := s.Companies[buyer].Owner; {
		case o >= 0:
			s.Players[o].Cash += int32(fee)
		case s.companyAuctioned(buyer):
			// Nothing may be added to a lot being auctioned (company auctions follow the
			// Bank-lot rules, More, Truck Company Auctions): the fee goes to the supply.
			s.machine.ToSupply += int64(fee)
		default:
			s.Companies[buyer].Pile += int32(fee)
		}
	}
	m.Action = FactoryPurchase
	m.Phase = PhaseBuyFactory
	m.Counterpart = int8(seller)
	m.District = HarborDistrict
	m.Fixed = [HarborPrices]Counts{}
	m.Bought = 0
}

// canBuyFromFactory reports whether the buyer can take one more container of colour c from
// the seller's factory lot i.
func (s *State) canBuyFromFactory(c Colour, i int) bool {
	m := &s.machine
	buyer := int(s.Active)
	return s.Players[m.Counterpart].FactoryLots[i][c] > 0 &&
		int(s.Players[buyer].Cash) >= FactoryPrice(i) &&
		s.harborSpace(buyer)-m.Pending.Total() > 0
}

func (s *State) anyFactoryBuy() bool {
	for i := 0; i < FactoryPrices; i++ {
		for c := Colour(0); c < NumColours; c++ {
			if s.canBuyFromFactory(c, i) {
				return true
			}
		}
	}
	return false
}

// buyFromFactory buys one container from the seller's lot i: paid to the seller, pending
// for the buyer's harbor.
func (s *State) buyFromFactory(c Colour, i int) {
	m := &s.machine
	seller := &s.Players[m.Counterpart]
	seller.FactoryLots[i][c]--
	price := int32(FactoryPrice(i))
	seller.Cash += price
	s.Players[s.Active].Cash -= price
	m.Pending[c]++
	m.Bought++
	if !s.anyFactoryBuy() && !(s.canLoan(int(s.Active)) && s.factoryStockLeft()) {
		s.startPlace()
	}
}

// factoryStockLeft reports whether the seller still has a container the buyer has harbor
// space for, whatever its price: with a loan still possible the purchase stays open (a
// loan may be requested at any decision point, CLARIFICATIONS, Loans).
func (s *State) factoryStockLeft() bool {
	m := &s.machine
	if s.harborSpace(int(s.Active))-m.Pending.Total() <= 0 {
		return false
	}
	for i := range s.Players[m.Counterpart].FactoryLots {
		if s.Players[m.Counterpart].FactoryLots[i].Total() > 0 {
			return true
		}
	}
	return false
}

// harborStockLeft reports whether seat's ship, docked at an opponent's harbor, has room and
// the harbor holds a container, whatever its price (see factoryStockLeft).
func (s *State) harborStockLeft(seat int) bool {
	p := &s.Players[seat]
	return p.ShipAt.Where == AtHarbor && p.Ship.Total() < ShipCapacity &&
		minPrice(s.Players[p.ShipAt.Seat].HarborLots[:], HarborDistrict) > 0
}

// canBuyHarbor reports whether seat's ship, docked at an opponent's harbor, can buy one
// container there.
func (s *State) canBuyHarbor(seat int) bool {
	p := &s.Players[seat]
	if p.ShipAt.Where != AtHarbor || p.Ship.Total() >= ShipCapacity {
		return false
	}
	mp := minPrice(s.Players[p.ShipAt.Seat].HarborLots[:], HarborDistrict)
	return mp > 0 && int(p.Cash) >= mp
}

// harborPurchase starts a Harbor Purchase action at the docked harbor.
func (s *State) harborPurchase(seat int) {
	m := &s.machine
	m.Action = HarborPurchase
	m.Phase = PhaseBuyHarbor
	m.Counterpart = s.Players[seat].ShipAt.Seat
	m.Free = false
	m.Bought = 0
}

func (s *State) canBuyFromHarbor(c Colour, i int) bool {
	m := &s.machine
	p := &s.Players[s.Active]
	return s.Players[m.Counterpart].HarborLots[i][c] > 0 && int(p.Cash) >= HarborPrice(i) &&
		p.Ship.Total() < ShipCapacity
}

func (s *State) anyHarborBuy() bool {
	for i := 0; i < HarborPrices; i++ {
		for c := Colour(0); c < NumColours; c++ {
			if s.canBuyFromHarbor(c, i) {
				return true
			}
		}
	}
	return false
}

// buyFromHarbor buys one container from the owner's harbor lot i onto the ship.
func (s *State) buyFromHarbor(c Colour, i int) {
	m := &s.machine
	owner := &s.Players[m.Counterpart]
	owner.HarborLots[i][c]--
	price := int32(HarborPrice(i))
	owner.Cash += price
	p := &s.Players[s.Active]
	p.Cash -= price
	p.Ship[c]++
	m.Bought++
	if !s.anyHarborBuy() && !(s.canLoan(int(s.Active)) && s.harborStockLeft(int(s.Active))) {
		s.toMenu()
	}
}

// loadHolding moves one container of colour c from the holding area onto the ship.
func (s *State) loadHolding(c Colour) {
	p := &s.Players[s.Active]
	p.Holding[c]--
	p.Ship[c]++
	if !s.canLoadBank(int(s.Active)) {
		s.toMenu()
	}
}
