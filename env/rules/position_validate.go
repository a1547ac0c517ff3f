package rules

import "fmt"

// containersOutsideSupply counts every container not in the supply and not removed: player
// districts, ships, holding areas, islands, Bank lots, bid tiles and containers held by a
// pending decision.
func (s *State) containersOutsideSupply() Counts {
	var t Counts
	for i := range s.Players {
		p := &s.Players[i]
		for k := range p.FactoryLots {
			t.Add(&p.FactoryLots[k])
		}
		for k := range p.HarborLots {
			t.Add(&p.HarborLots[k])
		}
		t.Add(&p.Ship)
		t.Add(&p.Holding)
		t.Add(&p.Island)
	}
	for k := range s.Bank.ContainerLots {
		t.Add(&s.Bank.ContainerLots[k])
	}
	for k := range s.Auctions {
		t.Add(&s.Auctions[k].FromFactory)
		t.Add(&s.Auctions[k].FromHarbor)
	}
	m := s.machineContainers()
	t.Add(&m)
	return t
}

// Validate checks that the position could occur in a game: every rule-imposed limit and the
// conservation of containers, factories and warehouses. The error wraps ErrBadPosition and
// names the first problem found. Each area has its own check, run in this order: options,
// Bank auctions, Truck Companies, players (board, ship, loans), module pieces, the Bank
// board, the supplies, the turn counters, the decision machine (position_validate_machine.go).
func (s *State) Validate() error {
	if s.game == nil {
		return badPosition("state has no game options")
	}
	o := &s.game.opts
	if err := o.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrBadPosition, err)
	}
	reserveF, reserveH, err := s.validateAuctions()
	if err != nil {
		return err
	}
	trucksOwned, err := s.validateCompanies()
	if err != nil {
		return err
	}
	var lent [MaxPlayers]int
	cards := map[uint8]int{}
	for i := range s.Players {
		if err := s.validatePlayer(i, reserveF[i], reserveH[i], cards, &lent); err != nil {
			return err
		}
	}
	for _, check := range []func() error{
		func() error { return s.validateModulePieces(&trucksOwned, &lent) },
		s.validateBankBoard,
		s.validateSupplies,
		s.validateTurn,
		s.validateMachine,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// badPosition is a position error.
func badPosition(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadPosition, fmt.Sprintf(format, args...))
}

// validateAuctions checks the Bank auction tiles and returns, by seat, the containers on bid
// tiles that still count against each district's storage (reserve tokens).
func (s *State) validateAuctions() (reserveF, reserveH [MaxPlayers]int, err error) {
	o := &s.game.opts
	n := o.Players
	bad := badPosition
	for k, a := range s.Auctions {
		if !a.Active {
			if a != (Auction{}) {
				return reserveF, reserveH, bad("inactive %s auction has a bid on its tile", AuctionKind(k))
			}
			continue
		}
		if err := s.validateAuction(AuctionKind(k), &a); err != nil {
			return reserveF, reserveH, err
		}
		reserveF[a.Bidder] += a.FromFactory.Total()
		reserveH[a.Bidder] += a.FromHarbor.Total()
	}
	if n < MaxPlayers && s.Auctions[ContainerLotAuction].Active && s.Auctions[CashLotAuction].Active {
		return reserveF, reserveH, bad("%d players may have only one Bank lot auction at a time", n)
	}
	return reserveF, reserveH, nil
}

