package bots

import (
	"math"
	"math/rand/v2"

	"github.com/container-rl/container/env/rules"
)

// style holds the parameters that make the three scripted bots play differently. Every
// decision is taken by scoring each legal move and playing the best, so a bot can only ever
// return a legal action; the style decides the scores.
type style struct {
	name, description string

	factoryPrice int // price of a new container in the factory district
	harborPrice  int // price of a new container in the harbor district
	resale       int // what a harbor container is expected to fetch (factory purchases pay up to resale-1)
	shipResale   int // what a container on the ship is expected to fetch at delivery
	deliverAt    int // ship load that sends the ship to Container Island
	bidShare     float64
	exact        bool // value containers by the exact marginal island score (else card face values)

	targetFactories, targetWarehouses int

	wProduce, wBuildFactory, wBuildWarehouse, wFactoryPurchase, wShip, wBank float64
	trucks, luxury                                                           bool
}

// Scripted is a rule-based bot; its style sets its strategy.
type Scripted struct {
	st  *style
	rng *rand.Rand
	bd  board
	// Free actions taken in the current turn: a guard against ever cycling loans.
	freeTurn int32
	freeN    int
}

// Name implements Bot.
func (s *Scripted) Name() string { return s.st.name }

var (
	manufacturer = style{
		name:         "manufacturer",
		description:  "builds up to three factories early, produces every turn, prices to sell at $2, ships what it can on the side",
		factoryPrice: 2, harborPrice: 4, resale: 4, shipResale: 4, deliverAt: 3, bidShare: 0.4,
		targetFactories: 3, targetWarehouses: 2,
		wProduce: 30, wBuildFactory: 32, wBuildWarehouse: 5, wFactoryPurchase: 10, wShip: 12, wBank: 8,
	}
	shipper = style{
		name:         "shipper",
		description:  "trader: buys cheap from factories, marks up in its harbor, sails full loads to the island, owns its truck company",
		factoryPrice: 2, harborPrice: 4, resale: 5, shipResale: 5, deliverAt: 5, bidShare: 0.3,
		targetFactories: 1, targetWarehouses: 4,
		wProduce: 14, wBuildFactory: 0, wBuildWarehouse: 26, wFactoryPurchase: 24, wShip: 18, wBank: 9,
		trucks: true, luxury: true,
	}
	valuer = style{
		name:         "valuer",
		description:  "values every container from its own scoring card with the discard and two-value rules; bids, buys, buys out and calls the Bank from that",
		factoryPrice: 2, harborPrice: 4, resale: 4, shipResale: 4, deliverAt: 3, bidShare: 0.45, exact: true,
		targetFactories: 2, targetWarehouses: 3,
		wProduce: 30, wBuildFactory: 26, wBuildWarehouse: 12, wFactoryPurchase: 24, wShip: 20, wBank: 26,
		trucks: true, luxury: true,
	}
	styles = []*style{&manufacturer, &shipper, &valuer}
)

func newScripted(st *style, seed uint64) *Scripted {
	return &Scripted{st: st, rng: rand.New(rand.NewPCG(seed, 0x5c1a7ed)), freeTurn: -1}
}

// NewManufacturer, NewShipper and NewValuer return the scripted bots.
func NewManufacturer(seed uint64) *Scripted { return newScripted(&manufacturer, seed) }

// NewShipper returns the shipper/trader bot.
func NewShipper(seed uint64) *Scripted { return newScripted(&shipper, seed) }

// NewValuer returns the valuer bot.
func NewValuer(seed uint64) *Scripted { return newScripted(&valuer, seed) }

func init() {
	for _, st := range styles {
		st := st
		mustRegister(st.name, st.description, func(_ rules.Options, seed uint64) (Bot, error) { return newScripted(st, seed), nil })
	}
}

const never = -1e9

// Act implements Bot: it scores every legal move and plays the best (ties to the lowest id,
// with a seeded nudge so self-play games differ).
func (s *Scripted) Act(view *rules.State, legal []int) int {
	if len(legal) == 0 {
		return -1
	}
	if len(legal) == 1 {
		return legal[0]
	}
	bd := &s.bd
	bd.fill(view, legal)
	if bd.d.Phase == rules.PhaseTurn && view.Turn != s.freeTurn {
		s.freeTurn, s.freeN = view.Turn, 0
	}
	best, bestScore := legal[0], math.Inf(-1)
	for _, id := range legal {
		m := view.ActionToMove(id)
		sc := s.score(bd, m) + s.rng.Float64()*1e-3
		if sc > bestScore {
			best, bestScore = id, sc
		}
	}
	bd.view = nil
	if bd.d.Phase == rules.PhaseTurn {
		switch view.ActionToMove(best).Kind {
		case rules.TakeLoan, rules.RepayLoan, rules.AcquireLuxury:
			s.freeN++
		}
	}
	return best
}

// stuckPrice is the price a bot drops to in a full district nobody buys from.
func stuckPrice(d rules.District) int {
	if d == rules.HarborDistrict {
		return 3
	}
	return 2
}

