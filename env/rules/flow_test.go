package rules

import "testing"

// Rulebook, Anchor Actions: docking at an opponent's harbor offers a free Harbor Purchase
// (zero allowed); a later Harbor Purchase action must buy at least one.
func TestRulebookAnchorHarborFreePurchase(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	s.Players[2].HarborLots[1][Red] = 2
	play(t, s, "sail:p3")
	wantPhase(t, s, PhaseBuyHarbor, 0)
	if !s.Decision().Free || !legal(t, s, "done") {
		t.Fatal("the anchor purchase may buy nothing")
	}
	play(t, s, "done")
	if s.machine.ActionsUsed != 1 {
		t.Fatal("the anchor purchase used an action")
	}
	play(t, s, "buy-harbor")
	if legal(t, s, "done") {
		t.Fatal("a Harbor Purchase action must buy at least one")
	}
	play(t, s, "pick:harbor:red:$3", "done")
	if s.Players[0].Ship != (Counts{Red: 1}) || s.Players[0].Cash != 17 || s.Players[2].Cash != 23 {
		t.Fatal("harbor purchase payments")
	}
	if legal(t, s, "sail:p1") {
		t.Fatal("sailing into one's own harbor")
	}
}

// Rulebook, Anchor Actions (Off-Shore Bank): load holding-area containers for free, up to
// the ship's free space.
func TestRulebookAnchorBankLoadsHolding(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	p := &s.Players[0]
	p.Holding = Counts{White: 2, Blue: 2}
	p.Ship = Counts{Red: 2}
	play(t, s, "sail:bank", "pick:holding:blue", "pick:holding:white", "pick:holding:white")
	wantPhase(t, s, PhaseTurn, 0) // the ship is full: loading closes itself
	if p.Ship.Total() != ShipCapacity || p.Holding != (Counts{Blue: 1}) || p.Cash != 20 {
		t.Fatalf("ship %v holding %v", p.Ship, p.Holding)
	}
}

// Rulebook, Bank Auction Details: interest is paid before auction winnings are collected, so
// won cash cannot pay this turn's interest (the player defaults instead).
func TestRulebookInterestBeforeWinnings(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	d := &s.Players[1]
	d.NumLoans, d.Loans, d.Cash = 2, [MaxLoans]Loan{{-1, 10}, {-1, 10}}, 0
	d.HarborLots[0][Green] = 1
	s.Auctions[CashLotAuction] = Auction{Active: true, Target: 2, Bidder: 1, FromFactory: Counts{Red: 1}}
	play(t, s, "end")
	wantPhase(t, s, PhaseTurn, 1)
	if d.harborCount() != 0 {
		t.Fatal("unpaid interest: the harbor container is seized")
	}
	if d.Cash != 3 || !s.machine.WonAuction {
		t.Fatalf("cash lot III won after interest: cash %d", d.Cash)
	}
}

// Rulebook, Game End, Resolving Bank Auctions: at the end every open auction is won; a
// container bid is paid to the Bank with the payer choosing colours, then the game is over.
func TestRulebookGameEndResolvesAuctions(t *testing.T) {
	s := newTestState(t, Options{Players: 5})
	s.EndTriggered = true
	s.Auctions[CashLotAuction] = Auction{Active: true, Target: 0, Bidder: 3, FromHarbor: Counts{Red: 1, Blue: 1}}
	s.Auctions[ContainerLotAuction] = Auction{Active: true, Target: 1, Bidder: 2, Cash: 5}
	s.Players[2].Cash = 15
	s.Players[3].Warehouses = 2
	play(t, s, "end")
	wantPhase(t, s, PhaseBankPayColour, 3)
	// Seat 2's cash bid was paid first (kind order), skipping cash lot I (token): $3 to II,
	// $2 to III; then seat 3 took cash lot I and now pays its containers.
	if s.Bank.CashLots != [BankLots]int32{0, 5, 5} || s.Players[2].Holding != (Counts{Red: 1}) {
		t.Fatalf("cash lots %v holding %v", s.Bank.CashLots, s.Players[2].Holding)
	}
	play(t, s, "colour:blue")
	if !s.IsTerminal() || s.Ended != EndTwoColours || s.Players[3].Cash != 21 {
		t.Fatalf("ended %v cash %d", s.Ended, s.Players[3].Cash)
	}
	// Lot II was emptied by seat 2's win and its token returned, so it takes the red.
	if s.Bank.ContainerLots[0][Blue] != 1 || s.Bank.ContainerLots[1] != (Counts{Red: 1}) || s.Bank.ContainerLots[2] != (Counts{}) {
		t.Fatalf("container lots %v", s.Bank.ContainerLots)
	}
}

// Rulebook, Playing the Game: two different actions or the same twice; Produce and Call Bank
// once per turn; free actions after both actions.
func TestRulebookTwoActionsPerTurn(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	play(t, s, "build:warehouse", "build:warehouse")
	if legal(t, s, "build:warehouse") || legal(t, s, "sail:bank") || !legal(t, s, "loan") || !legal(t, s, "end") {
		t.Fatal("after two actions only free actions and end remain")
	}
	if s.Players[0].Warehouses != 3 || s.Players[0].Cash != 20-4-5 {
		t.Fatal("warehouse costs $4 then $5, paid to the supply")
	}
	play(t, s, "loan", "loan")
	if legal(t, s, "loan") || !legal(t, s, "repay:1") || legal(t, s, "repay:0") {
		t.Fatal("two loans at most; identical loans offer one repay id")
	}
	play(t, s, "repay:1", "loan", "repay:1")
	if legal(t, s, "repay:0") || s.Players[0].NumLoans != 1 {
		t.Fatal("at most two repayments per turn")
	}
}