// validateAuction checks one active Bank auction: its target, bidder and bid.
func (s *State) validateAuction(k AuctionKind, a *Auction) error {
	o := &s.game.opts
	n := o.Players
	bad := badPosition
	if o.Variant == Classic {
		return bad("the Classic variant has no Bank auctions")
	}
	if k == TruckAuction && !o.Modules.Has(Trucks) {
		return bad("truck auction without the trucks module")
	}
	if a.Bidder < 0 || int(a.Bidder) >= n {
		return bad("%s auction: bidder %d is not a seat", k, a.Bidder)
	}
	if a.Cash < 0 {
		return bad("%s auction: negative cash bid", k)
	}
	cont := a.FromFactory.Total() + a.FromHarbor.Total()
	// While a bid is being made (or an outbid player puts containers back first), the
	// tile of that auction holds the partial bid: only target and bidder are checked.
	building := s.bidInProgress(k)
	switch k {
	case ContainerLotAuction:
		if a.Target < 0 || a.Target >= BankLots {
			return bad("container-lot auction: lot %d is not 0..2", a.Target)
		}
		if (a.Cash < 1 && !building) || cont != 0 {
			return bad("container-lot auction: the bid must be at least $1 in cash and no containers")
		}
		if s.Bank.ContainerLots[a.Target].Total() == 0 {
			return bad("container-lot auction on empty lot %d", a.Target)
		}
	case CashLotAuction:
		if a.Target < 0 || a.Target >= BankLots {
			return bad("cash-lot auction: lot %d is not 0..2", a.Target)
		}
		if a.Cash != 0 || (cont < 1 && !building) {
			return bad("cash-lot auction: the bid must be at least one container and no cash")
		}
		if s.Bank.CashLots[a.Target] == 0 {
			return bad("cash-lot auction on empty lot %d", a.Target)
		}
	case TruckAuction:
		if a.Target < 0 || int(a.Target) >= n {
			return bad("truck auction: company %d is not a seat", a.Target)
		}
		if s.Companies[a.Target].Owner >= 0 {
			return bad("truck auction on company %d, which is owned", a.Target)
		}
		if (a.Cash > 0 && cont > 0) || (a.Cash == 0 && cont == 0 && !building) {
			return bad("truck auction: the bid must be cash or containers, not both or neither")
		}
	}
	if (a.FromFactory[Gold] > 0 || a.FromHarbor[Gold] > 0) && !o.Modules.Has(Luxury) {
		return bad("%s auction: gold containers without the luxury module", k)
	}
	return nil
}

// validateCompanies checks the Truck Companies and returns the number each seat owns.
func (s *State) validateCompanies() (owned [MaxPlayers]int, err error) {
	o := &s.game.opts
	n := o.Players
	bad := badPosition
	for i := range s.Companies {
		c := s.Companies[i]
		if i >= n {
			if c.Owner != -1 && c != (Company{}) || c.Pile != 0 {
				return owned, bad("company %d exists only with %d+ players", i, i+1)
			}
			continue
		}
		if c.Owner < -1 || int(c.Owner) >= n {
			return owned, bad("company %d: owner %d is not a seat", i, c.Owner)
		}
		if c.Pile < 0 {
			return owned, bad("company %d: negative pile", i)
		}
		if !o.Modules.Has(Trucks) && (c.Owner >= 0 || c.Pile > 0) {
			return owned, bad("company %d is owned or has fees without the trucks module", i)
		}
		if c.Owner >= 0 {
			owned[c.Owner]++
			if c.Pile != 0 {
				return owned, bad("company %d is owned but still has a pile of fees", i)
			}
		}
	}
	return owned, nil
}

// validatePlayer checks seat i: its board (cash, card, factories, warehouses, storage
// limits counting the reserve tokens on bid tiles), its ship and its loans. cards collects the
// scoring cards seen so far (no two seats share one); lent counts the player loans by lender.
func (s *State) validatePlayer(i, reserveF, reserveH int, cards map[uint8]int, lent *[MaxPlayers]int) error {
	p := &s.Players[i]
	if i >= s.n() {
		if *p != (Player{}) {
			return badPosition("player %d exists only with %d+ players", i, i+1)
		}
		return nil
	}
	where := func(format string, args ...any) error {
		return badPosition("player %d: %s", i, fmt.Sprintf(format, args...))
	}
	if p.Cash < 0 {
		return where("negative cash $%d", p.Cash)
	}
	if int(p.Card) >= NumScoringCards {
		return where("scoring card %d is outside 0..%d", p.Card, NumScoringCards-1)
	}
	if j, dup := cards[p.Card]; dup {
		return where("scoring card %d is also player %d's (duplicate scoring cards)", p.Card, j)
	}
	cards[p.Card] = i
	if err := s.checkPlayerStorage(p, reserveF, reserveH, where); err != nil {
		return err
	}
	if err := s.checkPlayerShip(i, p, where); err != nil {
		return err
	}
	if err := s.checkPlayerLoans(i, p, lent, where); err != nil {
		return err
	}
	if p.Trucks > TrucksPerPlayer {
		return where("%d trucks placed; a player has %d", p.Trucks, TrucksPerPlayer)
	}
	return nil
}

