package rules

import (
	"errors"
	"slices"
	"testing"
)

// The Rulebook (Game End, the "important" note) and End ref (Game end) forbid a Call Bank,
// to start an auction or to bid, in the turn in which the player triggers the end. The
// engine reads this in both orders: after a Call Bank this turn, a Produce or Acquire
// Luxury that would empty a second supply colour is not legal (endtrigger.go).

// callBankThenProduce: base game, 4 players. Action 1 bids $3 on a container lot; with one
// colour already out and the player's only producible colour down to its last container,
// a Produce would trigger the end and leave the bid uncontested, so it is refused.
func TestRulebookGameEndNoProduceTriggerAfterCallBank(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	s.Supply[Green] = 0
	s.Supply[White] = 1
	if !legal(t, s, "produce") {
		t.Fatal("Produce that triggers the end must be legal without a Call Bank")
	}
	play(t, s, "bank:start:container-lot:1", "$3")
	wantPhase(t, s, PhaseTurn, 0)
	if legal(t, s, "produce") {
		t.Fatal("Produce triggering the end after a Call Bank in the same turn")
	}
	m, _ := s.ParseMove("produce")
	if err := s.ApplyMoveChecked(m); !errors.Is(err, ErrIllegalAction) {
		t.Fatalf("checked apply of the trigger: %v", err)
	}
	// A Produce that does not empty a second colour stays legal after the Call Bank.
	s.Supply[White] = 2
	play(t, s, "produce", "place:$2")
	if s.EndTriggered {
		t.Fatal("end triggered with one empty colour")
	}
}

// With short storage the player picks the colours to produce (Rulebook, Produce Action,
// details): after a Call Bank only picks that leave a non-triggering completion are legal,
// and Produce itself is refused when every completion triggers.
func TestRulebookGameEndShortStorageProducePicksAvoidTrigger(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	p := &s.Players[0]
	p.Factories = 1<<White | 1<<Red | 1<<Blue // storage 6
	p.FactoryLots[0] = Counts{Yellow: 5}      // one space left
	s.Supply[Green] = 0
	s.Supply[White] = 1
	play(t, s, "bank:start:container-lot:1", "$3", "produce")
	wantPhase(t, s, PhaseProduceColour, 0)
	if legal(t, s, "colour:white") || !legal(t, s, "colour:red") || !legal(t, s, "colour:blue") {
		t.Fatalf("picks after a Call Bank: %v", s.LegalMoves(nil))
	}
	play(t, s, "colour:red", "place:$2")
	if s.EndTriggered {
		t.Fatal("end triggered")
	}
	// Every completion triggers: Produce is refused.
	s2 := newTestState(t, DefaultOptions())
	p2 := &s2.Players[0]
	p2.Factories = 1<<White | 1<<Red | 1<<Blue
	p2.FactoryLots[0] = Counts{Yellow: 5}
	s2.Supply[Green] = 0
	s2.Supply[White], s2.Supply[Red], s2.Supply[Blue] = 1, 1, 1
	play(t, s2, "bank:start:container-lot:1", "$3")
	if legal(t, s2, "produce") {
		t.Fatal("Produce legal although every choice triggers the end after a Call Bank")
	}
}

// Acquire Luxury takes a gold from the supply (More, Luxury Containers; gold counts toward
// the two colours, More, Game End & Final Scoring). After a Call Bank only a pair whose
// return keeps the end untriggered may be returned: here returning the green container
// refills the empty green supply while the last gold leaves.
func TestMoreContainersNoLuxuryTriggerAfterCallBank(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	p := &s.Players[0]
	p.FactoryLots[0] = Counts{White: 1, Green: 1, Red: 1}
	s.Supply[Gold] = 1
	s.Supply[Green] = 0
	c := s.Clone()
	play(t, c, "luxury:factory", "pick:factory:white:$1", "pick:factory:red:$1", "place:$2")
	if !c.EndTriggered {
		t.Fatal("without a Call Bank, returning white and red triggers the end")
	}
	play(t, s, "bank:start:container-lot:1", "$3", "luxury:factory")
	if legal(t, s, "pick:factory:red:$1") || !legal(t, s, "pick:factory:white:$1") || !legal(t, s, "pick:factory:green:$1") {
		t.Fatalf("first picks after a Call Bank: %v", s.LegalMoves(nil))
	}
	play(t, s, "pick:factory:white:$1")
	if legal(t, s, "pick:factory:red:$1") || !legal(t, s, "pick:factory:green:$1") {
		t.Fatalf("second picks after a Call Bank: %v", s.LegalMoves(nil))
	}
	play(t, s, "pick:factory:green:$1", "place:$2")
	if s.EndTriggered || s.Supply[Gold] != 0 {
		t.Fatalf("end triggered %v, gold %d", s.EndTriggered, s.Supply[Gold])
	}
	// No pair avoids the end: Acquire Luxury is not offered.
	s2 := newTestState(t, Options{Players: 4, Modules: Luxury})
	s2.Players[0].FactoryLots[0] = Counts{White: 1, Red: 1}
	s2.Supply[Gold] = 1
	s2.Supply[Green] = 0
	play(t, s2, "bank:start:container-lot:1", "$3")
	if legal(t, s2, "luxury:factory") {
		t.Fatal("Acquire Luxury that must trigger the end after a Call Bank")
	}
}

// 5 players (Rulebook, Bank Auctions: a container-lot and a cash-lot auction may run at the
// same time): with another player's container-lot auction open, the active player bids on
// a cash lot, and then neither a triggering Produce nor a triggering Acquire Luxury is legal.
func TestRulebookFivePlayerNoTriggerAfterCallBankBesideOpenAuction(t *testing.T) {
	for _, mods := range []Modules{0, Luxury} {
		s := newTestState(t, Options{Players: 5, Modules: mods})
		s.Auctions[ContainerLotAuction] = Auction{Active: true, Target: 0, Bidder: 2, Cash: 4}
		s.Players[2].Cash -= 4
		p := &s.Players[0]
		p.HarborLots[0] = Counts{Yellow: 1}
		s.Supply[Green] = 0
		s.Supply[White] = 1
		if mods == Luxury {
			p.FactoryLots[0] = Counts{Blue: 1, Red: 1}
			s.Supply[Gold] = 1
			s.Supply[White] = 5
		}
		trigger := "produce"
		if mods == Luxury {
			trigger = "luxury:factory"
		}
		if !legal(t, s, trigger) {
			t.Fatalf("modules %v: %s must be legal before the Call Bank", mods, trigger)
		}
		play(t, s, "bank:start:cash-lot:1", "pick:harbor:yellow:$2")
		if s.machine.Phase == PhaseBankContainerBid {
			play(t, s, "done")
		}
		if !s.Auctions[CashLotAuction].Active || !s.Auctions[ContainerLotAuction].Active {
			t.Fatalf("two auctions should be open: %+v", s.Auctions)
		}
		wantPhase(t, s, PhaseTurn, 0)
		if legal(t, s, trigger) {
			t.Fatalf("modules %v: %s triggering the end after a Call Bank", mods, trigger)
		}
	}
}

// Tests of the Call Bank / end-trigger exclusion (Rulebook, Game End, the "important" note;
// End ref, Game end; docs/RULES.md, Game end) at the edges of
// endtrigger.go and luxury.go (the mutation records in docs/results/ name the bug each one catches).

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
