package encoding

import (
	"fmt"
	"math/bits"

	"github.com/container-rl/container/env/rules"
)

// Encoder writes observations and legal-action masks for one game configuration into
// caller buffers without allocating. It keeps scratch space (a redacted view, a legal-action
// list), so one Encoder serves one goroutine; make one per worker.
type Encoder struct {
	l     *layout
	opts  Options
	view  rules.State
	dec   rules.Decision // Observe's decision, kept here so it is not copied again
	legal []int
}

// NewEncoder returns an encoder of the standard observation for the game's options.
func NewEncoder(g *rules.Game) *Encoder { return NewEncoderWith(g, Options{}) }

// NewEncoderWith returns an encoder of the observation variant eo for the game's options;
// its Spec carries eo.Version().
func NewEncoderWith(g *rules.Game, eo Options) *Encoder {
	l := newLayout(g)
	l.spec.Version = eo.Version()
	return &Encoder{l: l, opts: eo, legal: make([]int, 0, rules.NumDistinctActions())}
}

// Options returns the observation variant this encoder writes.
func (e *Encoder) Options() Options { return e.opts }

// Spec returns the observation spec (do not modify it).
func (e *Encoder) Spec() *Spec { return &e.l.spec }

// Size is the observation length D.
func (e *Encoder) Size() int { return e.l.spec.Size }

// NumActions is the mask length A (rules.NumDistinctActions()).
func (e *Encoder) NumActions() int { return rules.NumDistinctActions() }

// Observe writes seat observer's observation of s into dst: it redacts s for the observer
// (State.Redact) and encodes the view with the pending decision.
func (e *Encoder) Observe(s *rules.State, observer int, dst []float32) error {
	if err := e.checkObserver(observer); err != nil {
		return err
	}
	s.Redact(observer, &e.view)
	s.DecisionFor(observer, &e.dec)
	return e.encode(&e.view, observer, &e.dec, dst, e.opts.HideOpponentCash)
}

// EncodeOracle writes the all-information encoding of s into dst, rotated so that seat
// observer comes first: the observation layout read from the unredacted state, so every
// scoring card, every sealed bid and (whatever the encoder's options) every player's cash is
// visible. For centralised critics and analysis only.
func (e *Encoder) EncodeOracle(s *rules.State, observer int, dst []float32) error {
	if err := e.checkObserver(observer); err != nil {
		return err
	}
	e.dec = s.Decision()
	return e.encode(s, observer, &e.dec, dst, false)
}

func (e *Encoder) checkObserver(observer int) error {
	if observer < 0 || observer >= e.l.n {
		return fmt.Errorf("%w: observer seat %d outside 0..%d", ErrSeat, observer, e.l.n-1)
	}
	return nil
}

// Encode writes the observation of view (a State.Redact result for seat observer) and the
// pending decision d into dst, which must have length Size(). It reads only view and d: the
// board from view, the decision and the machine's facts from d, so d must be the decision as
// observer may know it (view.Decision(), or what the full state's DecisionFor(observer, &d)
// writes).
func (e *Encoder) Encode(view *rules.State, observer int, d rules.Decision, dst []float32) error {
	return e.encode(view, observer, &d, dst, e.opts.HideOpponentCash)
}

