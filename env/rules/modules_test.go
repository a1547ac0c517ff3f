package rules

import "testing"

// More Containers, Truck Companies, Freight Fees: $1 per Factory Purchase to the buyer's
// local company: on its pile while independent, to its owner, nothing when self-owned.
func TestMoreContainersFreightFee(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Trucks})
	s.Players[1].FactoryLots[0][Green] = 3
	s.Players[0].Warehouses = 5
	play(t, s, "buy-factory:p2", "pick:factory:green:$1", "done", "place:$2")
	if s.Players[0].Cash != 18 || s.Companies[0].Pile != 1 || s.Players[1].Cash != 21 {
		t.Fatalf("cash %d pile %d seller %d", s.Players[0].Cash, s.Companies[0].Pile, s.Players[1].Cash)
	}
	s.Companies[0] = Company{Owner: 2}
	play(t, s, "buy-factory:p2", "pick:factory:green:$1", "done", "place:$2", "done")
	if s.Players[2].Cash != 21 {
		t.Fatal("fee not paid to the owner")
	}
	s.machine.ActionsUsed = 0
	s.Companies[0] = Company{Owner: 0}
	play(t, s, "buy-factory:p2", "pick:factory:green:$1")
	if s.Players[0].Cash != 20-2-2-1 {
		t.Fatalf("self-owned company charged a fee: cash %d", s.Players[0].Cash)
	}
}

// More Containers, Truck Companies, Auction Example: Orange starts an auction on its own
// company with 1 container; Purple must outbid in containers; Purple wins, pays the Bank,
// takes the company's pile and places a truck.
func TestMoreContainersTruckAuctionExample(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Trucks})
	orange, purple := 0, 1
	s.Companies[orange].Pile = 2
	s.Players[orange].FactoryLots[1][White] = 1
	play(t, s, "truck:start:p1:containers", "pick:factory:white:$2", "end")
	s.Players[purple].FactoryLots[0][Green] = 2
	if !legal(t, s, "bank:raise:truck") || legal(t, s, "truck:start:p1:cash") {
		t.Fatal("purple may only raise the open truck auction")
	}
	play(t, s, "bank:raise:truck", "place:$3", "pick:factory:green:$1")
	if legal(t, s, "done") {
		t.Fatal("1 container does not beat 1")
	}
	play(t, s, "pick:factory:green:$1", "end", "end", "end", "end")
	wantPhase(t, s, PhaseTurn, purple)
	if s.Companies[orange].Owner != int8(purple) || s.Players[purple].Trucks != 1 || s.Players[purple].Cash != 22 {
		t.Fatalf("company %+v trucks %d cash %d", s.Companies[orange], s.Players[purple].Trucks, s.Players[purple].Cash)
	}
	if s.Bank.ContainerLots[0][Green] != 2 || s.Bank.ContainerLots[1][Green] != 1 {
		t.Fatalf("bid not paid to the Bank: %v", s.Bank.ContainerLots)
	}
	if s.Players[orange].FactoryLots[2][White] != 1 {
		t.Fatal("orange's container not returned")
	}
	s.Players[purple].Trucks = TrucksPerPlayer
	s.machine.CalledBank = false
	s.machine.WonAuction = false
	if legal(t, s, "truck:start:p3:cash") {
		t.Fatal("bid on a company without a truck left")
	}
}

// More Containers, Luxury Containers, Acquire Luxury: two containers of one district back to
// the supply, a gold in their place, once per turn; a gold counts 1.5 in a Bank bid.
func TestMoreContainersAcquireLuxury(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	p := &s.Players[0]
	p.FactoryLots[0][White] = 1
	p.FactoryLots[3][White] = 1
	supply := s.Supply
	play(t, s, "luxury:factory")
	wantPhase(t, s, PhaseLuxuryPick, 0)
	if legal(t, s, "pick:factory:white:$4") {
		t.Fatal("first pick must leave a later container (canonical order)")
	}
	play(t, s, "pick:factory:white:$1", "pick:factory:white:$4", "place:$3")
	wantPhase(t, s, PhaseTurn, 0)
	if p.FactoryLots[2][Gold] != 1 || p.factoryCount() != 1 || s.Supply[White] != supply[White]+2 || s.Supply[Gold] != supply[Gold]-1 {
		t.Fatalf("lots %v supply %v", p.FactoryLots, s.Supply)
	}
	if legal(t, s, "luxury:factory") || s.machine.ActionsUsed != 0 {
		t.Fatal("luxury twice, or it used an action")
	}
	// Outbid 2 normal containers with 1 normal + 1 gold.
	s.Auctions[CashLotAuction] = Auction{Active: true, Target: 0, Bidder: 1, FromFactory: Counts{Green: 2}}
	p.FactoryLots[0][Red] = 1
	play(t, s, "bank:raise:cash-lot", "place:$1", "place:$1", "pick:factory:gold:$3")
	if legal(t, s, "done") {
		t.Fatal("1 gold beats 2 normal")
	}
	play(t, s, "pick:factory:red:$1")
	if a := s.Auctions[CashLotAuction]; a.Bidder != 0 || a.FromFactory != (Counts{Red: 1, Gold: 1}) {
		t.Fatalf("auction %+v", a)
	}
}

// More Containers, Luxury, Game End: an empty gold supply counts as one of the two colours.
func TestMoreContainersGoldCountsForEnd(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	s.Supply[Gold] = 1
	s.Supply[White] = 1
	s.Supply[Green] = 0
	p := &s.Players[0]
	p.FactoryLots[0][Red] = 2
	play(t, s, "luxury:factory", "pick:factory:red:$1", "pick:factory:red:$1", "place:$2")
	if !s.EndTriggered {
		t.Fatal("gold and green empty: the end is triggered")
	}
}