// checkPlayerStorage checks a seat's factories, warehouses and the storage limits of its two
// districts (reserve tokens count), and that gold appears only with Luxury Containers.
func (s *State) checkPlayerStorage(p *Player, reserveF, reserveH int, where func(string, ...any) error) error {
	if p.Factories>>NumNormalColours != 0 {
		return where("factory bits %#x name no colour", p.Factories)
	}
	nf := 0
	for c := 0; c < NumNormalColours; c++ {
		if p.Factories&(1<<uint(c)) != 0 {
			nf++
		}
	}
	if nf < 1 || nf > MaxFactories {
		return where("%d factories (want 1..%d)", nf, MaxFactories)
	}
	if p.Warehouses < 1 || p.Warehouses > MaxWarehouses {
		return where("%d warehouses (want 1..%d)", p.Warehouses, MaxWarehouses)
	}
	fac, har := 0, 0
	for k := range p.FactoryLots {
		fac += p.FactoryLots[k].Total()
	}
	for k := range p.HarborLots {
		har += p.HarborLots[k].Total()
	}
	if fac+reserveF > 2*nf {
		return where("factory district holds %d containers + %d reserve tokens; the limit with %d factories is %d", fac, reserveF, nf, 2*nf)
	}
	if har+reserveH > int(p.Warehouses) {
		return where("harbor district holds %d containers + %d reserve tokens; the limit with %d warehouses is %d", har, reserveH, p.Warehouses, p.Warehouses)
	}
	return nil
}

// checkPlayerShip checks seat i's ship (capacity, position), its holding area and that gold
// appears only with Luxury Containers.
func (s *State) checkPlayerShip(i int, p *Player, where func(string, ...any) error) error {
	o := &s.game.opts
	if p.Ship.Total() > ShipCapacity {
		return where("%d containers on the ship; it holds %d", p.Ship.Total(), ShipCapacity)
	}
	switch p.ShipAt.Where {
	case AtOcean, AtIsland, AtBank:
		if p.ShipAt.Seat != 0 {
			return where("ship at %s with a harbor seat", p.ShipAt)
		}
		if p.ShipAt.Where == AtBank && o.Variant == Classic {
			return where("ship at the Bank in the Classic variant")
		}
	case AtHarbor:
		if p.ShipAt.Seat < 0 || int(p.ShipAt.Seat) >= s.n() {
			return where("ship at harbor %d, which is not a seat", p.ShipAt.Seat)
		}
		if int(p.ShipAt.Seat) == i {
			return where("ship in its own harbor")
		}
	default:
		return where("ship position %d is unknown", p.ShipAt.Where)
	}
	if o.Variant == Classic && p.Holding.Total() > 0 {
		return where("holding-area containers in the Classic variant")
	}
	if !o.Modules.Has(Luxury) {
		all := p.Ship
		all.Add(&p.Holding)
		all.Add(&p.Island)
		for k := range p.FactoryLots {
			all.Add(&p.FactoryLots[k])
		}
		for k := range p.HarborLots {
			all.Add(&p.HarborLots[k])
		}
		if all[Gold] > 0 {
			return where("gold containers without the luxury module")
		}
	}
	return nil
}

// checkPlayerLoans checks seat i's loans (Bank loans of $10, player loans from an opponent
// with Player Loans) and counts the player loans by lender into lent.
func (s *State) checkPlayerLoans(i int, p *Player, lent *[MaxPlayers]int, where func(string, ...any) error) error {
	if p.NumLoans > MaxLoans {
		return where("%d loans; a player has at most %d", p.NumLoans, MaxLoans)
	}
	for l := 0; l < MaxLoans; l++ {
		loan := p.Loans[l]
		if l >= int(p.NumLoans) {
			if loan != (Loan{}) && loan != (Loan{Lender: -1}) {
				return where("loan slot %d is filled but num_loans is %d", l, p.NumLoans)
			}
			continue
		}
		if loan.Lender == -1 {
			if loan.Amount != LoanAmount {
				return where("Bank loan of $%d; Bank loans are $%d", loan.Amount, LoanAmount)
			}
			continue
		}
		if !s.game.opts.Modules.Has(PlayerLoans) {
			return where("player loan without the player-loans module")
		}
		if loan.Lender < 0 || int(loan.Lender) >= s.n() || int(loan.Lender) == i {
			return where("loan from %d, which is not an opponent's seat", loan.Lender)
		}
		if loan.Amount < LoanAmount {
			return where("player loan of $%d; loans are at least $%d", loan.Amount, LoanAmount)
		}
		lent[loan.Lender]++
	}
	return nil
}

