package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/container-rl/container/internal/strictjson"
)

// The JSON position format: a whole State (options, boards, Bank, machine) that a person can
// write by hand, like FEN for chess. docs/POSITION.md documents it field by field.

// PositionFormat is the value of a position's "format" field.
const PositionFormat = "container-position/1"

// ErrBadPosition is wrapped by every error LoadPosition and Validate return.
var ErrBadPosition = errors.New("rules: bad position")

// countsJSON is Counts in the position format: a letter string ("wwg") or an object of colour
// names ({"white": 2, "green": 1}); written as letters.
type countsJSON Counts

func (c countsJSON) MarshalJSON() ([]byte, error) { return json.Marshal(Counts(c).Letters()) }

func (c *countsJSON) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		*c = countsJSON{}
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		v, err := ParseCounts(s)
		*c = countsJSON(v)
		return err
	}
	var m map[string]int
	if err := strictjson.Decode(data, &m); err != nil {
		return fmt.Errorf("%w: containers must be a letter string or an object of colour counts: %v", ErrBadPosition, err)
	}
	var v Counts
	given := map[Colour]string{}
	for name, n := range m {
		col, err := ParseColour(name)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrBadPosition, err)
		}
		if other, ok := given[col]; ok {
			a, b := min(other, name), max(other, name)
			return fmt.Errorf("%w: containers: %s and %s are the same colour", ErrBadPosition, Quote(a), Quote(b))
		}
		given[col] = name
		if n < 0 || n > 255 {
			return fmt.Errorf("%w: %d %s containers is outside 0..255", ErrBadPosition, n, name)
		}
		v[col] = uint8(n)
	}
	*c = countsJSON(v)
	return nil
}

// supplyJSON is a colour-count table written as an object ({"white": 11, ...}).
type supplyJSON Counts

func (c supplyJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for col, n := range c {
		if n == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "%q:%d", Colour(col).String(), n)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (c *supplyJSON) UnmarshalJSON(data []byte) error {
	return (*countsJSON)(c).UnmarshalJSON(data)
}

// lotsJSON maps a lot's price in dollars ("1".."6") to its containers.
type lotsJSON map[string]countsJSON

// loansJSON is a number of Bank loans (1) or a list of loans ([{"lender": 2, "amount": 13}]).
type loansJSON []Loan

func (l *loansJSON) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] != '[' && data[0] != 'n' {
		var n int
		if err := json.Unmarshal(data, &n); err != nil {
			return fmt.Errorf("%w: loans must be a number of Bank loans or a list of loans", ErrBadPosition)
		}
		if n < 0 || n > MaxLoans {
			return fmt.Errorf("%w: %d loans; a player has at most %d", ErrBadPosition, n, MaxLoans)
		}
		*l = make(loansJSON, n)
		for i := range *l {
			(*l)[i] = Loan{Lender: -1, Amount: LoanAmount}
		}
		return nil
	}
	var list []struct {
		Lender *int8 `json:"lender"`
		Amount int32 `json:"amount"`
	}
	if err := strictjson.Decode(data, &list); err != nil {
		return fmt.Errorf("%w: loans: %v", ErrBadPosition, err)
	}
	*l = make(loansJSON, len(list))
	for i, e := range list {
		(*l)[i] = Loan{Lender: -1, Amount: e.Amount}
		if e.Lender != nil {
			(*l)[i].Lender = *e.Lender
		}
		if e.Amount == 0 {
			(*l)[i].Amount = LoanAmount
		}
	}
	return nil
}

// shipAtJSON is a ship position: "ocean", "island", "bank" or "harbor N".
type shipAtJSON ShipPos

func (p shipAtJSON) MarshalJSON() ([]byte, error) { return json.Marshal(ShipPos(p).String()) }

func (p *shipAtJSON) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: ship_at must be a string (ocean, island, bank, harbor N)", ErrBadPosition)
	}
	v, err := ParseShipPos(s)
	*p = shipAtJSON(v)
	return err
}

// factoriesJSON is the set of a player's factory colours as letters ("wg").
type factoriesJSON uint8

func (f factoriesJSON) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	for c := 0; c < NumColours; c++ {
		if f&(1<<uint(c)) != 0 {
			b.WriteByte(colourLetters[c])
		}
	}
	return json.Marshal(b.String())
}