// rearrangeScore lowers overpriced containers of a full district to the stuck price (pick up
// now, placed at that price next) and otherwise closes the loop.
func (s *Scripted) rearrangeScore(b *board, m rules.Move) float64 {
	switch m.Kind {
	case rules.Done:
		return 0
	case rules.PickFactory:
		if b.ffree <= 0 && m.Colour != rules.Gold && int(m.Price) > stuckPrice(rules.FactoryDistrict) {
			return 1
		}
	case rules.PickHarbor:
		if b.hfree <= 0 && m.Colour != rules.Gold && int(m.Price) > stuckPrice(rules.HarborDistrict) {
			return 1
		}
	}
	return never
}

// score is the value of playing m now.
func (s *Scripted) score(b *board, m rules.Move) float64 {
	switch b.d.Phase {
	case rules.PhaseTurn:
		return s.turnScore(b, m)
	case rules.PhasePlace, rules.PhaseReturnBid:
		if m.Kind != rules.Place {
			return fallback(m)
		}
		return -math.Abs(float64(int(m.Price) - s.placePrice(b)))
	case rules.PhaseRearrange:
		return s.rearrangeScore(b, m)
	case rules.PhaseBuyFactory:
		return s.buyFactoryScore(b, m)
	case rules.PhaseBuyHarbor:
		return s.buyHarborScore(b, m)
	case rules.PhaseLoadBank:
		if m.Kind == rules.PickHolding {
			return 1
		}
		return fallback(m) - 3 // Done: 0
	case rules.PhaseDeliveryBid:
		if m.Kind != rules.Amount {
			return never
		}
		return -math.Abs(float64(int(m.Amount) - s.deliveryBid(b)))
	case rules.PhaseRunoffBid:
		if m.Kind != rules.Amount {
			return never
		}
		want := 0
		if v := s.goodsValue(b, &b.view.Players[b.d.Counterpart].Ship); v >= 8 && b.cash > 4 {
			want = 1
		}
		return -math.Abs(float64(int(m.Amount) - want))
	case rules.PhaseDeliveryAccept:
		return s.acceptScore(b, m)
	case rules.PhaseDeliveryTie, rules.PhaseLoanTie:
		if m.Kind == rules.ChooseSeat && int(m.Seat) >= 0 && int(m.Seat) < rules.MaxPlayers {
			return -float64(b.view.Players[m.Seat].Cash)
		}
		return fallback(m)
	case rules.PhaseBankCashBid, rules.PhaseIncentiveBid:
		if m.Kind == rules.Amount {
			return -float64(m.Amount) // the smallest legal bid
		}
		return never
	case rules.PhaseBankContainerBid:
		switch m.Kind {
		case rules.Done:
			return 100
		case rules.PickFactory:
			return 10 - float64(m.Price) - 0.1*float64(s.colourValue(b, m.Colour))
		case rules.PickHarbor:
			return 5 - float64(m.Price) - 0.1*float64(s.colourValue(b, m.Colour))
		}
		return fallback(m)
	case rules.PhaseBankPayColour:
		if m.Kind == rules.PickColour {
			return -float64(s.colourValue(b, m.Colour))
		}
		return fallback(m)
	case rules.PhaseProduceColour:
		if m.Kind == rules.PickColour {
			return -float64(b.factoryStock(m.Colour, b.me)) - 0.01*float64(m.Colour)
		}
		return fallback(m)
	case rules.PhaseSeize:
		if isPick(m.Kind) {
			return float64(s.colourValue(b, m.Colour))
		}
		return fallback(m)
	case rules.PhaseLuxuryPick:
		if m.Kind == rules.PickFactory || m.Kind == rules.PickHarbor {
			return -float64(m.Price) - 0.1*float64(s.colourValue(b, m.Colour))
		}
		return fallback(m)
	case rules.PhaseLoanOffer:
		if m.Kind == rules.Yes {
			// Never lend cash already promised in a sealed delivery bid.
			promised := 0
			switch b.d.Loan.ReturnPhase {
			case rules.PhaseDeliveryBid, rules.PhaseRunoffBid, rules.PhaseDeliveryTie, rules.PhaseDeliveryAccept:
				promised = int(b.d.Delivery.Bids[b.me] + b.d.Delivery.Runoff[b.me])
			}
			if b.cash-promised >= 16 && !b.late {
				return 1
			}
			return -1
		}
		return 0
	case rules.PhaseLoanAccept, rules.PhaseLenderChoice:
		if m.Kind == rules.Yes {
			return 1
		}
		return 0
	case rules.PhaseInterestChoice:
		if m.Kind == rules.PayInterest {
			return -float64(m.Index)
		}
		return fallback(m)
	}
	return fallback(m)
}

// fallback orders the moves of phases a bot has no opinion on: close loops, end turns, decline.
func fallback(m rules.Move) float64 {
	switch m.Kind {
	case rules.Done:
		return 3
	case rules.EndTurn:
		return 2
	case rules.No:
		return 1
	case rules.TakeLoan:
		return never
	}
	return 0
}

