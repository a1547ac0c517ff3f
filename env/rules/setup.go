package rules

import (
	"math/rand/v2"
	"sync"
)

// pcgPool recycles setup generators so ResetState allocates nothing.
var pcgPool = sync.Pool{New: func() any { return new(rand.PCG) }}

// historyCap is the history capacity reserved at setup, so normal play does not reallocate.
const historyCap = 512

// NewInitialState sets up a game from Options.Seed.
func (g *Game) NewInitialState() *State { return g.NewInitialStateSeed(g.opts.Seed) }

// NewInitialStateSeed sets up a game from the given seed (overriding Options.Seed), following
// the rulebook's setup steps 4-14: every random choice comes from one PCG generator.
func (g *Game) NewInitialStateSeed(seed uint64) *State {
	s := &State{history: make([]Move, 0, historyCap)}
	g.ResetState(s, seed)
	return s
}

// ResetState sets s up as a new game of g from the given seed, exactly as
// NewInitialStateSeed does, reusing s's memory: it allocates nothing, so self-play loops and
// vectorised environments can reset games without garbage.
func (g *Game) ResetState(s *State, seed uint64) {
	pcg := pcgPool.Get().(*rand.PCG)
	defer pcgPool.Put(pcg)
	su := g.drawSetup(setupRand(pcg, seed))
	g.layOut(s, &su)
}

// layOut sets s up as a new game of g with the setup choices su (valid for g), reusing s's
// history buffer.
func (g *Game) layOut(s *State, su *Setup) {
	o := &g.opts
	h := s.history[:0]
	if h == nil {
		h = make([]Move, 0, historyCap)
	}
	*s = State{game: g, history: h}
	n := o.Players

	// Step 4: supplies.
	normal, gold := o.containersPerColour()
	for c := 0; c < NumNormalColours; c++ {
		s.Supply[c] = uint8(normal)
		s.FactorySupply[c] = uint8(o.factoriesPerColour())
	}
	if o.Modules.Has(Luxury) {
		s.Supply[Gold] = uint8(gold)
	}
	s.WarehouseSupply = uint8(o.warehouses() - n)
	g.applySetup(s, su)
}

// drawSetup makes the setup's random choices in the rulebook's order (steps 5-6, 8-12, 13,
// 14), each from r exactly as the seeded setup always has.
func (g *Game) drawSetup(r *rand.Rand) Setup {
	n := g.opts.Players
	var su Setup
	if g.opts.Variant != Classic {
		perm := permColours(r)
		for k := range su.Bank {
			su.Bank[k] = Colour(perm[k])
		}
	}
	factories := permColours(r)
	for i := 0; i < n; i++ {
		su.Factories[i] = Colour(factories[i])
	}
	cards := permColours(r)
	for i := 0; i < n; i++ {
		su.Cards[i] = uint8(cards[i])
	}
	su.First = r.IntN(n)
	return su
}

// applySetup lays out s (reset to a blank State of g with its history buffer) from su, which
// must be valid for g (ValidateSetup).
func (g *Game) applySetup(s *State, su *Setup) {
	o := &g.opts
	n := o.Players

	// Steps 5-6: the Off-Shore Bank (not in Classic): one container of each colour, two at
	// random to lot I, one to lot II, the rest back; cash $1, $2, $3.
	if o.Variant != Classic {
		s.Bank.ContainerLots[0][su.Bank[0]]++
		s.Bank.ContainerLots[0][su.Bank[1]]++
		s.Bank.ContainerLots[1][su.Bank[2]]++
		for _, c := range su.Bank {
			s.Supply[c]--
		}
		s.Bank.CashLots = [BankLots]int32{1, 2, 3}
	}

	// Steps 8-12: ships in the ocean, a free warehouse, a random distinct factory colour with
	// one container of it in the $2 factory lot, $20.
	for i := 0; i < n; i++ {
		p := &s.Players[i]
		c := su.Factories[i]
		p.Factories = 1 << c
		s.FactorySupply[c]--
		p.Warehouses = 1
		p.FactoryLots[1][c] = 1
		s.Supply[c]--
		p.Cash = StartCash
		p.ShipAt = ShipPos{Where: AtOcean}
		for l := range p.Loans {
			p.Loans[l] = Loan{Lender: -1}
		}
		if o.Modules.Has(PlayerLoans) {
			p.LoanCards = PlayerLoanCards
		}
	}
	for i := range s.Companies {
		s.Companies[i].Owner = -1
	}

	// Step 13: scoring cards dealt from all five.
	for i := 0; i < n; i++ {
		s.Players[i].Card = su.Cards[i]
	}

	// Step 14: a random first player.
	s.FirstPlayer = int8(su.First)
	s.Active = int8(su.First)
	s.machine.Winner = -1
	s.machine.Returner = -1
	s.machine.Counterpart = -1
	s.startTurn()
}

// permColours is r.Perm(NumNormalColours) (the same sequence for the same generator) without
// the allocation.
func permColours(r *rand.Rand) [NumNormalColours]int {
	var p [NumNormalColours]int
	for i := range p {
		p[i] = i
	}
	r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}
