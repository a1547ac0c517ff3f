package rules

import "testing"

// Named examples from the base rulebook (docs/RULES.md), each test proving one rule; the
// More Containers examples are in rulebook_modules_test.go.

// Rulebook, Bank Auctions, "Reserve Tokens & Storage Limits" example: factory limit 6, 4
// containers + 1 reserve token: Blue can produce only 1 more container.
func TestRulebookReserveTokensStorageExample(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	b := &s.Players[0]
	b.Factories = 1<<White | 1<<Green | 1<<Blue // limit 6
	b.FactoryLots[0][White] = 2
	b.FactoryLots[2][Green] = 2
	// One container on the container bid tile (cash lot III).
	s.Auctions[CashLotAuction] = Auction{Active: true, Target: 2, Bidder: 0, FromFactory: Counts{Blue: 1}}
	if got := s.factorySpace(0); got != 1 {
		t.Fatalf("factory space %d, want 1", got)
	}
	play(t, s, "produce")
	wantPhase(t, s, PhaseProduceColour, 0)
	play(t, s, "colour:green")
	wantPhase(t, s, PhasePlace, 0)
	if s.machine.Pending.Total() != 1 {
		t.Fatalf("produced %d, want 1", s.machine.Pending.Total())
	}
}

// Rulebook, Produce Action Details: storage short -> the player picks which colours.
func TestRulebookProduceStorageShort(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	b := &s.Players[0]
	b.Factories = 1<<White | 1<<Green | 1<<Red // limit 6
	b.FactoryLots[0][White] = 4
	play(t, s, "produce")
	wantPhase(t, s, PhaseProduceColour, 0)
	if s.Players[3].Cash != 21 || b.Cash != 19 {
		t.Fatalf("union wage not paid to the right-hand player: %d %d", s.Players[3].Cash, b.Cash)
	}
	if legal(t, s, "colour:blue") {
		t.Fatal("blue produced without a blue factory")
	}
	play(t, s, "colour:red")
	wantPhase(t, s, PhaseProduceColour, 0)
	if legal(t, s, "colour:red") {
		t.Fatal("red produced twice")
	}
	play(t, s, "colour:white", "place:$1", "place:$4")
	wantPhase(t, s, PhaseRearrange, 0)
	if b.FactoryLots[0][White] != 5 || b.FactoryLots[3][Red] != 1 {
		t.Fatalf("lots %v", b.FactoryLots)
	}
	// The four old whites may move, the new ones may not move again.
	if !legal(t, s, "pick:factory:white:$1") || legal(t, s, "pick:factory:red:$4") {
		t.Fatal("rearrange offers the wrong containers")
	}
	play(t, s, "pick:factory:white:$1", "place:$2", "done")
	wantPhase(t, s, PhaseTurn, 0)
	if b.FactoryLots[0][White] != 4 || b.FactoryLots[1][White] != 1 {
		t.Fatalf("lots %v", b.FactoryLots)
	}
	if legal(t, s, "produce") {
		t.Fatal("produce twice in a turn")
	}
}

// Rulebook, Bank Loans, Paying Interest example: 2 loans, token on cash lot II: $1 to lot I,
// $1 to lot III.
func TestRulebookInterestSkipsAuctionedLot(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	s.Players[1].NumLoans = 2
	s.Players[1].Loans = [MaxLoans]Loan{{-1, 10}, {-1, 10}}
	s.Players[1].Cash = 5
	s.Auctions[CashLotAuction] = Auction{Active: true, Target: 1, Bidder: 2, FromFactory: Counts{Red: 1}}
	s.Players[2].FactoryLots = [FactoryPrices]Counts{}
	play(t, s, "end")
	if got := s.Bank.CashLots; got != [BankLots]int32{2, 2, 4} {
		t.Fatalf("cash lots %v, want [2 2 4]", got)
	}
	if s.Players[1].Cash != 3 {
		t.Fatalf("cash %d, want 3", s.Players[1].Cash)
	}
}