func isPick(k rules.MoveKind) bool {
	return k >= rules.PickFactory && k <= rules.PickColour
}

// colourValue is what one container of colour c is worth in the bot's own scoring area.
func (s *Scripted) colourValue(b *board, c rules.Colour) int {
	if s.st.exact {
		var add rules.Counts
		add[c] = 1
		return marginal(&b.p.Island, &add, b.p.Card)
	}
	return flatValue(c, b.p.Card)
}

// goodsValue is what the containers g are worth in the bot's own scoring area.
func (s *Scripted) goodsValue(b *board, g *rules.Counts) int {
	if s.st.exact {
		return marginal(&b.p.Island, g, b.p.Card)
	}
	v := 0
	for c, n := range g {
		v += int(n) * flatValue(rules.Colour(c), b.p.Card)
	}
	return v * 7 / 10
}

// placePrice is the price the bot asks for the container being placed.
func (s *Scripted) placePrice(b *board) int {
	col := rules.Colour(rules.NumColours)
	for c := range b.d.Pending {
		if b.d.Pending[c] > 0 {
			col = rules.Colour(c)
			break
		}
	}
	if b.d.Phase == rules.PhasePlace && b.d.Action.Kind == rules.Reprice {
		return stuckPrice(b.d.District)
	}
	if b.d.District == rules.HarborDistrict {
		p := s.st.harborPrice
		if col == rules.Gold {
			return 6
		}
		if s.st.exact && col < rules.NumNormalColours && b.factoryOwners(col, b.me) <= 1 {
			p++
		}
		return p
	}
	p := s.st.factoryPrice
	if col == rules.Gold {
		return 4
	}
	if s.st.exact && col < rules.NumNormalColours && b.factoryOwners(col, b.me) == 0 && b.factoryStock(col, b.me) == 0 {
		p++
	}
	return p
}

// deliveryBid is the bid the bot wants to make for the deliverer's ship load.
func (s *Scripted) deliveryBid(b *board) int {
	dl := b.d.Counterpart
	if dl < 0 || dl >= rules.MaxPlayers {
		return b.d.MinAmount
	}
	v := s.goodsValue(b, &b.view.Players[dl].Ship)
	want := int(float64(v) * s.st.bidShare)
	if b.late {
		// Cash is score: a container is only worth its island value minus what it costs.
		want = int(float64(v) * (s.st.bidShare + 0.1))
	}
	want = min(want, b.cash, b.d.MaxAmount)
	return max(want, b.d.MinAmount)
}

// acceptScore compares accepting the winning bid (cash twice the bid) with buying out
// (the containers for the bot's own island, paying the bid).
func (s *Scripted) acceptScore(b *board, m rules.Move) float64 {
	bid := winningBid(b)
	v := s.goodsValue(b, &b.p.Ship)
	switch m.Kind {
	case rules.Yes:
		return 2 * float64(bid)
	case rules.No:
		if bid > b.cash {
			return never
		}
		return float64(v - bid)
	}
	return never
}

// winningBid reads the bid the deliverer accepts or buys out.
func winningBid(b *board) int {
	a := &b.d.Delivery
	w := int(a.Winner)
	if w < 0 || w >= rules.MaxPlayers {
		return 0
	}
	return int(a.Bids[w] + a.Runoff[w])
}

// buyFactoryScore values taking one container from the seller's factory lot for the harbor.
func (s *Scripted) buyFactoryScore(b *board, m rules.Move) float64 {
	if m.Kind != rules.PickFactory {
		return fallback(m) - 3 // Done: 0
	}
	v := float64(s.st.resale - 1 - int(m.Price))
	if b.cash-int(m.Price) < 1 {
		v -= 5
	}
	if m.Colour == rules.Gold {
		v += 1
	}
	return v - 0.01*float64(b.factoryOwners(m.Colour, -1))
}

// shipValue is what one more container of colour c on the ship is worth to the bot.
func (s *Scripted) shipValue(b *board, c rules.Colour, extra *rules.Counts) float64 {
	resale := float64(s.st.shipResale)
	if !s.st.exact {
		return math.Max(resale, 0.5*float64(flatValue(c, b.p.Card)))
	}
	isl := b.p.Island
	isl.Add(&b.p.Ship)
	if extra != nil {
		isl.Add(extra)
	}
	var add rules.Counts
	add[c] = 1
	return math.Max(resale, 0.6*float64(marginal(&isl, &add, b.p.Card)))
}

func (s *Scripted) buyHarborScore(b *board, m rules.Move) float64 {
	if m.Kind != rules.PickHarbor {
		return fallback(m) - 3
	}
	v := s.shipValue(b, m.Colour, &b.d.Pending) - float64(m.Price)
	if b.cash-int(m.Price) < 1 {
		v -= 5
	}
	return v
}

// Seed implements Seeder.
func (s *Scripted) Seed(seed uint64) { *s = *newScripted(s.st, seed) }