func (f *factoriesJSON) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: factories must be a string of colour letters (\"wg\")", ErrBadPosition)
	}
	c, err := ParseCounts(s)
	if err != nil {
		return err
	}
	var v factoriesJSON
	for col, n := range c {
		if n > 1 {
			return fmt.Errorf("%w: factories %s: two factories of the same colour (%s)", ErrBadPosition, Quote(s), Colour(col))
		}
		if n == 1 {
			if Colour(col) == Gold {
				return fmt.Errorf("%w: factories %s: there are no gold factories", ErrBadPosition, Quote(s))
			}
			v |= 1 << uint(col)
		}
	}
	*f = v
	return nil
}

type playerJSON struct {
	Cash        *int32        `json:"cash,omitempty"`
	Card        *int          `json:"card,omitempty"`
	Factories   factoriesJSON `json:"factories"`
	Warehouses  *int          `json:"warehouses,omitempty"`
	FactoryLots lotsJSON      `json:"factory_lots,omitempty"`
	HarborLots  lotsJSON      `json:"harbor_lots,omitempty"`
	Ship        countsJSON    `json:"ship"`
	ShipAt      *shipAtJSON   `json:"ship_at,omitempty"`
	Holding     countsJSON    `json:"holding"`
	Island      countsJSON    `json:"island"`
	Loans       loansJSON     `json:"loans,omitempty"`
	Trucks      int           `json:"trucks,omitempty"`
	LoanCards   *int          `json:"loan_cards,omitempty"`
}

type auctionJSON struct {
	Kind        string     `json:"kind"` // container-lot, cash-lot, truck
	Target      int8       `json:"target"`
	Bidder      int8       `json:"bidder"`
	Cash        int32      `json:"cash,omitempty"`
	FromFactory countsJSON `json:"from_factory,omitempty"`
	FromHarbor  countsJSON `json:"from_harbor,omitempty"`
}

var auctionKindNames = [NumAuctionKinds]string{"container-lot", "cash-lot", "truck"}

func (k AuctionKind) String() string {
	if int(k) < len(auctionKindNames) {
		return auctionKindNames[k]
	}
	return fmt.Sprintf("auction(%d)", uint8(k))
}

type bankJSON struct {
	ContainerLots [BankLots]countsJSON `json:"container_lots"`
	CashLots      [BankLots]int32      `json:"cash_lots"`
}

type companyJSON struct {
	Owner int8  `json:"owner"`
	Pile  int32 `json:"pile,omitempty"`
}

type optionsJSON struct {
	Players             int    `json:"players"`
	Variant             string `json:"variant,omitempty"`
	Length              string `json:"length,omitempty"`
	Modules             string `json:"modules,omitempty"`
	Seed                uint64 `json:"seed,omitempty"`
	ContainersPerColour int    `json:"containers_per_colour,omitempty"`
	GoldContainers      int    `json:"gold_containers,omitempty"`
	Warehouses          int    `json:"warehouses,omitempty"`
	FactoriesPerColour  int    `json:"factories_per_colour,omitempty"`
	TurnLimit           int    `json:"turn_limit,omitempty"`
}

func optionsToJSON(o Options) optionsJSON {
	return optionsJSON{Players: o.Players, Variant: o.Variant.String(), Length: o.Length.String(),
		Modules: o.Modules.String(), Seed: o.Seed, ContainersPerColour: o.ContainersPerColour,
		GoldContainers: o.GoldContainers, Warehouses: o.Warehouses,
		FactoriesPerColour: o.FactoriesPerColour, TurnLimit: o.TurnLimit}
}

func (j optionsJSON) options() (Options, error) {
	o := Options{Players: j.Players, Seed: j.Seed, ContainersPerColour: j.ContainersPerColour,
		GoldContainers: j.GoldContainers, Warehouses: j.Warehouses,
		FactoriesPerColour: j.FactoriesPerColour, TurnLimit: j.TurnLimit}
	var err error
	if o.Variant, err = ParseVariant(j.Variant); err != nil {
		return o, err
	}
	if o.Length, err = ParseLength(j.Length); err != nil {
		return o, err
	}
	if o.Modules, err = ParseModules(j.Modules); err != nil {
		return o, err
	}
	return o, nil
}

var endReasonNames = []string{"", "two-colours", "turn-limit"}

type positionJSON struct {
	Format          string          `json:"format,omitempty"`
	Options         optionsJSON     `json:"options"`
	Players         []playerJSON    `json:"players"`
	Bank            *bankJSON       `json:"bank,omitempty"`
	Auctions        []auctionJSON   `json:"auctions,omitempty"`
	Companies       []companyJSON   `json:"companies,omitempty"`
	Supply          *supplyJSON     `json:"supply,omitempty"`
	Removed         supplyJSON      `json:"removed,omitempty"`
	FactorySupply   map[string]int  `json:"factory_supply,omitempty"`
	WarehouseSupply *int            `json:"warehouse_supply,omitempty"`
	Active          int8            `json:"active"`
	FirstPlayer     int8            `json:"first_player"`
	Turn            int32           `json:"turn"`
	Steps           int32           `json:"steps"`
	Presses         int32           `json:"presses,omitempty"`
	EndTriggered    bool            `json:"end_triggered,omitempty"`
	Ended           string          `json:"ended,omitempty"`
	Machine         json.RawMessage `json:"machine,omitempty"`
}