// More Containers, Player Loans: offers go round the opponents; one offer is accepted or
// rejected; a rejection blocks every loan for the rest of the active player's turn.
func TestMoreContainersPlayerLoanSingleOffer(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	s.Players[2].Cash = 5 // cannot offer
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 1)
	play(t, s, "yes")
	wantPhase(t, s, PhaseLoanAccept, 0)
	play(t, s, "no")
	wantPhase(t, s, PhaseTurn, 0)
	if legal(t, s, "loan") || s.Players[0].NumLoans != 0 {
		t.Fatal("loans after rejecting an offer")
	}
	play(t, s, "end", "end", "end")
	wantPhase(t, s, PhaseTurn, 0)
	play(t, s, "loan", "yes", "yes")
	p := &s.Players[0]
	if p.NumLoans != 1 || p.Loans[0] != (Loan{Lender: 1, Amount: 10}) || p.Cash != 30 || s.Players[1].Cash != 10 || s.Players[1].LoanCards != 2 {
		t.Fatalf("loan %+v cash %d lender cash %d", p.Loans[0], p.Cash, s.Players[1].Cash)
	}
	// Interest goes to the lender; repaying returns the card.
	play(t, s, "end", "end", "end")
	if p.Cash != 29 || s.Players[1].Cash != 11 {
		t.Fatalf("interest: %d %d", p.Cash, s.Players[1].Cash)
	}
	play(t, s, "repay:0")
	if s.Players[1].Cash != 21 || s.Players[1].LoanCards != 3 || p.NumLoans != 0 {
		t.Fatal("repayment")
	}
}

// More Containers, Player Loans, Competing Offers: sealed incentive bids, the borrower breaks
// ties, the loan (and the debt) includes the incentive; bids stay hidden until revealed.
func TestMoreContainersIncentiveAuction(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	play(t, s, "loan", "yes", "yes", "yes")
	wantPhase(t, s, PhaseIncentiveBid, 1)
	if legal(t, s, "$11") || !legal(t, s, "$10") {
		t.Fatal("incentive above cash less $10")
	}
	play(t, s, "$3")
	var v State
	s.Redact(2, &v)
	if v.machine.Incentives[1] != 0 {
		t.Fatal("incentive bid leaks")
	}
	play(t, s, "$3", "$1")
	wantPhase(t, s, PhaseLoanTie, 0)
	play(t, s, "seat:p3", "yes")
	p := &s.Players[0]
	if p.Loans[0] != (Loan{Lender: 2, Amount: 13}) || p.Cash != 33 || s.Players[2].Cash != 7 {
		t.Fatalf("loan %+v cash %d", p.Loans[0], p.Cash)
	}
}

// Cash committed to an unresolved delivery bid is not in hand: it cannot fund a player loan.
func TestMoreContainersLenderCashExcludesDeliveryBid(t *testing.T) {
	s := newTestState(t, Options{Players: 3, Modules: PlayerLoans})
	s.Players[0].Ship = Counts{White: 1}
	s.Players[0].Cash = 0
	play(t, s, "sail:island", "$5", "$15")
	wantPhase(t, s, PhaseDeliveryAccept, 0)
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 1) // seat 2 has $20 but $15 of it is bid
	play(t, s, "yes", "yes")
	if s.Players[0].Cash != 10 || s.Players[1].Cash != 10 {
		t.Fatalf("cash %d %d", s.Players[0].Cash, s.Players[1].Cash)
	}
	wantPhase(t, s, PhaseDeliveryAccept, 0)
	play(t, s, "yes")
	if s.Players[2].Cash != 5 || s.Players[0].Cash != 40 {
		t.Fatalf("cash %d %d", s.Players[2].Cash, s.Players[0].Cash)
	}
}

// More Containers, Player Loans, Default: with a Bank and a player loan unpaid, the lender
// resolves first (seizes any container into its scoring area, or forgives), then the Bank.
func TestMoreContainersPlayerLoanDefault(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	d := &s.Players[1]
	d.NumLoans = 2
	d.Loans = [MaxLoans]Loan{{-1, 10}, {3, 10}}
	d.Cash = 0
	d.FactoryLots[0][Green] = 1
	d.Ship = Counts{Red: 1}
	play(t, s, "end")
	wantPhase(t, s, PhaseLenderChoice, 3)
	play(t, s, "yes", "pick:factory:green:$1")
	if s.Players[3].Island != (Counts{Green: 1}) {
		t.Fatal("lender's seizure not in its scoring area")
	}
	// The Bank then seizes the ship's red (automatic), paid to lot I.
	wantPhase(t, s, PhaseTurn, 1)
	if d.Ship.Total() != 0 || s.Bank.ContainerLots[0][Red] != 1 {
		t.Fatalf("bank seizure: ship %v lots %v", d.Ship, s.Bank.ContainerLots)
	}
	// Short by one with different lenders: the defaulter chooses which loan to pay.
	play(t, s, "end", "end", "end")
	d.Cash = 1
	d.Ship = Counts{Blue: 1}
	play(t, s, "end")
	wantPhase(t, s, PhaseInterestChoice, 1)
	play(t, s, "pay-interest:1")
	if s.Players[3].Cash != 21 || d.Ship.Total() != 0 {
		t.Fatalf("lender cash %d, ship %v", s.Players[3].Cash, d.Ship)
	}
}