// validateModulePieces checks the module pieces across seats: trucks placed equal companies
// owned (Truck Companies), loan cards in hand plus loans lent out equal three (Player Loans).
func (s *State) validateModulePieces(trucksOwned, lent *[MaxPlayers]int) error {
	o := &s.game.opts
	for i := 0; i < o.Players; i++ {
		p := &s.Players[i]
		if int(p.Trucks) != trucksOwned[i] {
			return badPosition("player %d: %d trucks placed but owns %d companies", i, p.Trucks, trucksOwned[i])
		}
		if o.Modules.Has(PlayerLoans) {
			if int(p.LoanCards)+lent[i] != PlayerLoanCards {
				return badPosition("player %d: %d loan cards in hand + %d lent out; a player has %d", i, p.LoanCards, lent[i], PlayerLoanCards)
			}
		} else if p.LoanCards != 0 {
			return badPosition("player %d: loan cards without the player-loans module", i)
		}
	}
	return nil
}

// validateBankBoard checks the Off-Shore Bank's lots: empty in Classic, no negative cash, no
// gold without Luxury Containers.
func (s *State) validateBankBoard() error {
	o := &s.game.opts
	if o.Variant == Classic {
		for k := 0; k < BankLots; k++ {
			if s.Bank.ContainerLots[k].Total() != 0 || s.Bank.CashLots[k] != 0 {
				return badPosition("the Classic variant has no Bank board, but Bank lot %d is not empty", k)
			}
		}
	}
	for k := 0; k < BankLots; k++ {
		if s.Bank.CashLots[k] < 0 {
			return badPosition("Bank cash lot %d is negative", k)
		}
		if !o.Modules.Has(Luxury) && s.Bank.ContainerLots[k][Gold] > 0 {
			return badPosition("gold on Bank lot %d without the luxury module", k)
		}
	}
	return nil
}

// validateSupplies checks conservation: containers (supply + placed + removed), factories
// (built + supply) and warehouses (built + supply) add up to what the game has (supply.go).
func (s *State) validateSupplies() error {
	o := &s.game.opts
	n := o.Players
	totals := o.containerTotals()
	out := s.containersOutsideSupply()
	for c := 0; c < NumColours; c++ {
		have := int(s.Supply[c]) + int(out[c]) + int(s.Removed[c])
		if have != totals[c] {
			return badPosition("%d %s containers counted (supply %d + placed %d + removed %d) but the game has %d", have, Colour(c), s.Supply[c], out[c], s.Removed[c], totals[c])
		}
	}
	if o.Variant != Classic && s.Removed.Total() != 0 {
		return badPosition("containers removed from the game outside the Classic variant")
	}
	facTotal := o.factoriesPerColour()
	for c := 0; c < NumNormalColours; c++ {
		owned := 0
		for i := 0; i < n; i++ {
			if s.Players[i].Factories&(1<<uint(c)) != 0 {
				owned++
			}
		}
		if owned+int(s.FactorySupply[c]) != facTotal {
			return badPosition("%d %s factories built + %d in the supply; the game has %d", owned, Colour(c), s.FactorySupply[c], facTotal)
		}
	}
	built := 0
	for i := 0; i < n; i++ {
		built += int(s.Players[i].Warehouses)
	}
	if built+int(s.WarehouseSupply) != o.warehouses() {
		return badPosition("%d warehouses built + %d in the supply; the game has %d", built, s.WarehouseSupply, o.warehouses())
	}
	return nil
}

// validateTurn checks the turn fields: active seat, first player, counters, end reason.
func (s *State) validateTurn() error {
	n := s.n()
	if s.Active < 0 || int(s.Active) >= n {
		return badPosition("active seat %d is not a seat", s.Active)
	}
	if s.FirstPlayer < 0 || int(s.FirstPlayer) >= n {
		return badPosition("first player %d is not a seat", s.FirstPlayer)
	}
	if s.Turn < 0 || s.Steps < 0 {
		return badPosition("negative turn or step count")
	}
	if s.Presses < 0 || s.Presses > s.Steps {
		return badPosition("%d amount:+100 presses among %d steps", s.Presses, s.Steps)
	}
	if s.Ended > EndTurnLimit {
		return badPosition("end reason %d is unknown", s.Ended)
	}
	return nil
}