// MarshalPosition writes the state in the JSON position format (every field written, so the
// output loads back to an identical State).
func (s *State) MarshalPosition() ([]byte, error) {
	if s.game == nil {
		return nil, fmt.Errorf("%w: state has no game options", ErrBadPosition)
	}
	opts := s.game.opts
	n := opts.Players
	pj := positionJSON{Format: PositionFormat, Options: optionsToJSON(opts),
		Active: s.Active, FirstPlayer: s.FirstPlayer, Turn: s.Turn, Steps: s.Steps, Presses: s.Presses,
		EndTriggered: s.EndTriggered}
	for i := 0; i < n; i++ {
		p := &s.Players[i]
		cash, card, wh, lc := p.Cash, int(p.Card), int(p.Warehouses), int(p.LoanCards)
		at := shipAtJSON(p.ShipAt)
		j := playerJSON{Cash: &cash, Card: &card, Factories: factoriesJSON(p.Factories),
			Warehouses: &wh, FactoryLots: lotsJSON{}, HarborLots: lotsJSON{},
			Ship: countsJSON(p.Ship), ShipAt: &at, Holding: countsJSON(p.Holding),
			Island: countsJSON(p.Island), Trucks: int(p.Trucks), Loans: loansJSON{}}
		if opts.Modules.Has(PlayerLoans) {
			j.LoanCards = &lc
		}
		for k, lot := range p.FactoryLots {
			if lot.Total() > 0 {
				j.FactoryLots[strconv.Itoa(FactoryPrice(k))] = countsJSON(lot)
			}
		}
		for k, lot := range p.HarborLots {
			if lot.Total() > 0 {
				j.HarborLots[strconv.Itoa(HarborPrice(k))] = countsJSON(lot)
			}
		}
		for l := 0; l < int(p.NumLoans) && l < MaxLoans; l++ {
			j.Loans = append(j.Loans, p.Loans[l])
		}
		pj.Players = append(pj.Players, j)
	}
	b := bankJSON{CashLots: s.Bank.CashLots}
	for k := range b.ContainerLots {
		b.ContainerLots[k] = countsJSON(s.Bank.ContainerLots[k])
	}
	pj.Bank = &b
	for k, a := range s.Auctions {
		if a.Active {
			pj.Auctions = append(pj.Auctions, auctionJSON{Kind: AuctionKind(k).String(), Target: a.Target,
				Bidder: a.Bidder, Cash: a.Cash, FromFactory: countsJSON(a.FromFactory), FromHarbor: countsJSON(a.FromHarbor)})
		}
	}
	for i := 0; i < n; i++ {
		pj.Companies = append(pj.Companies, companyJSON{Owner: s.Companies[i].Owner, Pile: s.Companies[i].Pile})
	}
	sup := supplyJSON(s.Supply)
	pj.Supply = &sup
	pj.Removed = supplyJSON(s.Removed)
	pj.FactorySupply = map[string]int{}
	for c := 0; c < NumNormalColours; c++ {
		pj.FactorySupply[Colour(c).String()] = int(s.FactorySupply[c])
	}
	ws := int(s.WarehouseSupply)
	pj.WarehouseSupply = &ws
	if int(s.Ended) < len(endReasonNames) {
		pj.Ended = endReasonNames[s.Ended]
	}
	m, err := json.Marshal(s.machine)
	if err != nil {
		return nil, fmt.Errorf("%w: machine: %v", ErrBadPosition, err)
	}
	pj.Machine = m
	return json.MarshalIndent(pj, "", "  ")
}