// Rulebook, Bank Auctions, Container Bid Example: Blue bids 2 containers on cash lot III,
// Purple outbids with 3; Blue puts its containers back and lowers the yellow's price.
func TestRulebookContainerBidExample(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	blue, purple := 0, 1
	s.Players[blue].Factories = 1<<Yellow | 1<<White
	s.Players[blue].FactoryLots[2][Yellow] = 1
	s.Players[blue].FactoryLots[1][White] = 1
	play(t, s, "bank:start:cash-lot:3")
	wantPhase(t, s, PhaseBankContainerBid, blue)
	if legal(t, s, "done") {
		t.Fatal("empty container bid accepted")
	}
	play(t, s, "pick:factory:white:$2", "pick:factory:yellow:$3")
	wantPhase(t, s, PhaseTurn, blue) // everything is on the tile: the bid is made
	if s.factorySpace(blue) != 2 || s.Players[blue].factoryCount() != 0 {
		t.Fatal("reserve tokens do not keep the storage")
	}
	play(t, s, "end")
	s.Players[purple].FactoryLots[0][Green] = 2
	s.Players[purple].Factories |= 1 << Green
	s.Players[purple].HarborLots[0][Red] = 1
	if !legal(t, s, "bank:raise:cash-lot") {
		t.Fatal("purple cannot outbid with 3 containers")
	}
	play(t, s, "bank:raise:cash-lot")
	wantPhase(t, s, PhaseReturnBid, blue)
	if s.Decision().District != FactoryDistrict || s.machine.Pending != (Counts{White: 1, Yellow: 1}) {
		t.Fatalf("return %+v", s.Decision())
	}
	play(t, s, "place:$2", "place:$1") // white back at $2, yellow lowered from $3 to $1
	wantPhase(t, s, PhaseBankContainerBid, purple)
	play(t, s, "pick:factory:green:$1", "pick:factory:green:$1")
	if legal(t, s, "done") {
		t.Fatal("2 containers beat 2")
	}
	play(t, s, "pick:harbor:red:$2")
	wantPhase(t, s, PhaseTurn, purple)
	if s.Players[blue].FactoryLots[0][Yellow] != 1 || s.Players[blue].FactoryLots[1][White] != 1 {
		t.Fatalf("blue's lots %v", s.Players[blue].FactoryLots)
	}
	a := s.Auctions[CashLotAuction]
	if int(a.Bidder) != purple || a.FromFactory[Green] != 2 || a.FromHarbor[Red] != 1 {
		t.Fatalf("auction %+v", a)
	}
	// Purple wins at the start of its next turn: containers to the Bank container lots
	// (lot I, II, III, colour chosen while they differ), cash lot III to hand.
	s.Active = int8(purple-1+4) % 4
	play(t, s, "end")
	for s.Active != int8(purple) || s.machine.Phase != PhaseBankPayColour {
		if s.machine.Phase == PhaseTurn {
			play(t, s, "end")
			continue
		}
		t.Fatalf("unexpected phase %s", s.machine.Phase)
	}
	play(t, s, "colour:red")
	wantPhase(t, s, PhaseTurn, purple)
	if s.Players[purple].Cash != 20+3 {
		t.Fatalf("purple cash %d", s.Players[purple].Cash)
	}
	if s.Bank.ContainerLots[0][Red] != 1 || s.Bank.ContainerLots[1][Green] != 1 || s.Bank.ContainerLots[2][Green] != 1 {
		t.Fatalf("container lots %v", s.Bank.ContainerLots)
	}
	if legal(t, s, "bank:start:container-lot:1") {
		t.Fatal("Call Bank in the turn the auction was won")
	}
}

// Rulebook, Bank Loans, Default: one container per unpaid loan from island, ship, holding,
// harbor, factory; the right-hand player picks within a location and the colours paid to
// the Bank; Classic: seized containers leave the game.
func TestRulebookDefaultSeizureOrder(t *testing.T) {
	for _, v := range []Variant{Base, Classic} {
		s := newTestState(t, Options{Players: 4, Variant: v})
		d := &s.Players[1]
		d.NumLoans = 2
		d.Loans = [MaxLoans]Loan{{-1, 10}, {-1, 10}}
		d.Cash = 0
		d.Ship = Counts{Red: 1}
		d.Holding = Counts{Blue: 1, Green: 1}
		d.HarborLots[0][White] = 1
		play(t, s, "end")
		// Ship first (one choice: automatic), then the holding area: seat 0 chooses.
		wantPhase(t, s, PhaseSeize, 0)
		if d.Ship.Total() != 0 || !legal(t, s, "pick:holding:blue") || legal(t, s, "pick:harbor:white:$2") {
			t.Fatal("wrong seizure location")
		}
		play(t, s, "pick:holding:blue")
		if v == Classic {
			wantPhase(t, s, PhaseTurn, 1)
			if s.Removed != (Counts{Green: 0, Red: 1, Blue: 1}) {
				t.Fatalf("removed %v", s.Removed)
			}
			continue
		}
		wantPhase(t, s, PhaseBankPayColour, 0)
		play(t, s, "colour:blue")
		wantPhase(t, s, PhaseTurn, 1)
		if s.Bank.ContainerLots[0][Blue] != 1 || s.Bank.ContainerLots[1][Red] != 2 {
			t.Fatalf("container lots %v", s.Bank.ContainerLots)
		}
		if d.Holding != (Counts{Green: 1}) || d.NumLoans != 2 {
			t.Fatal("default took the wrong containers or the loans")
		}
	}
}

