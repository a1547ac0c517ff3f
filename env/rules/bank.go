package rules

// This file holds the Off-Shore Bank: Call Bank (start or raise an auction), container bids,
// winning an auction and paying containers to the Bank (Bank Auctions, Paying the Bank).

// canCallBank reports whether the active seat may take a Call Bank action at all: not in
// Classic, once per turn, not after winning an auction or triggering the end this turn.
func (s *State) canCallBank() bool {
	m := &s.machine
	return !s.classic() && !m.CalledBank && !m.WonAuction && !s.EndTriggered && m.ActionsUsed < 2
}

// tokenFree reports whether an auction of kind may start: with 3-4 players no Bank-lot
// auction may be open; with 5 players, none of the same kind.
func (s *State) tokenFree(kind AuctionKind) bool {
	if s.game.opts.auctionTokens() == 2 {
		return !s.Auctions[kind].Active
	}
	return !s.Auctions[ContainerLotAuction].Active && !s.Auctions[CashLotAuction].Active
}

// ownValue is the Bank-bid value (half-containers) of everything in seat's storage lots.
func (s *State) ownValue(seat int) int32 {
	p := &s.Players[seat]
	v := int32(0)
	for i := range p.FactoryLots {
		v += p.FactoryLots[i].halves()
	}
	for i := range p.HarborLots {
		v += p.HarborLots[i].halves()
	}
	return v
}

// canStartBank reports whether seat may start an auction on Bank lot index idx (0..2
// container lots, 3..5 cash lots) with an opening bid of at least $1 or one container;
// value is s.ownValue(seat).
func (s *State) canStartBank(seat, idx int, value int32) bool {
	if idx < BankLots {
		return s.tokenFree(ContainerLotAuction) && s.Bank.ContainerLots[idx].Total() > 0 &&
			s.Players[seat].Cash >= 1
	}
	return s.tokenFree(CashLotAuction) && s.Bank.CashLots[idx-BankLots] > 0 && value > 0
}

// canRaiseBank reports whether seat may outbid the open auction of kind (strictly higher,
// never its own bid); value is s.ownValue(seat).
func (s *State) canRaiseBank(seat int, kind AuctionKind, value int32) bool {
	a := &s.Auctions[kind]
	if !a.Active || int(a.Bidder) == seat {
		return false
	}
	if kind == TruckAuction && s.Players[seat].Trucks >= TrucksPerPlayer {
		return false
	}
	if kind == ContainerLotAuction || (kind == TruckAuction && a.Cash > 0) {
		return s.Players[seat].Cash > a.Cash
	}
	return value > bidHalves(a)
}

func bidHalves(a *Auction) int32 { return a.FromFactory.halves() + a.FromHarbor.halves() }

// startBank starts an auction on lot idx for seat and asks for the opening bid.
func (s *State) startBank(seat, idx int) {
	kind, target := ContainerLotAuction, idx
	if idx >= BankLots {
		kind, target = CashLotAuction, idx-BankLots
	}
	s.Auctions[kind] = Auction{Active: true, Target: int8(target), Bidder: int8(seat)}
	s.askBid(kind, 0, kind == ContainerLotAuction)
}

// canStartTruck reports whether seat may start an auction on company's Truck Company with
// an opening bid in cash (containers false) or containers (Truck Companies module): the
// company is independent, the truck auction token is free, the bidder has a truck left;
// value is s.ownValue(seat).
func (s *State) canStartTruck(seat, company int, containers bool, value int32) bool {
	if !s.game.opts.Modules.Has(Trucks) || s.Auctions[TruckAuction].Active ||
		s.Companies[company].Owner >= 0 || s.Players[seat].Trucks >= TrucksPerPlayer {
		return false
	}
	if containers {
		return value > 0
	}
	return s.Players[seat].Cash >= 1
}

// startTruck starts an auction on company's Truck Company for seat.
func (s *State) startTruck(seat, company int, containers bool) {
	s.Auctions[TruckAuction] = Auction{Active: true, Target: int8(company), Bidder: int8(seat)}
	s.askBid(TruckAuction, 0, !containers)
}

// askBid asks the active seat for a bid in cash or containers on the auction of kind that
// beats toBeat.
func (s *State) askBid(kind AuctionKind, toBeat int32, cash bool) {
	m := &s.machine
	m.BidKind = kind
	m.ToBeat = toBeat
	m.Decider = s.Active
	if cash {
		m.Phase = PhaseBankCashBid
	} else {
		m.Phase = PhaseBankContainerBid
	}
}

