package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestRefusedActionErrorsNameTheRangeAndTheSeat: an id outside the action space is refused
// as illegal (not as a broken position) naming the valid range, the first id past the end
// included; an illegal id and a failed apply name the decider's seat as the rulebook numbers
// it (p1 for seat 0).
func TestRefusedActionErrorsNameTheRangeAndTheSeat(t *testing.T) {
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(2)
	rangeMsg := fmt.Sprintf("outside 0..%d", NumDistinctActions()-1)
	for _, id := range []int{-1, NumDistinctActions(), NumDistinctActions() + 1} {
		err := s.ApplyChecked(id)
		if !errors.Is(err, ErrIllegalAction) || !strings.Contains(err.Error(), rangeMsg) {
			t.Errorf("ApplyChecked(%d) = %v, want ErrIllegalAction naming %q", id, err, rangeMsg)
		}
	}
	seat := fmt.Sprintf("of seat p%d", s.CurrentPlayer()+1)
	legal := s.LegalActions(nil)
	for id := 0; id < NumDistinctActions(); id++ {
		if len(legal) > 0 && legal[0] == id {
			legal = legal[1:]
			continue
		}
		err := s.ApplyChecked(id)
		if !errors.Is(err, ErrIllegalAction) || !strings.Contains(err.Error(), seat) {
			t.Errorf("ApplyChecked(illegal %d) = %v, want ErrIllegalAction naming %q", id, err, seat)
		}
		break
	}
	// A state corrupted behind Validate's back (as in TestApplyCheckedNeverPanics).
	s = loadTestPosition(t, "opening-4p.json")
	s.Machine.Phase = PhaseBuyFactory
	s.Machine.Action = FactoryPurchase
	s.Machine.Counterpart = 9
	seat = fmt.Sprintf("(phase %s, seat p%d)", s.Machine.Phase, s.CurrentPlayer()+1)
	first, _ := KindBase(PickFactory)
	if err := s.ApplyChecked(first); !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), seat) {
		t.Errorf("ApplyChecked on a corrupt state: %v, want ErrBadPosition naming %q", err, seat)
	}
}

// TestProduceIsNotOfferedWhenNoFactoryColourIsInTheSupply: producing needs at least one
// container a factory can make; with the supply of every colour the player has a factory
// for empty, Produce is not a legal move (though wage and storage allow it).
func TestProduceIsNotOfferedWhenNoFactoryColourIsInTheSupply(t *testing.T) {
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(5)
	seat := s.CurrentPlayer()
	produce := func() bool {
		for _, m := range s.LegalMoves(nil) {
			if m.Kind == Produce {
				return true
			}
		}
		return false
	}
	if !produce() {
		t.Fatal("Produce not offered at the start")
	}
	for c := Colour(0); c < NumNormalColours; c++ {
		if s.Players[seat].Factories&(1<<c) != 0 {
			s.Supply[c] = 0
		}
	}
	if produce() {
		t.Error("Produce offered with no container of the player's factory colours in the supply")
	}
}

// TestFactoryPurchaseIsLegalWithExactlyTheCheapestPrice (base game, no freight fee): a
// player may buy from an opponent's factory store with cash equal to its cheapest price,
// not with a dollar less.
func TestFactoryPurchaseIsLegalWithExactlyTheCheapestPrice(t *testing.T) {
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var ids []int
	for seed := uint64(1); seed < 50; seed++ {
		s := g.NewInitialStateSeed(seed)
		for !s.IsTerminal() && s.Steps < 2000 {
			d := s.Decision()
			if d.Phase == PhaseTurn {
				for _, m := range s.LegalMoves(nil) {
					if m.Kind != FactoryPurchase {
						continue
					}
					seller := int(m.Seat)
					price := minPrice(s.Players[seller].FactoryLots[:], FactoryDistrict)
					buyer := d.Decider
					has := func(cash int) bool {
						c := s.Clone()
						c.Players[buyer].Cash = int32(cash)
						return slices.Contains(c.LegalMoves(nil), m)
					}
					if !has(price) || has(price-1) {
						t.Fatalf("seller p%d cheapest $%d: legal with exactly $%d: %v, with $%d: %v", seller+1, price, price, has(price), price-1, has(price-1))
					}
					return
				}
			}
			ids = s.LegalActions(ids)
			s.Apply(ids[r.IntN(len(ids))])
		}
	}
	t.Fatal("no factory purchase reached")
}