// Default with nothing to seize: the interest is forgiven.
func TestRulebookDefaultNothingToSeizeForgiven(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	d := &s.Players[1]
	d.NumLoans, d.Loans, d.Cash = 2, [MaxLoans]Loan{{-1, 10}, {-1, 10}}, 1
	play(t, s, "end")
	wantPhase(t, s, PhaseTurn, 1)
	if d.Cash != 0 || s.Bank.CashLots[0] != 2 {
		t.Fatalf("paid what it could? cash %d lots %v", d.Cash, s.Bank.CashLots)
	}
}

// Rulebook, Bank Loans, Paying Interest: short of cash with one loan, a loan is forced.
func TestRulebookInterestForcesLoan(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	d := &s.Players[1]
	d.NumLoans, d.Loans, d.Cash = 1, [MaxLoans]Loan{{-1, 10}, {-1, 0}}, 0
	play(t, s, "end")
	if d.NumLoans != 2 || d.Cash != 9 {
		t.Fatalf("loans %d cash %d, want 2 and 9", d.NumLoans, d.Cash)
	}
}

// Rulebook, Bank Auction Limits: 5 players may run a cash and a container auction at once.
func TestRulebookFivePlayerDualAuctions(t *testing.T) {
	s := newTestState(t, Options{Players: 5})
	for i := 0; i < 5; i++ {
		s.Players[i].FactoryLots[1][Colour(i)] = 2
	}
	// None open: start either.
	if !legal(t, s, "bank:start:container-lot:1") || !legal(t, s, "bank:start:cash-lot:2") {
		t.Fatal("none open: both kinds should start")
	}
	play(t, s, "bank:start:container-lot:1", "$3", "end")
	// One open: raise it or start the other kind.
	if !legal(t, s, "bank:raise:container-lot") || !legal(t, s, "bank:start:cash-lot:2") ||
		legal(t, s, "bank:start:container-lot:2") {
		t.Fatal("one open: raise it or start the other kind")
	}
	play(t, s, "bank:start:cash-lot:2", "pick:factory:green:$2", "done", "end")
	// Two open: raise either, start none.
	if !legal(t, s, "bank:raise:container-lot") || !legal(t, s, "bank:raise:cash-lot") ||
		legal(t, s, "bank:start:container-lot:2") || legal(t, s, "bank:start:cash-lot:1") {
		t.Fatal("two open: raise either, start none")
	}
	// Once per turn.
	play(t, s, "bank:raise:container-lot", "$4")
	if legal(t, s, "bank:raise:cash-lot") {
		t.Fatal("Call Bank twice in a turn")
	}
	// 4 players: one auction at a time.
	s4 := newTestState(t, DefaultOptions())
	s4.Players[0].FactoryLots[1][White] = 1
	play(t, s4, "bank:start:container-lot:1", "$3", "end")
	s4.Players[1].FactoryLots[1][Green] = 1
	if legal(t, s4, "bank:start:cash-lot:1") || !legal(t, s4, "bank:raise:container-lot") {
		t.Fatal("4 players: one auction at a time")
	}
}

// Rulebook, Call Bank Action: no Call Bank in the turn the player triggers the game end.
func TestRulebookNoCallBankAfterTriggeringEnd(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	s.Supply[Green] = 0
	s.Supply[White] = 1
	if !legal(t, s, "bank:start:container-lot:1") {
		t.Fatal("Call Bank should be legal before the trigger")
	}
	play(t, s, "produce", "place:$1")
	if !s.EndTriggered {
		t.Fatal("end not triggered by the second empty colour")
	}
	if legal(t, s, "bank:start:container-lot:1") {
		t.Fatal("Call Bank after triggering the end")
	}
	// The active player finishes the turn; open auctions are won; the game is over.
	s.Auctions[ContainerLotAuction] = Auction{Active: true, Target: 0, Bidder: 2, Cash: 4}
	s.Players[2].Cash -= 4
	play(t, s, "end")
	if !s.IsTerminal() || s.Ended != EndTwoColours || s.Players[2].Holding != (Counts{White: 1, Green: 1}) {
		t.Fatalf("ended %v holding %v", s.Ended, s.Players[2].Holding)
	}
	if s.Bank.CashLots != [BankLots]int32{3, 3, 4} {
		t.Fatalf("cash lots %v", s.Bank.CashLots)
	}
	if s.CurrentPlayer() != -1 || len(s.LegalActions(nil)) != 0 {
		t.Fatal("terminal state has a decider")
	}
}