// raiseBank outbids the open auction of kind: the outbid player takes back cash at once,
// or puts returned containers back into their districts (PhaseReturnBid) before the new
// bid is made.
func (s *State) raiseBank(seat int, kind AuctionKind) {
	a := &s.Auctions[kind]
	old := int(a.Bidder)
	a.Bidder = int8(seat)
	if a.Cash > 0 { // a cash bid (outbids stay in the same currency)
		s.Players[old].Cash += a.Cash
		toBeat := a.Cash
		a.Cash = 0
		s.askBid(kind, toBeat, true)
		return
	}
	m := &s.machine
	m.BidKind = kind
	m.ToBeat = bidHalves(a)
	m.Returner = int8(old)
	m.ReturnFactory, m.ReturnHarbor = a.FromFactory, a.FromHarbor
	a.FromFactory, a.FromHarbor = Counts{}, Counts{}
	s.continueReturn()
}

// continueReturn asks the outbid player to put back the next district's containers, then
// asks the new bidder for the container bid.
func (s *State) continueReturn() {
	m := &s.machine
	switch {
	case m.ReturnFactory.Total() > 0:
		m.Pending, m.ReturnFactory = m.ReturnFactory, Counts{}
		m.District = FactoryDistrict
	case m.ReturnHarbor.Total() > 0:
		m.Pending, m.ReturnHarbor = m.ReturnHarbor, Counts{}
		m.District = HarborDistrict
	default:
		m.Returner = -1
		s.askBid(m.BidKind, m.ToBeat, false)
		return
	}
	m.Phase = PhaseReturnBid
	m.Decider = m.Returner
}

// cashBid puts amount on the cash bid tile (frozen: out of the bidder's hand).
func (s *State) cashBid(amount int32) {
	a := &s.Auctions[s.machine.BidKind]
	a.Cash = amount
	s.Players[a.Bidder].Cash -= amount
	s.toMenu()
}

// bidContainer moves one container from the bidder's lot onto the container bid tile.
func (s *State) bidContainer(d District, c Colour, lot int) {
	a := &s.Auctions[s.machine.BidKind]
	p := &s.Players[a.Bidder]
	p.lots(d)[lot][c]--
	if d == FactoryDistrict {
		a.FromFactory[c]++
	} else {
		a.FromHarbor[c]++
	}
	if s.ownValue(int(a.Bidder)) == 0 {
		s.toMenu() // everything is on the tile (it beats the bid: raising needed more value)
	}
}

// winAuction resolves the open auction of kind for its bidder: the bid is paid to the Bank,
// the prize collected, the token returned. It returns true when the payer must choose
// colours for the Bank's container lots (resume then continues).
func (s *State) winAuction(kind AuctionKind, resume uint8) bool {
	a := &s.Auctions[kind]
	w := int(a.Bidder)
	p := &s.Players[w]
	bid := a.FromFactory
	bid.Add(&a.FromHarbor)
	cash := a.Cash
	switch kind {
	case ContainerLotAuction:
		p.Holding.Add(&s.Bank.ContainerLots[a.Target])
		s.Bank.ContainerLots[a.Target] = Counts{}
	case CashLotAuction:
		p.Cash += s.Bank.CashLots[a.Target]
		s.Bank.CashLots[a.Target] = 0
	case TruckAuction:
		c := &s.Companies[a.Target]
		p.Cash += c.Pile
		c.Pile = 0
		c.Owner = int8(w)
		p.Trucks++
	}
	*a = Auction{}
	s.payBankCash(cash)
	if bid.Total() > 0 {
		return s.startPay(bid, w, resume)
	}
	return false
}

// startPay pays containers to the Bank container lots: one at a time from lot I, skipping a
// lot with an auction token; payer chooses the colour for each lot while colours differ.
// It returns true when a PhaseBankPayColour decision is pending.
func (s *State) startPay(c Counts, payer int, resume uint8) bool {
	m := &s.machine
	m.Pay = c
	m.Payer = int8(payer)
	m.PayPlaced = 0
	m.PayResume = resume
	return s.continuePay()
}

func (s *State) continuePay() bool {
	m := &s.machine
	for m.Pay.Total() > 0 {
		if m.Pay.distinct() > 1 {
			m.Phase = PhaseBankPayColour
			m.Decider = m.Payer
			m.Counterpart = -1
			return true
		}
		s.payOne(m.Pay.lowest())
	}
	return false
}

// payOne puts one container of colour c on the next Bank container lot.
func (s *State) payOne(c Colour) {
	m := &s.machine
	var open [BankLots]int
	k := 0
	for l := 0; l < BankLots; l++ {
		if !s.lotTokened(ContainerLotAuction, l) {
			open[k] = l
			k++
		}
	}
	s.Bank.ContainerLots[open[int(m.PayPlaced)%k]][c]++
	m.Pay[c]--
	m.PayPlaced++
}

// resumePay continues whatever a finished payment interrupted.
func (s *State) resumePay() {
	if s.machine.PayResume == resumeGameEnd {
		s.runGameEnd()
	} else {
		s.runTurnStart()
	}
}
