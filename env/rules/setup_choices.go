package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Setup is every random choice of the rulebook's setup (steps 5-14): the seeded setup
// (NewInitialStateSeed) draws one from its seed, and NewInitialStateSetup lays out a game
// from one given explicitly, so that a caller can make the choices itself (OpenSpiel's chance
// nodes, fixed deals).
type Setup struct {
	// Bank holds the Off-Shore Bank's containers (not in Classic, where it is ignored):
	// Bank[0] and Bank[1] go to lot I, Bank[2] to lot II; three distinct normal colours.
	Bank [3]Colour
	// Factories[i] is seat i's first factory colour (distinct normal colours).
	Factories [MaxPlayers]Colour
	// Cards[i] is seat i's scoring card (distinct, 0 to NumScoringCards-1).
	Cards [MaxPlayers]uint8
	// First is the first player's seat.
	First int
}

// ErrBadSetup is wrapped by every error about a setup or its draws.
var ErrBadSetup = errors.New("rules: bad setup")

// setupRand seeds pcg as the seeded setup does.
func setupRand(pcg *rand.PCG, seed uint64) *rand.Rand {
	pcg.Seed(seed, 0x636f6e7461696e65) // "containe"
	return rand.New(pcg)
}

// DrawSetup returns the choices the seeded setup makes from seed:
// NewInitialStateSetup(DrawSetup(seed)) is NewInitialStateSeed(seed).
func (g *Game) DrawSetup(seed uint64) Setup {
	var pcg rand.PCG
	return g.drawSetup(setupRand(&pcg, seed))
}

// ValidateSetup checks su against g: distinct colours and cards in range, a first player
// among the seats.
func (g *Game) ValidateSetup(su Setup) error {
	n := g.opts.Players
	distinct := func(what string, vals []int, limit int) error {
		var seen [8]bool
		for i, v := range vals {
			if v < 0 || v >= limit {
				return fmt.Errorf("%w: %s %d is %d; want 0 to %d", ErrBadSetup, what, i, v, limit-1)
			}
			if seen[v] {
				return fmt.Errorf("%w: %s %d repeats %d", ErrBadSetup, what, i, v)
			}
			seen[v] = true
		}
		return nil
	}
	if g.opts.Variant != Classic {
		if err := distinct("bank container", []int{int(su.Bank[0]), int(su.Bank[1]), int(su.Bank[2])}, NumNormalColours); err != nil {
			return err
		}
	}
	f, c := make([]int, n), make([]int, n)
	for i := 0; i < n; i++ {
		f[i], c[i] = int(su.Factories[i]), int(su.Cards[i])
	}
	if err := distinct("factory colour of seat", f, NumNormalColours); err != nil {
		return err
	}
	if err := distinct("scoring card of seat", c, NumScoringCards); err != nil {
		return err
	}
	if su.First < 0 || su.First >= n {
		return fmt.Errorf("%w: first player %d; want 0 to %d", ErrBadSetup, su.First, n-1)
	}
	return nil
}

// NewInitialStateSetup sets up a game of g with the setup choices su (ValidateSetup's errors
// for a bad one).
func (g *Game) NewInitialStateSetup(su Setup) (*State, error) {
	if err := g.ValidateSetup(su); err != nil {
		return nil, err
	}
	s := &State{history: make([]Move, 0, historyCap)}
	g.layOut(s, &su)
	return s, nil
}

// The setup as a sequence of draws, each uniform over its outcomes (OpenSpiel's chance
// nodes): the Off-Shore Bank's three containers (not in Classic), each seat's factory
// colour, each seat's scoring card, then the first player. An outcome is the colour, card
// or seat itself. Drawing the permutations one element at a time gives every setup the
// probability the seeded setup gives it.

// MaxSetupOutcomes bounds the outcomes of one setup draw.
const MaxSetupOutcomes = NumNormalColours

// SetupDrawKind is what a setup draw chooses.
type SetupDrawKind uint8

const (
	DrawBank SetupDrawKind = iota
	DrawFactory
	DrawCard
	DrawFirst
)

// SetupDraw is one draw of the setup: its kind and the seat (or Bank container) it is for.
type SetupDraw struct {
	Kind  SetupDrawKind
	Index int // Bank container 0-2, or the seat of a factory or card; 0 for DrawFirst
}

func (d SetupDraw) String() string {
	switch d.Kind {
	case DrawBank:
		return fmt.Sprintf("bank container %d (lot %s)", d.Index+1, romanLot(min(d.Index, 1)))
	case DrawFactory:
		return seatLabel(d.Index) + " factory"
	case DrawCard:
		return seatLabel(d.Index) + " scoring card"
	}
	return "first player"
}

