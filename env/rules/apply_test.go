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
	s.machine.Phase = PhaseBuyFactory
	s.machine.Action = FactoryPurchase
	s.machine.Counterpart = 9
	seat = fmt.Sprintf("(phase %s, seat p%d)", s.machine.Phase, s.CurrentPlayer()+1)
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

// factoryPurchaseState plays random 3-player games until a Factory Purchase from a seller
// with at least two containers in stock is legal, and returns the state and that move.
func factoryPurchaseState(t *testing.T) (*State, Move) {
	t.Helper()
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(8, 1))
	var ids []int
	for seed := uint64(1); seed < 200; seed++ {
		s := g.NewInitialStateSeed(seed)
		for !s.IsTerminal() && s.Steps < 3000 {
			if s.Decision().Phase == PhaseTurn {
				for _, m := range s.LegalMoves(nil) {
					stock := 0
					if m.Kind == FactoryPurchase {
						for _, lot := range s.Players[m.Seat].FactoryLots {
							stock += lot.Total()
						}
					}
					if stock >= 3 {
						return s, m
					}
				}
			}
			ids = s.LegalActions(ids)
			s.Apply(ids[r.IntN(len(ids))])
		}
	}
	t.Fatal("no factory purchase from a stock of three reached")
	return nil, Move{}
}

// buyAll applies the Factory Purchase m and then takes containers (the first offered each
// time) while any is offered; it returns how many were bought.
func buyAll(t *testing.T, s *State, m Move) int {
	t.Helper()
	if err := s.ApplyMoveChecked(m); err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		var pick *Move
		for _, l := range s.LegalMoves(nil) {
			if l.Kind == PickFactory {
				pick = &l
				break
			}
		}
		if pick == nil {
			return n
		}
		if err := s.ApplyMoveChecked(*pick); err != nil {
			t.Fatal(err)
		}
		n++
	}
}

// TestFactoryPurchaseBuysUntilStockOrHarborSpaceRunsOut: in one Factory Purchase a buyer
// with the cash takes containers until the seller's store or the buyer's harbor space is
// exhausted, also when no loan can extend it (two loans already), and the purchase then goes
// on to placing instead of staying open for a loan the buyer has no room to use.
func TestFactoryPurchaseBuysUntilStockOrHarborSpaceRunsOut(t *testing.T) {
	start, m := factoryPurchaseState(t)
	buyer := start.CurrentPlayer()
	stock := 0
	for _, lot := range start.Players[m.Seat].FactoryLots {
		stock += lot.Total()
	}
	for _, c := range []struct {
		name  string
		loans int
		space int // harbor space left for the purchase
	}{
		{"no loan possible, room for all", MaxLoans, 10},
		{"loan possible, room for two", 0, 2},
		{"no loan possible, room for two", MaxLoans, 2},
	} {
		s := start.Clone()
		p := &s.Players[buyer]
		p.Cash = 200
		for i := 0; i < c.loans; i++ {
			p.Loans[i] = Loan{Lender: -1, Amount: LoanAmount}
		}
		p.NumLoans = uint8(c.loans)
		p.Warehouses = 5
		for p.harborLimit()-p.harborCount() > c.space {
			p.HarborLots[0][Colour(0)]++
		}
		want := min(stock, p.harborLimit()-p.harborCount())
		if got := buyAll(t, s, m); got != want {
			t.Errorf("%s: bought %d of a stock of %d with room for %d, want %d", c.name, got, stock, c.space, want)
		}
		if ph := s.Decision().Phase; ph == PhaseBuyFactory {
			t.Errorf("%s: the purchase is still open (phase %s) after the last container it can take", c.name, ph)
		}
	}
}