// encode is Encode; hideCash leaves the opponents' cash out.
func (e *Encoder) encode(view *rules.State, observer int, d *rules.Decision, dst []float32, hideCash bool) error {
	l := e.l
	if len(dst) != l.spec.Size {
		return fmt.Errorf("%w: observation buffer of %d, want %d", ErrBufferSize, len(dst), l.spec.Size)
	}
	if err := e.checkObserver(observer); err != nil {
		return err
	}
	copy(dst, l.template)
	n := l.n
	nc := l.nc
	rel := func(seat int) int { return ((seat-observer)%n + n) % n }

	// Counters and game end.
	dst[l.turnProgress] = clip(float32(view.Turn)/l.turnLimit, 1)
	dst[l.turnCount] = clip(float32(view.Turn)/turnCountScale, 1)
	dst[l.turnSteps] = clip(float32(view.PublicSteps())/stepsScale, 1) // not the hidden +$100 presses
	dst[l.turnFirst+rel(int(view.FirstPlayer))] = 1
	dst[l.turnActive+rel(int(view.Active))] = 1
	if view.EndTriggered || view.Ended != rules.NotEnded {
		dst[l.endTriggered] = 1
	}
	empty := 0
	lo1, lo2 := float32(2), float32(2) // two smallest supply fractions
	for c := 0; c < nc; c++ {
		if l.total[c] == 0 {
			continue
		}
		f := float32(view.Supply[c]) / l.total[c]
		dst[l.supply+c] = f
		dst[l.removed+c] = float32(view.Removed[c]) / l.total[c]
		if view.Supply[c] == 0 {
			empty++
		}
		if f < lo1 {
			lo1, lo2 = f, lo1
		} else if f < lo2 {
			lo2 = f
		}
	}
	dst[l.endEmpty] = clip(float32(empty)/2, 1)
	if lo2 <= 1 {
		dst[l.endDistance] = (lo1 + lo2) / 2
	}
	for c := 0; c < rules.NumNormalColours; c++ {
		dst[l.factorySupply+c] = float32(view.FactorySupply[c]) / rules.MaxPlayers
	}
	dst[l.warehouseSupply] = float32(view.WarehouseSupply) / (rules.MaxWarehouses * rules.MaxPlayers)

	// Bank.
	for lot := 0; lot < rules.BankLots; lot++ {
		putCounts(dst[l.bankLots+lot*nc:], &view.Bank.ContainerLots[lot], nc, heapScale)
		dst[l.bankCash+lot] = clip(float32(view.Bank.CashLots[lot])/smallCashScale, maxCashFeature)
	}
	var onTileF, onTileH [rules.MaxPlayers]int
	for k := range l.auctions {
		a := &view.Auctions[k]
		if !a.Active {
			continue
		}
		if a.Bidder >= 0 && int(a.Bidder) < n {
			onTileF[a.Bidder] += a.FromFactory.Total()
			onTileH[a.Bidder] += a.FromHarbor.Total()
		}
		ao := &l.auctions[k]
		if ao.active < 0 {
			continue
		}
		dst[ao.active] = 1
		if k == int(rules.TruckAuction) {
			if a.Target >= 0 && int(a.Target) < n {
				dst[ao.target+rel(int(a.Target))] = 1
			}
		} else if a.Target >= 0 && a.Target < rules.BankLots {
			dst[ao.target+int(a.Target)] = 1
		}
		if a.Bidder >= 0 && int(a.Bidder) < n {
			dst[ao.bidder+rel(int(a.Bidder))] = 1
		}
		dst[ao.cash] = clip(float32(a.Cash)/smallCashScale, maxCashFeature)
		putCounts(dst[ao.fromFactory:], &a.FromFactory, nc, heapScale)
		putCounts(dst[ao.fromHarbor:], &a.FromHarbor, nc, heapScale)
		dst[ao.value] = clip(float32(bidValue(a))/smallCashScale, maxCashFeature)
	}
	for seat := 0; seat < n; seat++ {
		co := &l.companies[rel(seat)]
		if co.owner < 0 {
			break
		}
		c := &view.Companies[seat]
		if c.Owner >= 0 && int(c.Owner) < n {
			dst[co.owner+1+rel(int(c.Owner))] = 1
		} else {
			dst[co.owner] = 1
		}
		dst[co.pile] = clip(float32(c.Pile)/smallCashScale, maxCashFeature)
	}

	// Players.
	for seat := 0; seat < n; seat++ {
		po := &l.players[rel(seat)]
		p := &view.Players[seat]
		dst[po.present] = 1
		cash := int(p.Cash)
		if hideCash && seat != observer {
			cash = 0 // the feature reads 0 and the public score leaves it out
		}
		dst[po.cash] = clip(float32(cash)/cashScale, maxCashFeature)
		if p.Card < rules.NumNormalColours {
			dst[po.card+int(p.Card)] = 1
		}
		for c := 0; c < rules.NumNormalColours; c++ {
			if p.Factories&(1<<c) != 0 {
				dst[po.factories+c] = 1
			}
		}
		nf := bits.OnesCount8(p.Factories)
		dst[po.numFactories] = float32(nf) / rules.MaxFactories
		dst[po.warehouses] = float32(p.Warehouses) / rules.MaxWarehouses
		stored := 0
		for pr := 0; pr < rules.FactoryPrices; pr++ {
			stored += putCounts(dst[po.factoryLots+pr*nc:], &p.FactoryLots[pr], nc, 2*rules.MaxFactories)
		}
		dst[po.factoryUse] = float32(stored) / (2 * rules.MaxFactories)
		dst[po.factoryUse+1] = float32(onTileF[seat]) / (2 * rules.MaxFactories)
		dst[po.factoryUse+2] = float32(2*nf) / (2 * rules.MaxFactories)
		stored = 0
		for pr := 0; pr < rules.HarborPrices; pr++ {
			stored += putCounts(dst[po.harborLots+pr*nc:], &p.HarborLots[pr], nc, rules.MaxWarehouses)
		}
		dst[po.harborUse] = float32(stored) / rules.MaxWarehouses
		dst[po.harborUse+1] = float32(onTileH[seat]) / rules.MaxWarehouses
		dst[po.harborUse+2] = float32(p.Warehouses) / rules.MaxWarehouses
		putCounts(dst[po.ship:], &p.Ship, nc, rules.ShipCapacity)
		switch p.ShipAt.Where {
		case rules.AtOcean:
			dst[po.shipAt] = 1
		case rules.AtIsland:
			dst[po.shipAt+1] = 1
		case rules.AtBank:
			dst[po.shipAt+2] = 1
		case rules.AtHarbor:
			dst[po.shipAt+3+rel(int(p.ShipAt.Seat))] = 1
		}
		putCounts(dst[po.holding:], &p.Holding, nc, heapScale)
		putCounts(dst[po.island:], &p.Island, nc, heapScale)
		nl := int(p.NumLoans)
		if nl > rules.MaxLoans {
			nl = rules.MaxLoans
		}
		dst[po.loans] = float32(nl) / rules.MaxLoans
		for i := 0; i < nl; i++ {
			ln := &p.Loans[i]
			dst[po.loanAmounts+i] = clip(float32(ln.Amount)/smallCashScale, maxCashFeature)
			if po.loanLenders >= 0 {
				if ln.Lender >= 0 && int(ln.Lender) < n {
					dst[po.loanLenders+i*(rules.MaxPlayers+1)+1+rel(int(ln.Lender))] = 1
				} else {
					dst[po.loanLenders+i*(rules.MaxPlayers+1)] = 1
				}
			}
		}
		if po.loanCards >= 0 {
			dst[po.loanCards] = clip(float32(p.LoanCards)/rules.PlayerLoanCards, 1)
		}
		if po.trucks >= 0 {
			dst[po.trucks] = clip(float32(p.Trucks)/rules.TrucksPerPlayer, 1)
		}
		score := cash + rules.LeftoverShipValue*(p.Ship.Total()+p.Holding.Total()) + rules.LeftoverHarborValue*stored
		for i := 0; i < nl; i++ {
			score -= int(p.Loans[i].Amount) + 1
		}
		dst[po.publicScore] = clipRange(float32(score)/cashScale, publicScoreLow, maxCashFeature)
	}

	// The observer's scoring card.
	own := &view.Players[observer]
	if values, two, ok := rules.ScoringCardValues(int(own.Card)); ok {
		for c := 0; c < rules.NumNormalColours; c++ {
			dst[l.ownCardValues+c] = float32(values[c]) / 10
		}
		dst[l.ownTwoValue+int(two)] = 1
		isl := rules.ScoreIslandDetail(int(own.Card), own.Island, nc > rules.NumNormalColours)
		dst[l.ownIsland] = clip(float32(isl.Value)/cashScale, maxCashFeature)
		if isl.AllColours {
			dst[l.ownAllColours] = 1
		}
		if isl.Discarded < rules.NumNormalColours {
			dst[l.ownDiscard+int(isl.Discarded)] = 1
		}
	}

	e.encodeMachine(d, observer, dst)

	// Decision.
	if d.Phase < rules.NumPhases {
		dst[l.decPhase+int(d.Phase)] = 1
	}
	if d.Decider >= 0 && d.Decider < n {
		dst[l.decDecider+rel(d.Decider)] = 1
	}
	if d.Active >= 0 && d.Active < n {
		dst[l.decActive+rel(d.Active)] = 1
	}
	if d.Counterpart >= 0 && d.Counterpart < n {
		dst[l.decCounterpart+1+rel(d.Counterpart)] = 1
	} else {
		dst[l.decCounterpart] = 1
	}
	if d.District == rules.HarborDistrict {
		dst[l.decDistrict+1] = 1
	} else {
		dst[l.decDistrict] = 1
	}
	putCounts(dst[l.decPending:], &d.Pending, nc, heapScale)
	if !hideCash || d.Decider == observer {
		// The largest legal amount is bounded by the decider's cash, and the smallest can
		// tell whether it has any (a Classic delivery bid is $1 unless the bidder is broke):
		// both hidden like the cash itself when another seat decides.
		dst[l.decMin] = clip(float32(d.MinAmount)/cashScale, maxCashFeature)
		dst[l.decMax] = clip(float32(d.MaxAmount)/cashScale, maxCashFeature)
		dst[l.decBase] = clip(float32(d.AmountBase)/cashScale, maxCashFeature)
	}
	dst[l.decToBeat] = clip(float32(d.ToBeat)/smallCashScale, maxCashFeature)
	if d.Free {
		dst[l.decFree] = 1
	}
	return nil
}

