package rules

// This file lists the legal decisions of a position.

// sink collects legal moves either as Moves or as action ids, so one generator serves
// LegalMoves, LegalActions and the legality checks without allocating.
type sink struct {
	s      *State
	ids    []int
	moves  []Move
	useIDs bool
	// noAmounts leaves Amount moves out (isLegal checks an amount by its range).
	noAmounts bool
	// matching only looks for want (found), storing nothing (isLegal).
	matching, found bool
	want            Move
}

func (k *sink) add(m Move) {
	if k.useIDs {
		if id, ok := k.s.MoveToAction(m); ok {
			k.ids = append(k.ids, id)
		}
		return
	}
	if k.matching {
		k.found = k.found || m == k.want
		return
	}
	k.moves = append(k.moves, m)
}

// amounts adds the Amount moves lo..hi not below the amount built so far (ids: the up to
// MaxAmountID+1 of them from there), then AmountHundred while $100 more still fits.
func (k *sink) amounts(lo, hi int32) {
	base := k.s.machine.AmountBase
	if !k.noAmounts {
		lo := max(lo, base)
		if k.useIDs {
			first, _ := KindBase(Amount)
			for a := lo; a <= hi && a-base <= MaxAmountID; a++ {
				k.ids = append(k.ids, first+int(a-base))
			}
		} else {
			for a := lo; a <= hi; a++ {
				k.moves = append(k.moves, Move{Kind: Amount, Amount: a})
			}
		}
	}
	if base+100 <= hi {
		k.add(Move{Kind: AmountHundred})
	}
}

// LegalActions appends the legal action ids, sorted ascending, to buf[:0] and returns it.
// The generator emits them in id order (kinds in id order, each kind's arguments in the
// order of their ids), so no sort is needed; the random-game and conformance suites check
// the order at every step.
func (s *State) LegalActions(buf []int) []int {
	k := sink{s: s, ids: buf[:0], useIDs: true}
	s.generate(&k)
	return k.ids
}

// LegalMoves appends the legal moves to buf[:0] (including amounts above MaxAmountID).
func (s *State) LegalMoves(buf []Move) []Move {
	k := sink{s: s, moves: buf[:0]}
	s.generate(&k)
	return k.moves
}

// amountRange is the legal Amount range of the pending decision (ok false if none).
func (s *State) amountRange() (lo, hi int32, ok bool) {
	return s.amountRangeSeen(&s.machine.Bids, &s.machine.Runoff)
}

// amountRangeSeen is amountRange with the sealed delivery bids and runoff additions read from
// bids and runoff: the machine's own, or a viewer's copy in which the values it has not seen
// read 0 (DecisionFor), which gives the range as far as that viewer can tell.
func (s *State) amountRangeSeen(bids, runoff *[MaxPlayers]int32) (lo, hi int32, ok bool) {
	m := &s.machine
	if m.Decider < 0 {
		return 0, 0, false
	}
	d := int(m.Decider)
	cash := s.Players[d].Cash
	switch m.Phase {
	case PhaseDeliveryBid:
		return s.minDeliveryBid(d), cash, true
	case PhaseRunoffBid:
		return 0, cash - bids[d], true
	case PhaseBankCashBid:
		return m.ToBeat + 1, cash, true
	case PhaseIncentiveBid:
		return 0, s.freeCashSeen(d, bids, runoff) - LoanAmount, true
	}
	return 0, 0, false
}

