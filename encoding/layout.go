package encoding

import (
	"fmt"

	"github.com/container-rl/container/env/rules"
)

// This file builds the obs-v2 layout. The same builder produces the Spec (names, offsets,
// bounds) and the offsets the encoder writes to, so the two cannot drift apart.

// Scales (raw units per 1.0 of a feature).
const (
	cashScale      = 100  // cash in hand, bids, amounts
	smallCashScale = 20   // Bank cash lots, frozen cash bids, company piles, loans
	heapScale      = 10   // unbounded container heaps: Bank lots, holding, island, pending
	maxCashFeature = 10   // cash-like features are clipped here ($1000 in hand)
	turnCountScale = 100  // turn.count is min(turn, 100)/100
	stepsScale     = 2000 // turn.steps is min(steps, 2000)/2000
	publicScoreLow = -1   // pK.public_score may be negative (loans)
)

type auctionOffsets struct {
	active, target, bidder, cash, fromFactory, fromHarbor, value int
}

type companyOffsets struct{ owner, pile int }

type playerOffsets struct {
	present, cash, card, factories, numFactories, warehouses int
	factoryLots, harborLots, factoryUse, harborUse           int
	ship, shipAt, holding, island, loans, loanAmounts        int
	loanLenders, loanCards, trucks                           int // -1 when the module is off
	publicScore                                              int
}

type layout struct {
	spec Spec
	n    int // players
	nc   int // colours encoded (6 with Luxury)

	total     [rules.NumColours]float32 // containers of each colour in the game
	maxHeap   float32                   // bound of heap features
	turnLimit float32

	template []float32 // constant features (game description); the rest zero

	turnProgress, turnCount, turnSteps, turnFirst, turnActive        int
	endTriggered, endEmpty, endDistance                              int
	supply, removed, factorySupply, warehouseSupply                  int
	bankLots, bankCash                                               int
	auctions                                                         [rules.NumAuctionKinds]auctionOffsets // truck: active == -1 when off
	companies                                                        [rules.MaxPlayers]companyOffsets      // owner == -1 when off
	players                                                          [rules.MaxPlayers]playerOffsets
	ownCardValues, ownTwoValue, ownIsland, ownAllColours, ownDiscard int

	decPhase, decDecider, decActive, decCounterpart, decDistrict int
	decPending, decMin, decMax, decToBeat, decFree, decBase      int

	machine machineOffsets
}

type builder struct {
	feats []Feature
	n     int
}

func (b *builder) add(name string, labels []string, low, high, scale float32, doc string) int {
	off := b.n
	b.feats = append(b.feats, Feature{Name: name, Offset: off, Size: len(labels), Labels: labels,
		Low: low, High: high, Scale: scale, Doc: doc})
	b.n += len(labels)
	return off
}

func (b *builder) flag(name, doc string) int { return b.add(name, []string{"on"}, 0, 1, 0, doc) }

func (b *builder) oneHot(name string, labels []string, doc string) int {
	return b.add(name, labels, 0, 1, 0, doc)
}

func (b *builder) scalar(name string, high, scale float32, doc string) int {
	return b.add(name, []string{"value"}, 0, high, scale, doc)
}

var (
	seatLabels     = []string{"p0", "p1", "p2", "p3", "p4"}
	seatNoneLabels = []string{"none", "p0", "p1", "p2", "p3", "p4"}
	lotLabels      = []string{"I", "II", "III"}
)

func colourLabels(nc int) []string {
	l := make([]string, nc)
	for c := range l {
		l[c] = rules.Colour(c).String()
	}
	return l
}

func pricedLabels(prices, first, nc int) []string {
	var l []string
	for p := 0; p < prices; p++ {
		for c := 0; c < nc; c++ {
			l = append(l, fmt.Sprintf("$%d.%s", p+first, rules.Colour(c)))
		}
	}
	return l
}