// NumSetupDraws is the number of draws in a setup of g.
func (g *Game) NumSetupDraws() int {
	n := 2*g.opts.Players + 1
	if g.opts.Variant != Classic {
		n += 3
	}
	return n
}

// SetupDrawAt is draw k (0 <= k < NumSetupDraws).
func (g *Game) SetupDrawAt(k int) SetupDraw {
	if g.opts.Variant != Classic {
		if k < 3 {
			return SetupDraw{DrawBank, k}
		}
		k -= 3
	}
	n := g.opts.Players
	switch {
	case k < n:
		return SetupDraw{DrawFactory, k}
	case k < 2*n:
		return SetupDraw{DrawCard, k - n}
	}
	return SetupDraw{Kind: DrawFirst}
}

// PrivateTo is the only seat that sees the draw's outcome (its scoring card), or -1 when every
// seat sees it.
func (d SetupDraw) PrivateTo() int {
	if d.Kind == DrawCard {
		return d.Index
	}
	return -1
}

// SetupOutcomes appends to dst the outcomes of the draw that follows the draws prior (all
// equally likely). prior must be a valid start of a setup (every draw among the outcomes
// SetupOutcomes gave it) and shorter than NumSetupDraws.
func (g *Game) SetupOutcomes(prior []int, dst []int) ([]int, error) {
	k := len(prior)
	if k >= g.NumSetupDraws() {
		return dst, fmt.Errorf("%w: all %d draws are made", ErrBadSetup, g.NumSetupDraws())
	}
	if err := g.checkDraws(prior); err != nil {
		return dst, err
	}
	d := g.SetupDrawAt(k)
	if d.Kind == DrawFirst {
		for s := 0; s < g.opts.Players; s++ {
			dst = append(dst, s)
		}
		return dst, nil
	}
	used := g.usedBy(prior, d.Kind)
	for v := 0; v < MaxSetupOutcomes; v++ {
		if used&(1<<v) == 0 {
			dst = append(dst, v)
		}
	}
	return dst, nil
}

// usedBy is the bit set of outcomes the draws prior already took for draws of kind.
func (g *Game) usedBy(prior []int, kind SetupDrawKind) uint8 {
	var used uint8
	for j, v := range prior {
		if g.SetupDrawAt(j).Kind == kind {
			used |= 1 << v
		}
	}
	return used
}

// checkDraws checks that every draw in draws is an outcome its draw allows.
func (g *Game) checkDraws(draws []int) error {
	if len(draws) > g.NumSetupDraws() {
		return fmt.Errorf("%w: %d draws; a setup has %d", ErrBadSetup, len(draws), g.NumSetupDraws())
	}
	for j, v := range draws {
		d := g.SetupDrawAt(j)
		limit := MaxSetupOutcomes
		if d.Kind == DrawFirst {
			limit = g.opts.Players
		}
		if v < 0 || v >= limit {
			return fmt.Errorf("%w: draw %d (%s) is %d; want 0 to %d", ErrBadSetup, j, d, v, limit-1)
		}
		if d.Kind != DrawFirst && g.usedBy(draws[:j], d.Kind)&(1<<v) != 0 {
			return fmt.Errorf("%w: draw %d (%s) repeats %d", ErrBadSetup, j, d, v)
		}
	}
	return nil
}

// SetupFromDraws is the setup a complete sequence of draws makes.
func (g *Game) SetupFromDraws(draws []int) (Setup, error) {
	var su Setup
	if len(draws) != g.NumSetupDraws() {
		return su, fmt.Errorf("%w: %d draws; a setup has %d", ErrBadSetup, len(draws), g.NumSetupDraws())
	}
	if err := g.checkDraws(draws); err != nil {
		return su, err
	}
	for k, v := range draws {
		switch d := g.SetupDrawAt(k); d.Kind {
		case DrawBank:
			su.Bank[d.Index] = Colour(v)
		case DrawFactory:
			su.Factories[d.Index] = Colour(v)
		case DrawCard:
			su.Cards[d.Index] = uint8(v)
		case DrawFirst:
			su.First = v
		}
	}
	return su, nil
}

// SetupDraws is su as the sequence of draws (SetupFromDraws's inverse).
func (g *Game) SetupDraws(su Setup) []int {
	out := make([]int, g.NumSetupDraws())
	for k := range out {
		switch d := g.SetupDrawAt(k); d.Kind {
		case DrawBank:
			out[k] = int(su.Bank[d.Index])
		case DrawFactory:
			out[k] = int(su.Factories[d.Index])
		case DrawCard:
			out[k] = int(su.Cards[d.Index])
		case DrawFirst:
			out[k] = su.First
		}
	}
	return out
}