// generate emits every legal move of the pending decision, kinds in action-id order.
func (s *State) generate(k *sink) {
	m := &s.machine
	if s.Ended != NotEnded || m.Decider < 0 {
		return
	}
	d := int(m.Decider)
	p := &s.Players[d]
	switch m.Phase {
	case PhaseTurn:
		k.add(Move{Kind: EndTurn})
		if s.canLoan(d) {
			k.add(Move{Kind: TakeLoan})
		}
		for i := 0; i < int(p.NumLoans); i++ {
			if s.canRepay(d, i) {
				k.add(Move{Kind: RepayLoan, Index: uint8(i)})
			}
		}
		if m.ActionsUsed < 2 {
			s.generateActions(k, d)
		}
		for dist := FactoryDistrict; dist <= HarborDistrict; dist++ {
			if s.canAcquireLuxury(d, dist) {
				k.add(Move{Kind: AcquireLuxury, Index: uint8(dist)})
			}
		}
	case PhaseLuxuryPick:
		if s.canLoan(d) {
			k.add(Move{Kind: TakeLoan})
		}
		kind := PickFactory
		if m.District == HarborDistrict {
			kind = PickHarbor
		}
		lots := p.lots(m.District)
		for c := Colour(0); c < NumColours; c++ {
			for i := range lots {
				if s.canLuxuryPick(c, i) {
					k.add(Move{Kind: kind, Colour: c, Price: uint8(lotPrice(m.District, i))})
				}
			}
		}
	default:
		s.generateRest(k, d)
	}
}

// generateActions emits the turn menu's actions (kinds BuildFactory .. TruckStart).
func (s *State) generateActions(k *sink, d int) {
	p := &s.Players[d]
	n := s.n()
	for c := Colour(0); c < NumNormalColours; c++ {
		if s.canBuildFactory(d, c) {
			k.add(Move{Kind: BuildFactory, Colour: c})
		}
	}
	if s.canBuildWarehouse(d) {
		k.add(Move{Kind: BuildWarehouse})
	}
	if s.canProduce(d) {
		k.add(Move{Kind: Produce})
	}
	space := s.harborSpace(d)
	for r := 1; r < n; r++ {
		if seller := (d + r) % n; s.canFactoryPurchase(d, seller, space) {
			k.add(Move{Kind: FactoryPurchase, Seat: int8(seller)})
		}
	}
	if s.canBuyHarbor(d) {
		k.add(Move{Kind: HarborPurchase})
	}
	if p.factoryCount() > 0 {
		k.add(Move{Kind: Reprice, Index: uint8(FactoryDistrict)})
	}
	if p.harborCount() > 0 {
		k.add(Move{Kind: Reprice, Index: uint8(HarborDistrict)})
	}
	if p.ShipAt.Where != AtOcean {
		k.add(Move{Kind: SailOcean})
	} else {
		if p.Ship.Total() > 0 {
			k.add(Move{Kind: SailIsland})
		}
		if !s.classic() {
			k.add(Move{Kind: SailBank}) // Classic has no Bank board
		}
		for r := 1; r < n; r++ {
			k.add(Move{Kind: SailHarbor, Seat: int8((d + r) % n)})
		}
	}
	if s.canCallBank() {
		value := s.ownValue(d)
		for i := 0; i < 2*BankLots; i++ {
			if s.canStartBank(d, i, value) {
				k.add(Move{Kind: CallBankStart, Index: uint8(i)})
			}
		}
		for kind := AuctionKind(0); kind < NumAuctionKinds; kind++ {
			if s.canRaiseBank(d, kind, value) {
				k.add(Move{Kind: CallBankRaise, Index: uint8(kind)})
			}
		}
		for r := 0; r < n; r++ {
			for cur := 0; cur < 2; cur++ {
				if s.canStartTruck(d, (d+r)%n, cur == 1, value) {
					k.add(Move{Kind: TruckStart, Seat: int8((d + r) % n), Index: uint8(cur)})
				}
			}
		}
	}
}

// loanAt reports whether the decider of a phase other than the turn menu and the luxury
// pick may request a loan (CLARIFICATIONS, Loans: at any decision point of that player):
// every phase but the loan request's own decisions, which cannot hold a second request.
func loanAt(ph Phase) bool {
	switch ph {
	case PhaseLoanOffer, PhaseIncentiveBid, PhaseLoanTie, PhaseLoanAccept, PhaseTerminal:
		return false
	}
	return true
}

