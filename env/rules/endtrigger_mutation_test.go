package rules

import (
	"slices"
	"testing"
)

// Tests of the Call Bank / end-trigger exclusion (Rulebook, Game End, the "important" note;
// End ref, Game end; docs/RULES.md, Game end) written for the surviving mutants of
// endtrigger.go and luxury.go (docs/TESTING.md, mutation testing).

// shortStorageAfterCallBank: base game, seat 0 with factories in white, red, blue and yellow
// (storage 8) holding five containers (three spaces left), green already out of the supply
// and white down to two. Seat 0 bids on a container lot (a Call Bank) and then produces.
func shortStorageAfterCallBank(t *testing.T) *State {
	t.Helper()
	s := newTestState(t, DefaultOptions())
	p := &s.Players[0]
	p.Factories = 1<<White | 1<<Red | 1<<Blue | 1<<Yellow
	p.FactoryLots[0] = Counts{Yellow: 5}
	s.Supply[Green] = 0
	s.Supply[White] = 2
	play(t, s, "bank:start:container-lot:1", "$3", "produce")
	wantPhase(t, s, PhaseProduceColour, 0)
	return s
}

// After a Call Bank a short-storage Produce may still take the last-but-one container of a
// colour when the rest of the picks can avoid a second empty colour: white (2 left) and then
// any other colour are offered, and completing leaves one empty colour, no end.
func TestShortStorageProduceAfterCallBankOffersEveryPickThatKeepsTheEndOff(t *testing.T) {
	s := shortStorageAfterCallBank(t)
	for _, c := range []string{"colour:white", "colour:red", "colour:blue", "colour:yellow"} {
		if !legal(t, s, c) {
			t.Fatalf("first pick %s refused; legal: %v", c, s.LegalMoves(nil))
		}
	}
	play(t, s, "colour:white") // white supply now 1: not empty, no trigger
	if legal(t, s, "colour:white") {
		t.Fatal("white picked twice")
	}
	for _, c := range []string{"colour:red", "colour:blue", "colour:yellow"} {
		if !legal(t, s, c) {
			t.Fatalf("second pick %s refused after white; legal: %v", c, s.LegalMoves(nil))
		}
	}
	play(t, s, "colour:red", "colour:blue", "place:$1", "place:$1", "place:$1")
	if s.EndTriggered || s.Supply[White] != 1 {
		t.Fatalf("end triggered %v, white supply %d", s.EndTriggered, s.Supply[White])
	}
}

// A short-storage Produce whose every remaining completion would empty a second colour offers
// no pick after a Call Bank (the position below is not reachable by play, where Produce is
// refused up front, but a position file can describe it): seat 0 must take two of white, red
// and blue, green is out, and white and red are on their last container.
func TestShortStorageProduceAfterCallBankOffersNoPickWhenEveryCompletionTriggers(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	p := &s.Players[0]
	p.Factories = 1<<White | 1<<Red | 1<<Blue // storage 6
	p.FactoryLots[0] = Counts{Yellow: 4}      // two spaces
	s.Supply[Green] = 0
	s.Supply[White], s.Supply[Red] = 2, 2
	play(t, s, "bank:start:container-lot:1", "$3", "produce")
	wantPhase(t, s, PhaseProduceColour, 0)
	s.Supply[White], s.Supply[Red] = 1, 1 // now every pair of picks empties white or red
	for _, m := range s.LegalMoves(nil) {
		if m.Kind == PickColour {
			t.Fatalf("pick %v offered although every completion triggers the end", m)
		}
	}
}

// Acquire Luxury returns its two containers to the supply before the gold is taken (More,
// Luxury Containers): after a Call Bank, returning a white refills a white supply of one,
// so with green out and two gold left the exchange keeps the end off.
func TestLuxuryAfterCallBankCountsTheReturnedContainersInTheSupply(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	s.Players[0].FactoryLots[0] = Counts{White: 1, Red: 1}
	s.Supply[Green] = 0
	s.Supply[White] = 1
	s.Supply[Gold] = 2
	play(t, s, "bank:start:container-lot:1", "$3")
	if !legal(t, s, "luxury:factory") {
		t.Fatalf("Acquire Luxury refused; legal: %v", s.LegalMoves(nil))
	}
	play(t, s, "luxury:factory", "pick:factory:white:$1", "pick:factory:red:$1", "place:$2")
	if s.EndTriggered || s.Supply[White] != 2 || s.Supply[Gold] != 1 {
		t.Fatalf("end %v, supply %v", s.EndTriggered, s.Supply)
	}
}

// The two containers of Acquire Luxury may be of one colour from one lot, also after a Call
// Bank, and for any colour (here red, not the first colour white).
func TestLuxuryAfterCallBankMayReturnTwoContainersOfOneColourFromOneLot(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	s.Players[0].FactoryLots[0] = Counts{Red: 2}
	play(t, s, "bank:start:container-lot:1", "$3")
	if !legal(t, s, "luxury:factory") {
		t.Fatalf("Acquire Luxury with two reds refused; legal: %v", s.LegalMoves(nil))
	}
	play(t, s, "luxury:factory", "pick:factory:red:$1", "pick:factory:red:$1", "place:$3")
	if got := s.Players[0].FactoryLots[2]; got != (Counts{Gold: 1}) || s.Players[0].FactoryLots[0] != (Counts{}) {
		t.Fatalf("factory lots %v", s.Players[0].FactoryLots)
	}
}

// Acquire Luxury needs two containers in the chosen district (More, Luxury Containers): the
// harbor with exactly two offers it (move and action id), with one it does not.
func TestAcquireLuxuryOnTheHarborWithExactlyTwoContainers(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	s.Players[0].HarborLots[0] = Counts{White: 1, Red: 1}
	if !legal(t, s, "luxury:harbor") {
		t.Fatalf("Acquire Luxury on a harbor of two refused; legal: %v", s.LegalMoves(nil))
	}
	id, _ := s.MoveToAction(Move{Kind: AcquireLuxury, Index: uint8(HarborDistrict)})
	if !slices.Contains(s.LegalActions(nil), id) {
		t.Fatal("the harbor's Acquire Luxury id is not legal")
	}
	play(t, s, "luxury:harbor", "pick:harbor:white:$2", "pick:harbor:red:$2", "place:$4")
	if s.Players[0].HarborLots[2] != (Counts{Gold: 1}) {
		t.Fatalf("harbor lots %v", s.Players[0].HarborLots)
	}
	s2 := newTestState(t, Options{Players: 4, Modules: Luxury})
	s2.Players[0].HarborLots[0] = Counts{White: 1}
	if legal(t, s2, "luxury:harbor") {
		t.Fatal("Acquire Luxury on a harbor of one container")
	}
}