// harborPurchaseState plays random 3-player games until a Harbor Purchase at a harbor
// holding at least three containers is legal, and returns the state and that move.
func harborPurchaseState(t *testing.T) (*State, Move) {
	t.Helper()
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(8, 2))
	var ids []int
	for seed := uint64(1); seed < 300; seed++ {
		s := g.NewInitialStateSeed(seed)
		for !s.IsTerminal() && s.Steps < 3000 {
			if s.Decision().Phase == PhaseTurn {
				for _, m := range s.LegalMoves(nil) {
					stock := 0
					if m.Kind == HarborPurchase {
						p := &s.Players[s.CurrentPlayer()]
						for _, lot := range s.Players[p.ShipAt.Seat].HarborLots {
							stock += lot.Total()
						}
					}
					if stock >= 3 {
						return s, m
					}
				}
			}
			ids = s.LegalActions(ids)
			s.Apply(ids[r.IntN(len(ids))])
		}
	}
	t.Fatal("no harbor purchase at a harbor of three containers reached")
	return nil, Move{}
}

// TestHarborPurchaseBuysUntilStockOrShipSpaceRunsOut: in one Harbor Purchase a buyer with
// the cash takes containers until the harbor or the ship's room is exhausted, also when no
// loan can extend it, and the purchase then ends instead of staying open for a loan the
// buyer has no room to use.
func TestHarborPurchaseBuysUntilStockOrShipSpaceRunsOut(t *testing.T) {
	start, m := harborPurchaseState(t)
	buyer := start.CurrentPlayer()
	owner := start.Players[buyer].ShipAt.Seat
	stock := 0
	for _, lot := range start.Players[owner].HarborLots {
		stock += lot.Total()
	}
	for _, c := range []struct {
		name  string
		loans int
		room  int // ship room left
	}{
		{"no loan possible, room for all", MaxLoans, ShipCapacity},
		{"loan possible, room for two", 0, 2},
		{"no loan possible, room for two", MaxLoans, 2},
	} {
		s := start.Clone()
		p := &s.Players[buyer]
		p.Cash = 200
		for i := 0; i < c.loans; i++ {
			p.Loans[i] = Loan{Lender: -1, Amount: LoanAmount}
		}
		p.NumLoans = uint8(c.loans)
		p.Ship = Counts{}
		p.Ship[Colour(0)] = uint8(ShipCapacity - c.room)
		if err := s.ApplyMoveChecked(m); err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			var pick *Move
			for _, l := range s.LegalMoves(nil) {
				if l.Kind == PickHarbor {
					pick = &l
					break
				}
			}
			if pick == nil {
				break
			}
			if err := s.ApplyMoveChecked(*pick); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if want := min(stock, c.room); n != want {
			t.Errorf("%s: bought %d of a stock of %d with room for %d, want %d", c.name, n, stock, c.room, want)
		}
		if ph := s.Decision().Phase; ph == PhaseBuyHarbor {
			t.Errorf("%s: the purchase is still open (phase %s) after the last container it can take", c.name, ph)
		}
	}
}

// TestHarborPurchaseIsLegalWithExactlyTheCheapestPrice: a docked ship may start buying at
// an opponent's harbor with cash equal to its cheapest price, not with a dollar less.
func TestHarborPurchaseIsLegalWithExactlyTheCheapestPrice(t *testing.T) {
	s, m := harborPurchaseState(t)
	buyer := s.CurrentPlayer()
	price := minPrice(s.Players[s.Players[buyer].ShipAt.Seat].HarborLots[:], HarborDistrict)
	has := func(cash int) bool {
		c := s.Clone()
		c.Players[buyer].Cash = int32(cash)
		return slices.Contains(c.LegalMoves(nil), m)
	}
	if !has(price) || has(price-1) {
		t.Errorf("cheapest $%d: legal with exactly $%d: %v, with $%d: %v", price, price, has(price), price-1, has(price-1))
	}
}

// TestColourNamesAndTheFirstColourPastGold: every colour has its name; the first value past
// gold (an invalid colour) is printed as a number, not as an out-of-range lookup.
func TestColourNamesAndTheFirstColourPastGold(t *testing.T) {
	for c, want := range []string{"white", "green", "red", "blue", "yellow", "gold"} {
		if got := Colour(c).String(); got != want {
			t.Errorf("Colour(%d) = %q, want %q", c, got, want)
		}
	}
	if got := Colour(NumColours).String(); got != fmt.Sprintf("colour(%d)", NumColours) {
		t.Errorf("Colour(NumColours) = %q", got)
	}
}