// Rulebook, Delivery Auctions: tie -> runoff -> still tied: the deliverer chooses; accept
// pays the deliverer twice the bid (the supply pays the subsidy).
func TestRulebookDeliveryTieRunoffChoice(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	s.Players[0].Ship = Counts{Red: 2, Blue: 1}
	play(t, s, "sail:island")
	wantPhase(t, s, PhaseDeliveryBid, 1)
	play(t, s, "$5")
	wantPhase(t, s, PhaseDeliveryBid, 2)
	// Bids are sealed: seat 2's view shows seat 1's bid as 0.
	var view State
	s.Redact(2, &view)
	if view.machine.Bids[1] != 0 || !view.machine.Hidden || s.Players[1].Cash != 20 {
		t.Fatal("a sealed bid leaks")
	}
	play(t, s, "loan", "$5", "$3")
	wantPhase(t, s, PhaseRunoffBid, 1)
	if legal(t, s, "$16") || !legal(t, s, "$15") {
		t.Fatal("runoff addition must fit the cash left after the bid")
	}
	play(t, s, "$2", "$2")
	wantPhase(t, s, PhaseDeliveryTie, 0)
	if legal(t, s, "seat:p4") {
		t.Fatal("seat 3 is not tied")
	}
	play(t, s, "seat:p3")
	wantPhase(t, s, PhaseDeliveryAccept, 0)
	play(t, s, "yes")
	if s.Players[2].Cash != 30-7 || s.Players[0].Cash != 20+14 || s.Players[1].Cash != 20 {
		t.Fatalf("cash %d %d %d", s.Players[0].Cash, s.Players[1].Cash, s.Players[2].Cash)
	}
	if s.Players[2].Island != (Counts{Red: 2, Blue: 1}) || s.Players[0].Ship.Total() != 0 {
		t.Fatal("cargo not delivered to the winner")
	}
	wantPhase(t, s, PhaseTurn, 1) // the turn ended at once
}

// Rulebook, Auction Buyout (base: to the Bank) and Classic (minimum bid $1, buyout to the
// supply).
func TestRulebookBuyoutAndClassicBids(t *testing.T) {
	for _, v := range []Variant{Base, Classic} {
		s := newTestState(t, Options{Players: 3, Variant: v})
		s.Players[0].Ship = Counts{White: 1}
		play(t, s, "sail:island")
		if legal(t, s, "$0") != (v == Base) {
			t.Fatalf("%v: $0 bid legal = %v", v, legal(t, s, "$0"))
		}
		play(t, s, "$4", "$1")
		wantPhase(t, s, PhaseDeliveryAccept, 0)
		before := s.CashFlow()
		play(t, s, "no")
		if s.Players[0].Cash != 16 || s.Players[0].Island != (Counts{White: 1}) || s.Players[1].Cash != 20 {
			t.Fatalf("%v: buyout cash %d island %v", v, s.Players[0].Cash, s.Players[0].Island)
		}
		after := s.CashFlow()
		if v == Classic && after.ToSupply-before.ToSupply != 4 {
			t.Fatal("classic buyout not paid to the supply")
		}
		if v == Base && s.Bank.CashLots != [BankLots]int32{3, 3, 4} {
			t.Fatalf("buyout to the Bank: lots %v", s.Bank.CashLots)
		}
	}
	// Classic: a broke bidder may bid $0.
	s := newTestState(t, Options{Players: 3, Variant: Classic})
	s.Players[0].Ship = Counts{White: 1}
	s.Players[1].Cash = 0
	play(t, s, "sail:island")
	if !legal(t, s, "$0") || legal(t, s, "$1") {
		t.Fatal("classic: broke bidder must bid $0")
	}
	if legal(t, s, "bank:start:cash-lot:1") {
		t.Fatal("no Bank in classic")
	}
	s = newTestState(t, Options{Players: 3, Variant: Classic})
	if legal(t, s, "sail:bank") || !legal(t, s, "sail:p2") {
		t.Fatal("classic: no Bank board to sail to")
	}
}