// containersByColour counts every container of each colour anywhere in s.
func containersByColour(s *rules.State) (t [rules.NumColours]int) {
	add := func(c *rules.Counts) {
		for i, v := range c {
			t[i] += int(v)
		}
	}
	add(&s.Supply)
	add(&s.Removed)
	for i := range s.Bank.ContainerLots {
		add(&s.Bank.ContainerLots[i])
	}
	for k := range s.Auctions {
		add(&s.Auctions[k].FromFactory)
		add(&s.Auctions[k].FromHarbor)
	}
	for p := range s.Players {
		pl := &s.Players[p]
		for i := range pl.FactoryLots {
			add(&pl.FactoryLots[i])
		}
		for i := range pl.HarborLots {
			add(&pl.HarborLots[i])
		}
		add(&pl.Ship)
		add(&pl.Holding)
		add(&pl.Island)
	}
	return t
}

func newLayout(g *rules.Game) *layout {
	o := g.Options()
	l := &layout{n: o.Players, nc: rules.NumNormalColours}
	luxury := o.Modules.Has(rules.Luxury)
	trucks := o.Modules.Has(rules.Trucks)
	ploans := o.Modules.Has(rules.PlayerLoans)
	if luxury {
		l.nc = rules.NumColours
	}
	init := g.NewInitialStateSeed(0)
	all := 0
	for c, v := range containersByColour(init) {
		l.total[c] = float32(v)
		all += v
	}
	l.maxHeap = float32(all) / heapScale
	l.turnLimit = float32(o.TurnLimit)
	if l.turnLimit == 0 {
		l.turnLimit = rules.DefaultTurnLimit
	}

	colours := colourLabels(l.nc)
	b := &builder{}

	// Game description (constant during a game).
	gamePlayers := b.oneHot("game.players", []string{"3", "4", "5"}, "number of players")
	gameVariant := b.flag("game.classic", "Classic variant (no Off-Shore Bank)")
	gameModules := b.add("game.modules", []string{"trucks", "player-loans", "luxury"}, 0, 1, 0, "More Containers modules in play")
	gameLength := b.oneHot("game.length", []string{"short", "standard", "extended"}, "game length")

	// Counters and game-end proximity.
	l.turnProgress = b.scalar("turn.progress", 1, l.turnLimit, "turns begun / turn limit")
	l.turnCount = b.scalar("turn.count", 1, turnCountScale, "min(turns begun, 100) / 100")
	l.turnSteps = b.scalar("turn.steps", 1, stepsScale, "min(decisions applied, not counting amount:+100 presses, 2000) / 2000")
	l.turnFirst = b.oneHot("turn.first_player", seatLabels, "seat that took the first turn, relative to the observer")
	l.turnActive = b.oneHot("turn.active", seatLabels, "seat whose turn it is, relative to the observer")
	l.endTriggered = b.flag("end.triggered", "two colours ran out: the game ends after this turn")
	l.endEmpty = b.scalar("end.empty_colours", 1, 2, "colours with an empty supply / 2 (capped at 1)")
	l.endDistance = b.scalar("end.distance", 1, 0, "containers in the two smallest supply colours / (their totals)")

	// Supplies.
	l.supply = b.add("supply.containers", colours, 0, 1, 0, "containers in the supply / containers of that colour in the game")
	l.removed = b.add("supply.removed", colours, 0, 1, 0, "containers removed from the game (Classic seizures) / containers of that colour")
	l.factorySupply = b.add("supply.factories", colours[:rules.NumNormalColours], 0, 1, rules.MaxPlayers, "factories left in the supply")
	l.warehouseSupply = b.scalar("supply.warehouses", 1, rules.MaxWarehouses*rules.MaxPlayers, "warehouses left in the supply")

	// Off-Shore Bank.
	var lotCols []string
	for _, lot := range lotLabels {
		for _, c := range colours {
			lotCols = append(lotCols, lot+"."+c)
		}
	}
	l.bankLots = b.add("bank.container_lots", lotCols, 0, l.maxHeap, heapScale, "containers on Bank container lots I..III")
	l.bankCash = b.add("bank.cash_lots", lotLabels, 0, maxCashFeature, smallCashScale, "cash on Bank cash lots I..III (clipped)")
	kinds := auctionLabels()
	for k := range l.auctions {
		a := &l.auctions[k]
		if k == int(rules.TruckAuction) && !trucks {
			*a = auctionOffsets{-1, -1, -1, -1, -1, -1, -1}
			continue
		}
		p := "auction." + kinds[k]
		a.active = b.flag(p+".active", "an auction of this kind is running")
		if k == int(rules.TruckAuction) {
			a.target = b.oneHot(p+".target", seatLabels, "company auctioned (its seat, relative)")
		} else {
			a.target = b.oneHot(p+".target", lotLabels, "lot auctioned")
		}
		a.bidder = b.oneHot(p+".bidder", seatLabels, "high bidder, relative")
		a.cash = b.scalar(p+".cash", maxCashFeature, smallCashScale, "cash bid on the tile (clipped)")
		a.fromFactory = b.add(p+".from_factory", colours, 0, l.maxHeap, heapScale, "container bid taken from the bidder's factory district")
		a.fromHarbor = b.add(p+".from_harbor", colours, 0, l.maxHeap, heapScale, "container bid taken from the bidder's harbor district")
		a.value = b.scalar(p+".value", maxCashFeature, smallCashScale, "bid value: dollars, or half-containers for container bids (clipped)")
	}
	for k := range l.companies {
		if !trucks {
			l.companies[k] = companyOffsets{-1, -1}
			continue
		}
		p := fmt.Sprintf("company.p%d", k)
		l.companies[k].owner = b.oneHot(p+".owner", seatNoneLabels, "owner of this seat's Truck Company (none: independent)")
		l.companies[k].pile = b.scalar(p+".pile", maxCashFeature, smallCashScale, "freight fees piled up while independent (clipped)")
	}

	// Players, rotated: p0 is the observer.
	var shipAt = []string{"ocean", "island", "bank", "harbor.p0", "harbor.p1", "harbor.p2", "harbor.p3", "harbor.p4"}
	for k := range l.players {
		po := &l.players[k]
		p := fmt.Sprintf("p%d", k)
		po.present = b.flag(p+".present", "seat in play (0 for the empty seats of 3-4 player games)")
		po.cash = b.scalar(p+".cash", maxCashFeature, cashScale, "cash in hand (clipped)")
		po.card = b.oneHot(p+".card", []string{"0", "1", "2", "3", "4"}, "final scoring card, when this observer may see it")
		po.factories = b.add(p+".factories", colours[:rules.NumNormalColours], 0, 1, 0, "factories owned")
		po.numFactories = b.scalar(p+".num_factories", 1, rules.MaxFactories, "factories owned")
		po.warehouses = b.scalar(p+".warehouses", 1, rules.MaxWarehouses, "warehouses built")
		po.factoryLots = b.add(p+".factory_lots", pricedLabels(rules.FactoryPrices, 1, l.nc), 0, 1, 2*rules.MaxFactories, "factory-district containers by price and colour")
		po.harborLots = b.add(p+".harbor_lots", pricedLabels(rules.HarborPrices, 2, l.nc), 0, 1, rules.MaxWarehouses, "harbor-district containers by price and colour")
		po.factoryUse = b.add(p+".factory_use", []string{"stored", "on_bid_tile", "limit"}, 0, 1, 2*rules.MaxFactories, "factory district: containers in lots, reserve tokens (on a bid tile), storage limit")
		po.harborUse = b.add(p+".harbor_use", []string{"stored", "on_bid_tile", "limit"}, 0, 1, rules.MaxWarehouses, "harbor district: containers in lots, reserve tokens, storage limit")
		po.ship = b.add(p+".ship", colours, 0, 1, rules.ShipCapacity, "cargo on the ship")
		po.shipAt = b.oneHot(p+".ship_at", shipAt, "where the ship is (harbor owner relative to the observer)")
		po.holding = b.add(p+".holding", colours, 0, l.maxHeap, heapScale, "holding area on the Off-Shore Bank")
		po.island = b.add(p+".island", colours, 0, l.maxHeap, heapScale, "scoring area on Container Island")
		po.loans = b.scalar(p+".loans", 1, rules.MaxLoans, "open loans")
		po.loanAmounts = b.add(p+".loan_amounts", []string{"0", "1"}, 0, maxCashFeature, smallCashScale, "repayment amount of each loan slot (clipped)")
		po.loanLenders, po.loanCards, po.trucks = -1, -1, -1
		if ploans {
			var lab []string
			for slot := 0; slot < rules.MaxLoans; slot++ {
				for _, s := range []string{"bank", "p0", "p1", "p2", "p3", "p4"} {
					lab = append(lab, fmt.Sprintf("%d.%s", slot, s))
				}
			}
			po.loanLenders = b.oneHot(p+".loan_lenders", lab, "lender of each loan slot (Off-Shore Bank or a seat, relative)")
			po.loanCards = b.scalar(p+".loan_cards", 1, rules.PlayerLoanCards, "player-loan cards still in hand")
		}
		if trucks {
			po.trucks = b.scalar(p+".trucks", 1, rules.TrucksPerPlayer, "trucks placed on owned companies")
		}
		po.publicScore = b.add(p+".public_score", []string{"value"}, publicScoreLow, maxCashFeature, cashScale,
			"public part of the final score if the game ended now: cash + $3 per ship/holding container + $2 per harbor container - each loan's amount + $1 (clipped)")
	}

	// The observer's own scoring card, derived (zero when the card is not visible).
	l.ownCardValues = b.add("own.card_values", colours[:rules.NumNormalColours], 0, 1, 10, "value of each colour on the observer's scoring card (two-value colour at $10)")
	l.ownTwoValue = b.oneHot("own.two_value", colours[:rules.NumNormalColours], "the observer's two-value colour")
	l.ownIsland = b.scalar("own.island_value", maxCashFeature, cashScale, "what the observer's scoring area would score now (discard and gold choice applied)")
	l.ownAllColours = b.flag("own.all_colours", "the observer's scoring area holds every colour (two-value colour at $10)")
	l.ownDiscard = b.oneHot("own.discard", colours[:rules.NumNormalColours], "colour the observer would discard as most common now")

	// Machine: turn counters, delivery auction, loan request (machine_features.go).
	l.machine = addMachineFeatures(b, o, l.nc, l.maxHeap)

	// The pending decision.
	phases := make([]string, rules.NumPhases)
	for p := range phases {
		phases[p] = rules.Phase(p).String()
	}
	l.decPhase = b.oneHot("decision.phase", phases, "kind of decision pending")
	l.decDecider = b.oneHot("decision.decider", seatLabels, "seat deciding now, relative to the observer")
	l.decActive = b.oneHot("decision.active", seatLabels, "seat whose turn it is, relative")
	l.decCounterpart = b.oneHot("decision.counterpart", seatNoneLabels, "other seat involved (seller, harbor owner, deliverer, defaulter, borrower)")
	l.decDistrict = b.oneHot("decision.district", []string{"factory", "harbor"}, "district placed into or picked from")
	l.decPending = b.add("decision.pending", colours, 0, l.maxHeap, heapScale, "containers waiting to be placed, or bought so far")
	l.decMin = b.scalar("decision.min_amount", maxCashFeature, cashScale, "smallest legal amount (clipped)")
	l.decMax = b.scalar("decision.max_amount", maxCashFeature, cashScale, "largest legal amount (clipped)")
	l.decToBeat = b.scalar("decision.to_beat", maxCashFeature, smallCashScale, "value a Bank bid must beat, dollars or half-containers (clipped)")
	l.decBase = b.scalar("decision.amount_base", maxCashFeature, cashScale, "amount built so far with +$100 in an amount decision; Amount ids count from it (clipped)")
	l.decFree = b.flag("decision.free", "harbor purchase taken as the free anchor action")

	l.spec = Spec{Version: Version, Options: o, Size: b.n, NumActions: rules.NumDistinctActions(),
		Features: b.feats, ActionNames: ActionNames()}

	l.template = make([]float32, b.n)
	l.template[gamePlayers+o.Players-3] = 1
	if o.Variant == rules.Classic {
		l.template[gameVariant] = 1
	}
	if trucks {
		l.template[gameModules] = 1
	}
	if ploans {
		l.template[gameModules+1] = 1
	}
	if luxury {
		l.template[gameModules+2] = 1
	}
	l.template[gameLength+int(lengthIndex(o.Length))] = 1
	return l
}

// lengthIndex orders lengths short, standard, extended.
func lengthIndex(x rules.Length) int {
	switch x {
	case rules.Short:
		return 0
	case rules.Extended:
		return 2
	}
	return 1
}