// bidValue is a Bank bid's value: dollars for a cash bid, half-containers for a container bid
// (a gold container counts three halves).
func bidValue(a *rules.Auction) int {
	if a.Cash > 0 {
		return int(a.Cash)
	}
	v := 0
	for c := 0; c < rules.NumColours; c++ {
		w := 2
		if rules.Colour(c) == rules.Gold {
			w = 3
		}
		v += w * (int(a.FromFactory[c]) + int(a.FromHarbor[c]))
	}
	return v
}

// putCounts writes c[:nc]/scale into dst and returns the number of containers written.
// dst is already zero (Encode starts from the template), so empty heaps, the common case,
// cost one comparison.
func putCounts(dst []float32, c *rules.Counts, nc int, scale float32) int {
	if *c == (rules.Counts{}) {
		return 0
	}
	inv := 1 / scale
	dst = dst[:nc]
	total := 0
	for i := range dst {
		dst[i] = float32(c[i]) * inv
		total += int(c[i])
	}
	return total
}

func clipRange(v, lo, hi float32) float32 {
	if v > hi {
		return hi
	}
	if v < lo {
		return lo
	}
	return v
}

func clip(v, hi float32) float32 {
	if v > hi {
		return hi
	}
	if v < 0 {
		return 0
	}
	return v
}