// doneFirst reports whether a phase offers Done, whose id is below TakeLoan's.
func doneFirst(ph Phase) bool {
	switch ph {
	case PhaseRearrange, PhaseBuyFactory, PhaseBuyHarbor, PhaseLoadBank, PhaseBankContainerBid:
		return true
	}
	return false
}

func (s *State) generateRest(k *sink, d int) {
	m := &s.machine
	p := &s.Players[d]
	n := s.n()
	// A loan is requested before an amount is begun with AmountHundred, not in the middle.
	loan := loanAt(m.Phase) && s.canLoan(d) && m.AmountBase == 0
	if loan && !doneFirst(m.Phase) {
		k.add(Move{Kind: TakeLoan})
	}
	// Phases listed by doneFirst add TakeLoan after their Done.
	addLoan := func() {
		if loan {
			k.add(Move{Kind: TakeLoan})
		}
	}
	switch m.Phase {
	case PhaseProduceColour:
		cands, _ := s.producible(d)
		for c := Colour(0); c < NumColours; c++ {
			if cands[c] > 0 && m.Pending[c] == 0 && (!s.noTrigger() || s.producePickAvoidsEnd(c)) {
				k.add(Move{Kind: PickColour, Colour: c})
			}
		}
	case PhasePlace, PhaseReturnBid:
		lo, hi := 1, FactoryPrices
		if m.District == HarborDistrict {
			lo, hi = 2, HarborPrices+1
		}
		for pr := lo; pr <= hi; pr++ {
			k.add(Move{Kind: Place, Price: uint8(pr)})
		}
	case PhaseRearrange:
		k.add(Move{Kind: Done})
		addLoan()
		kind := PickFactory
		if m.District == HarborDistrict {
			kind = PickHarbor
		}
		lots := p.lots(m.District)
		for c := Colour(0); c < NumColours; c++ {
			for i := range lots {
				if s.movable(i, c) > 0 {
					k.add(Move{Kind: kind, Colour: c, Price: uint8(lotPrice(m.District, i))})
				}
			}
		}
	case PhaseBuyFactory:
		if m.Bought > 0 {
			k.add(Move{Kind: Done})
		}
		addLoan()
		for c := Colour(0); c < NumColours; c++ {
			for i := 0; i < FactoryPrices; i++ {
				if s.canBuyFromFactory(c, i) {
					k.add(Move{Kind: PickFactory, Colour: c, Price: uint8(FactoryPrice(i))})
				}
			}
		}
	case PhaseBuyHarbor:
		if m.Bought > 0 || m.Free {
			k.add(Move{Kind: Done})
		}
		addLoan()
		for c := Colour(0); c < NumColours; c++ {
			for i := 0; i < HarborPrices; i++ {
				if s.canBuyFromHarbor(c, i) {
					k.add(Move{Kind: PickHarbor, Colour: c, Price: uint8(HarborPrice(i))})
				}
			}
		}
	case PhaseLoadBank:
		k.add(Move{Kind: Done})
		addLoan()
		for c := Colour(0); c < NumColours; c++ {
			if p.Holding[c] > 0 {
				k.add(Move{Kind: PickHolding, Colour: c})
			}
		}
	case PhaseDeliveryBid, PhaseRunoffBid:
		lo, hi, _ := s.amountRange()
		k.amounts(lo, hi)
	case PhaseDeliveryTie:
		for r := 1; r < n; r++ {
			if i := (d + r) % n; m.Tied&(1<<i) != 0 {
				k.add(Move{Kind: ChooseSeat, Seat: int8(i)})
			}
		}
	case PhaseDeliveryAccept:
		k.add(Move{Kind: Yes})
		if p.Cash >= s.winningBid() {
			k.add(Move{Kind: No})
		}
	case PhaseBankCashBid:
		lo, hi, _ := s.amountRange()
		k.amounts(lo, hi)
	case PhaseBankContainerBid:
		a := &s.Auctions[m.BidKind]
		if bidHalves(a) > m.ToBeat {
			k.add(Move{Kind: Done})
		}
		addLoan()
		for c := Colour(0); c < NumColours; c++ {
			for i := 0; i < FactoryPrices; i++ {
				if p.FactoryLots[i][c] > 0 {
					k.add(Move{Kind: PickFactory, Colour: c, Price: uint8(FactoryPrice(i))})
				}
			}
		}
		for c := Colour(0); c < NumColours; c++ {
			for i := 0; i < HarborPrices; i++ {
				if p.HarborLots[i][c] > 0 {
					k.add(Move{Kind: PickHarbor, Colour: c, Price: uint8(HarborPrice(i))})
				}
			}
		}
	case PhaseBankPayColour:
		for c := Colour(0); c < NumColours; c++ {
			if m.Pay[c] > 0 {
				k.add(Move{Kind: PickColour, Colour: c})
			}
		}
	case PhaseInterestChoice:
		k.add(Move{Kind: PayInterest, Index: 0})
		k.add(Move{Kind: PayInterest, Index: 1})
	case PhaseLoanOffer, PhaseLoanAccept, PhaseLenderChoice:
		if m.Phase != PhaseLoanOffer || s.canOffer(d, int(m.Borrower)) {
			k.add(Move{Kind: Yes}) // a seat asked whose sealed bid leaves < $10 may only decline
		}
		k.add(Move{Kind: No})
	case PhaseIncentiveBid:
		lo, hi, _ := s.amountRange()
		k.amounts(lo, hi)
	case PhaseLoanTie:
		for r := 1; r < n; r++ {
			if i := (d + r) % n; m.LoanTied&(1<<i) != 0 {
				k.add(Move{Kind: ChooseSeat, Seat: int8(i)})
			}
		}
	case PhaseSeize:
		v := &s.Players[m.Counterpart]
		if m.SeizeAt == seizeAnywhere {
			s.generateSeizeAnywhere(k, v)
			return
		}
		switch m.SeizeAt {
		case seizeIsland, seizeShip, seizeHolding:
			area, kind := &v.Island, PickIsland
			if m.SeizeAt == seizeShip {
				area, kind = &v.Ship, PickShip
			} else if m.SeizeAt == seizeHolding {
				area, kind = &v.Holding, PickHolding
			}
			// Kinds PickShip < PickHolding < PickIsland: one kind per location, ids sorted.
			for c := Colour(0); c < NumColours; c++ {
				if area[c] > 0 {
					k.add(Move{Kind: kind, Colour: c})
				}
			}
		default:
			dist := seizeDistrict(m.SeizeAt)
			kind := PickFactory
			if dist == HarborDistrict {
				kind = PickHarbor
			}
			lots := v.lots(dist)
			for c := Colour(0); c < NumColours; c++ {
				for i := range lots {
					if lots[i][c] > 0 {
						k.add(Move{Kind: kind, Colour: c, Price: uint8(lotPrice(dist, i))})
					}
				}
			}
		}
	}
}

// generateSeizeAnywhere emits every container of v a lender may take (Player Loans default).
func (s *State) generateSeizeAnywhere(k *sink, v *Player) {
	for c := Colour(0); c < NumColours; c++ {
		for i := range v.FactoryLots {
			if v.FactoryLots[i][c] > 0 {
				k.add(Move{Kind: PickFactory, Colour: c, Price: uint8(FactoryPrice(i))})
			}
		}
	}
	for c := Colour(0); c < NumColours; c++ {
		for i := range v.HarborLots {
			if v.HarborLots[i][c] > 0 {
				k.add(Move{Kind: PickHarbor, Colour: c, Price: uint8(HarborPrice(i))})
			}
		}
	}
	for _, a := range []struct {
		area *Counts
		kind MoveKind
	}{{&v.Ship, PickShip}, {&v.Holding, PickHolding}, {&v.Island, PickIsland}} {
		for c := Colour(0); c < NumColours; c++ {
			if a.area[c] > 0 {
				k.add(Move{Kind: a.kind, Colour: c})
			}
		}
	}
}