// LoadPosition reads a position (docs/POSITION.md), fills in the fields left out and
// validates it. The returned state has an empty history.
func LoadPosition(data []byte) (*State, error) {
	if len(data) > MaxPositionBytes { // limits.go
		return nil, fmt.Errorf("%w: %d bytes; a position is at most %d", ErrBadPosition, len(data), MaxPositionBytes)
	}
	if f := formatOf(data); f != "" && f != PositionFormat {
		return nil, fmt.Errorf("%w: %w", ErrBadPosition, formatError(f, PositionFormat))
	}
	var pj positionJSON
	if err := strictjson.Decode(data, &pj); err != nil {
		return nil, badOnce(err)
	}
	if pj.Format != "" && pj.Format != PositionFormat {
		return nil, fmt.Errorf("%w: %w", ErrBadPosition, formatError(pj.Format, PositionFormat))
	}
	o, err := pj.Options.options()
	if err != nil {
		return nil, fmt.Errorf("%w: options: %w", ErrBadPosition, err)
	}
	g, err := NewGame(o)
	if err != nil {
		return nil, fmt.Errorf("%w: options: %w", ErrBadPosition, err)
	}
	opts := g.Options()
	n := opts.Players
	if len(pj.Players) != n {
		return nil, fmt.Errorf("%w: %d players listed for a %d-player game", ErrBadPosition, len(pj.Players), n)
	}
	s := &State{game: g}
	seen := map[int]bool{} // cards dealt: explicit ones first, defaults avoid them
	for _, j := range pj.Players {
		if j.Card != nil {
			seen[*j.Card] = true
		}
	}
	for i, j := range pj.Players {
		p := &s.Players[i]
		p.Cash = StartCash
		if j.Cash != nil {
			p.Cash = *j.Cash
		}
		card := i
		if j.Card != nil {
			card = *j.Card
		} else {
			for k := 0; k < NumScoringCards && seen[card]; k++ {
				card = (card + 1) % NumScoringCards
			}
			seen[card] = true
		}
		if card < 0 || card >= NumScoringCards {
			return nil, fmt.Errorf("%w: player %d: scoring card %d is outside 0..%d", ErrBadPosition, i, card, NumScoringCards-1)
		}
		p.Card = uint8(card)
		p.Factories = uint8(j.Factories)
		p.Warehouses = 1
		if j.Warehouses != nil {
			if *j.Warehouses < 0 || *j.Warehouses > 255 {
				return nil, fmt.Errorf("%w: player %d: %d warehouses is outside 1..%d", ErrBadPosition, i, *j.Warehouses, MaxWarehouses)
			}
			p.Warehouses = uint8(*j.Warehouses)
		}
		if err := fillLots(p.FactoryLots[:], j.FactoryLots, 1, "factory_lots", i); err != nil {
			return nil, err
		}
		if err := fillLots(p.HarborLots[:], j.HarborLots, 2, "harbor_lots", i); err != nil {
			return nil, err
		}
		p.Ship, p.Holding, p.Island = Counts(j.Ship), Counts(j.Holding), Counts(j.Island)
		if j.ShipAt != nil {
			p.ShipAt = ShipPos(*j.ShipAt)
		}
		if len(j.Loans) > MaxLoans {
			return nil, fmt.Errorf("%w: player %d: %d loans; a player has at most %d", ErrBadPosition, i, len(j.Loans), MaxLoans)
		}
		p.NumLoans = uint8(len(j.Loans))
		for l := range p.Loans {
			p.Loans[l] = Loan{Lender: -1}
		}
		copy(p.Loans[:], j.Loans)
		if j.Trucks < 0 || j.Trucks > 255 {
			return nil, fmt.Errorf("%w: player %d: %d trucks", ErrBadPosition, i, j.Trucks)
		}
		p.Trucks = uint8(j.Trucks)
		if opts.Modules.Has(PlayerLoans) {
			lc := PlayerLoanCards
			for k := range pj.Players {
				for _, l := range pj.Players[k].Loans {
					if int(l.Lender) == i {
						lc--
					}
				}
			}
			if j.LoanCards != nil {
				lc = *j.LoanCards
			}
			if lc < 0 || lc > 255 {
				return nil, fmt.Errorf("%w: player %d: %d loan cards", ErrBadPosition, i, lc)
			}
			p.LoanCards = uint8(lc)
		} else if j.LoanCards != nil && *j.LoanCards != 0 {
			return nil, fmt.Errorf("%w: player %d: loan_cards without the player-loans module", ErrBadPosition, i)
		}
	}
	if pj.Bank != nil {
		s.Bank.CashLots = pj.Bank.CashLots
		for k := range pj.Bank.ContainerLots {
			s.Bank.ContainerLots[k] = Counts(pj.Bank.ContainerLots[k])
		}
	}
	for _, a := range pj.Auctions {
		k := -1
		for kk, name := range auctionKindNames {
			if a.Kind == name {
				k = kk
			}
		}
		if k < 0 {
			return nil, fmt.Errorf("%w: auction kind %s (want container-lot, cash-lot or truck)", ErrBadPosition, Quote(a.Kind))
		}
		if s.Auctions[k].Active {
			return nil, fmt.Errorf("%w: two %s auctions", ErrBadPosition, a.Kind)
		}
		s.Auctions[k] = Auction{Active: true, Target: a.Target, Bidder: a.Bidder, Cash: a.Cash,
			FromFactory: Counts(a.FromFactory), FromHarbor: Counts(a.FromHarbor)}
	}
	for i := range s.Companies {
		s.Companies[i].Owner = -1
	}
	if len(pj.Companies) > n {
		return nil, fmt.Errorf("%w: %d companies listed for a %d-player game", ErrBadPosition, len(pj.Companies), n)
	}
	for i, c := range pj.Companies {
		s.Companies[i] = Company(c)
	}
	s.Removed = Counts(pj.Removed)
	totals := opts.containerTotals()
	if pj.Supply != nil {
		s.Supply = Counts(*pj.Supply)
	} else {
		placed := s.containersOutsideSupply()
		for c := range totals {
			if int(placed[c])+int(s.Removed[c]) > totals[c] {
				return nil, fmt.Errorf("%w: %d %s containers placed and %d removed but only %d exist", ErrBadPosition, placed[c], Colour(c), s.Removed[c], totals[c])
			}
			s.Supply[c] = uint8(totals[c] - int(placed[c]) - int(s.Removed[c]))
		}
	}
	facTotal := opts.factoriesPerColour()
	for c := 0; c < NumNormalColours; c++ {
		owned := 0
		for i := 0; i < n; i++ {
			if s.Players[i].Factories&(1<<uint(c)) != 0 {
				owned++
			}
		}
		if owned > facTotal {
			return nil, fmt.Errorf("%w: %d %s factories built but only %d exist", ErrBadPosition, owned, Colour(c), facTotal)
		}
		s.FactorySupply[c] = uint8(facTotal - owned)
	}
	for name, v := range pj.FactorySupply {
		c, err := ParseColour(name)
		if err != nil || c >= NumNormalColours {
			return nil, fmt.Errorf("%w: factory_supply: unknown colour %s", ErrBadPosition, Quote(name))
		}
		if v < 0 || v > 255 {
			return nil, fmt.Errorf("%w: factory_supply: %d %s factories", ErrBadPosition, v, name)
		}
		s.FactorySupply[c] = uint8(v)
	}
	whTotal := opts.warehouses()
	built := 0
	for i := 0; i < n; i++ {
		built += int(s.Players[i].Warehouses)
	}
	if pj.WarehouseSupply != nil {
		if *pj.WarehouseSupply < 0 || *pj.WarehouseSupply > 255 {
			return nil, fmt.Errorf("%w: warehouse_supply %d", ErrBadPosition, *pj.WarehouseSupply)
		}
		s.WarehouseSupply = uint8(*pj.WarehouseSupply)
	} else if built <= whTotal {
		s.WarehouseSupply = uint8(whTotal - built)
	}
	s.Active, s.FirstPlayer, s.Turn, s.Steps, s.EndTriggered = pj.Active, pj.FirstPlayer, pj.Turn, pj.Steps, pj.EndTriggered
	s.Presses = pj.Presses
	s.Ended = NotEnded
	found := false
	for k, name := range endReasonNames {
		if pj.Ended == name || (pj.Ended == "none" && k == 0) {
			s.Ended, found = EndReason(k), true
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: ended %s (want \"\", two-colours or turn-limit)", ErrBadPosition, Quote(pj.Ended))
	}
	// The machine starts from the turn-menu defaults; fields given in "machine" override them.
	s.resetMachineForPosition()
	if len(pj.Machine) > 0 && !bytes.Equal(bytes.TrimSpace(pj.Machine), []byte("null")) {
		if err := strictjson.Decode(pj.Machine, &s.machine); err != nil {
			return nil, fmt.Errorf("%w: machine: %v", ErrBadPosition, err)
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// badOnce wraps err in ErrBadPosition unless it already is one, so the prefix is never
// repeated.
func badOnce(err error) error {
	if errors.Is(err, ErrBadPosition) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrBadPosition, err)
}

func fillLots(lots []Counts, j lotsJSON, firstPrice int, field string, seat int) error {
	keys := make([]string, 0, len(j))
	for k := range j {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		price, err := strconv.Atoi(strings.TrimPrefix(k, "$"))
		idx := price - firstPrice
		if err != nil || idx < 0 || idx >= len(lots) {
			return fmt.Errorf("%w: player %d: %s: no lot priced %s (want $%d..$%d)", ErrBadPosition, seat, field, Quote(k), firstPrice, firstPrice+len(lots)-1)
		}
		v := Counts(j[k])
		lots[idx].Add(&v)
	}
	return nil
}
