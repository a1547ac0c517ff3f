package rules

import "testing"

// Named examples from the More Containers module text (docs/RULES.md section 9,
// /work/shared/rules/CLARIFICATIONS.md "More Containers rulings"), each test proving one rule.
// The base-game examples are in rulebook_base_test.go.

// More Containers, Luxury Containers, Bank bids: a gold container counts 1.5, so 1 normal +
// 1 gold (3 halves + 2 = 5) strictly beats 2 normal (4), and 2 normal do not beat it back;
// 3 normal (6) do.
func TestMoreContainersLuxuryNormalPlusGoldOutbidsTwoNormalNotTheReverse(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	a, b := 0, 1
	s.Players[a].Factories = 1<<White | 1<<Blue // limit 4
	s.Players[a].FactoryLots[0][White] = 2
	play(t, s, "bank:start:cash-lot:1", "pick:factory:white:$1", "pick:factory:white:$1")
	wantPhase(t, s, PhaseTurn, a)
	play(t, s, "end")
	wantPhase(t, s, PhaseTurn, b)
	s.Players[b].Factories = 1<<Green | 1<<Red // limit 4
	s.Players[b].FactoryLots[0][Green] = 1
	s.Players[b].FactoryLots[1][Gold] = 1
	s.Players[b].FactoryLots[2][Red] = 1
	play(t, s, "bank:raise:cash-lot")
	wantPhase(t, s, PhaseReturnBid, a)
	play(t, s, "place:$1", "place:$1")
	wantPhase(t, s, PhaseBankContainerBid, b)
	play(t, s, "pick:factory:gold:$2")
	if legal(t, s, "done") {
		t.Fatal("1 gold (1.5) beats 2 normal containers")
	}
	play(t, s, "pick:factory:green:$1")
	if !legal(t, s, "done") {
		t.Fatal("1 normal + 1 gold (2.5) does not beat 2 normal (2)")
	}
	play(t, s, "done")
	if au := s.Auctions[CashLotAuction]; int(au.Bidder) != b || au.FromFactory != (Counts{Green: 1, Gold: 1}) {
		t.Fatalf("auction %+v", au)
	}
	play(t, s, "end", "end", "end")
	wantPhase(t, s, PhaseTurn, a)
	s.Players[a].FactoryLots[3][Blue] = 1
	play(t, s, "bank:raise:cash-lot")
	wantPhase(t, s, PhaseReturnBid, b)
	play(t, s, "place:$1", "place:$2")
	wantPhase(t, s, PhaseBankContainerBid, a)
	play(t, s, "pick:factory:white:$1", "pick:factory:white:$1")
	if legal(t, s, "done") {
		t.Fatal("2 normal (2) beat 1 normal + 1 gold (2.5)")
	}
	play(t, s, "pick:factory:blue:$4")
	wantPhase(t, s, PhaseTurn, a)
	if au := s.Auctions[CashLotAuction]; int(au.Bidder) != a || au.FromFactory != (Counts{White: 2, Blue: 1}) {
		t.Fatalf("3 normal (3) should beat 2.5: auction %+v", au)
	}
}

// More Containers, Truck Companies, Freight Fees: $1 per Factory Purchase goes to the
// buyer's local company: onto its pile while it is independent, to an opponent owner's hand,
// and nowhere when the buyer owns it. Every balance is checked, not only the buyer's.
func TestMoreContainersFreightFeeThreeCases(t *testing.T) {
	for _, tc := range []struct {
		name              string
		owner             int8
		wantPile          int32
		wantBuyer         int32
		wantOwnerReceives bool
	}{
		{"independent-company-pile", -1, 1, 20 - 1 - 1, false},
		{"opponent-owner", 2, 0, 20 - 1 - 1, true},
		{"self-owned-nobody", 0, 0, 20 - 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestState(t, Options{Players: 4, Modules: Trucks})
			s.Companies[0] = Company{Owner: tc.owner}
			s.Players[1].FactoryLots[0][Green] = 1
			s.Players[0].Warehouses = 3
			before := s.CashFlow()
			play(t, s, "buy-factory:p2", "pick:factory:green:$1")
			if s.Players[0].Cash != tc.wantBuyer || s.Players[1].Cash != 21 || s.Companies[0].Pile != tc.wantPile {
				t.Fatalf("buyer $%d seller $%d pile $%d", s.Players[0].Cash, s.Players[1].Cash, s.Companies[0].Pile)
			}
			ownerCash := s.Players[2].Cash
			if tc.wantOwnerReceives != (ownerCash == 21) || (!tc.wantOwnerReceives && ownerCash != 20) {
				t.Fatalf("seat 2 (owner %d) cash $%d", tc.owner, ownerCash)
			}
			if after := s.CashFlow(); after.InPlay != before.InPlay || after.FromSupply != before.FromSupply || after.ToSupply != before.ToSupply {
				t.Fatalf("freight fee moved cash to or from the supply: %+v -> %+v", before, after)
			}
		})
	}
}

// More Containers, Truck Companies: an auction started with a container bid stays in
// containers (a raise offers no cash amounts), the outbid bid is returned, and the company is
// won at the start of the high bidder's next turn: the containers go to the Bank container
// lots, the company's pile to the winner's hand, a truck onto the company.
func TestMoreContainersTruckAuctionWonInContainersAtNextTurnStart(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Trucks})
	a, b := 0, 1
	s.Companies[2].Pile = 3
	s.Players[a].FactoryLots[0][White] = 1
	play(t, s, "truck:start:p3:containers")
	wantPhase(t, s, PhaseBankContainerBid, a)
	if legal(t, s, "$1") {
		t.Fatal("a container bid offers cash amounts")
	}
	play(t, s, "pick:factory:white:$1")
	wantPhase(t, s, PhaseTurn, a)
	play(t, s, "end")
	s.Players[b].FactoryLots[0][Green] = 2
	play(t, s, "bank:raise:truck", "place:$1")
	wantPhase(t, s, PhaseBankContainerBid, b)
	for _, id := range s.LegalActions(nil) {
		if s.ActionToMove(id).Kind == Amount {
			t.Fatalf("cash raise offered on a container auction: %s", s.ActionToMove(id))
		}
	}
	play(t, s, "pick:factory:green:$1")
	if legal(t, s, "done") {
		t.Fatal("1 container beats 1")
	}
	play(t, s, "pick:factory:green:$1")
	wantPhase(t, s, PhaseTurn, b)
	if s.Companies[2].Owner != -1 || s.Players[b].Trucks != 0 {
		t.Fatal("company won before the bidder's next turn")
	}
	lotsBefore := s.Bank.ContainerLots
	play(t, s, "end", "end", "end", "end")
	wantPhase(t, s, PhaseTurn, b)
	if s.Companies[2] != (Company{Owner: int8(b), Pile: 0}) || s.Players[b].Trucks != 1 || s.Players[b].Cash != 23 {
		t.Fatalf("company %+v trucks %d cash $%d", s.Companies[2], s.Players[b].Trucks, s.Players[b].Cash)
	}
	if s.Bank.ContainerLots[0][Green] != lotsBefore[0][Green]+1 || s.Bank.ContainerLots[1][Green] != lotsBefore[1][Green]+1 {
		t.Fatalf("bid not paid to the Bank container lots: %v (before %v)", s.Bank.ContainerLots, lotsBefore)
	}
	if s.Players[a].FactoryLots[0][White] != 1 {
		t.Fatal("the outbid container was not returned")
	}
	if s.Auctions[TruckAuction].Active {
		t.Fatal("truck auction still open")
	}
}

// More Containers, Player Loans, Competing Offers and Incentives: two opponents offer (one
// declines), both bid sealed incentives, the higher wins without a tie, the borrower accepts
// and receives $10 + incentive from the lender; interest goes to the lender, and repaying
// pays the lender the full $10 + incentive and returns the loan card.
func TestMoreContainersCompetingPlayerLoanOffersIncentiveWinsAndIsRepaid(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	borrower, low, high := 0, 1, 3
	play(t, s, "loan")
	wantPhase(t, s, PhaseLoanOffer, 1)
	play(t, s, "yes") // seat 1 offers
	wantPhase(t, s, PhaseLoanOffer, 2)
	play(t, s, "no") // seat 2 declines
	wantPhase(t, s, PhaseLoanOffer, 3)
	play(t, s, "yes") // seat 3 offers
	wantPhase(t, s, PhaseIncentiveBid, low)
	play(t, s, "$2")
	var v State
	s.Redact(high, &v)
	if v.machine.Incentives[low] != 0 {
		t.Fatal("the other lender sees a sealed incentive")
	}
	wantPhase(t, s, PhaseIncentiveBid, high)
	play(t, s, "$5")
	wantPhase(t, s, PhaseLoanAccept, borrower)
	play(t, s, "yes")
	p := &s.Players[borrower]
	if p.NumLoans != 1 || p.Loans[0] != (Loan{Lender: int8(high), Amount: 15}) {
		t.Fatalf("loans %d %+v", p.NumLoans, p.Loans)
	}
	if p.Cash != 35 || s.Players[high].Cash != 5 || s.Players[low].Cash != 20 || s.Players[high].LoanCards != PlayerLoanCards-1 {
		t.Fatalf("cash borrower $%d winner $%d loser $%d cards %d", p.Cash, s.Players[high].Cash, s.Players[low].Cash, s.Players[high].LoanCards)
	}
	play(t, s, "end", "end", "end", "end")
	wantPhase(t, s, PhaseTurn, borrower)
	if p.Cash != 34 || s.Players[high].Cash != 6 {
		t.Fatalf("interest: borrower $%d lender $%d", p.Cash, s.Players[high].Cash)
	}
	play(t, s, "repay:0")
	if p.NumLoans != 0 || p.Cash != 19 || s.Players[high].Cash != 21 || s.Players[high].LoanCards != PlayerLoanCards {
		t.Fatalf("repayment: loans %d borrower $%d lender $%d cards %d", p.NumLoans, p.Cash, s.Players[high].Cash, s.Players[high].LoanCards)
	}
}

// More Containers, Player Loans, Interest and Repayment / Repaying Incentives: a player loan
// still open at the game end costs its amount plus $1 (Blue owes Orange $14 on a $13 loan).
// A borrower who can pay it in full pays it all; one who cannot pays what it has scored and
// the lender collects the rest from the supply, so the lender always receives the full $14
// and the borrower's total does not drop below $0 for it. A Bank loan still costs $11
// (after the player loans) and nobody collects it.
func TestMoreContainersUnpaidPlayerLoanAtGameEndLenderCollectsShortfallFromSupply(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	p := &s.Players[0]
	p.Island, p.Ship, p.Holding, p.HarborLots = Counts{}, Counts{}, Counts{}, [HarborPrices]Counts{}
	p.NumLoans = 1
	p.Loans[0] = Loan{Lender: 2, Amount: 13}
	s.Players[2].LoanCards--
	p.Cash = 20
	sc := s.Scores()
	if sc[0].Loans != -14 || sc[0].Total != 6 || sc[2].Loans != 14 {
		t.Fatalf("affordable: borrower loans %d total %d, lender %d; want -14, 6, +14", sc[0].Loans, sc[0].Total, sc[2].Loans)
	}
	p.Cash = 3
	sc = s.Scores()
	if sc[0].Loans != -3 || sc[0].Total != 0 || sc[2].Loans != 14 {
		t.Fatalf("short: borrower loans %d total %d, lender %d; want -3, 0, +14", sc[0].Loans, sc[0].Total, sc[2].Loans)
	}
	if sc[2].Total != sc[2].Cash+sc[2].Island+sc[2].Leftover+14 {
		t.Fatalf("lender total %d does not include the full $14", sc[2].Total)
	}
	p.NumLoans = 2
	p.Loans[1] = Loan{Lender: -1, Amount: LoanAmount}
	sc = s.Scores()
	if sc[0].Loans != -14 || sc[0].Total != -11 || sc[2].Loans != 14 || sc[1].Loans != 0 || sc[3].Loans != 0 {
		t.Fatalf("loans at scoring %d (total %d) %d %d %d", sc[0].Loans, sc[0].Total, sc[1].Loans, sc[2].Loans, sc[3].Loans)
	}
}

// More Containers, Player Loans, Defaulting on Multiple Loans: with a Bank loan and a player
// loan unpaid, the lender resolves first; a lender who forgives takes nothing (the loan
// stays), then the Bank seizes by its usual order.
func TestMoreContainersDefaultLenderForgivesBeforeBankSeizes(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	d := &s.Players[1]
	d.NumLoans = 2
	d.Loans = [MaxLoans]Loan{{-1, 10}, {3, 10}}
	s.Players[3].LoanCards--
	d.Cash = 0
	d.Ship = Counts{Red: 1}
	play(t, s, "end")
	wantPhase(t, s, PhaseLenderChoice, 3)
	if d.Ship.Total() != 1 {
		t.Fatal("the Bank seized before the lender chose")
	}
	play(t, s, "no")
	wantPhase(t, s, PhaseTurn, 1)
	if s.Players[3].Island.Total() != 0 || s.Players[3].Cash != 20 {
		t.Fatal("a forgiving lender got something")
	}
	if d.Ship.Total() != 0 || s.Bank.ContainerLots[0][Red] != 1 {
		t.Fatalf("the Bank did not seize after the lender: ship %v lots %v", d.Ship, s.Bank.ContainerLots)
	}
	if d.NumLoans != 2 {
		t.Fatalf("default removed a loan: %d left", d.NumLoans)
	}
}

// More Containers, Player Loans, Defaulting on Multiple Loans: two players' loans defaulted at
// once are resolved one lender at a time clockwise from the defaulter's left (seat 1
// defaults: seat 3 before seat 0, whatever the loan slots' order), each lender seizing into
// its own scoring area.
func TestMoreContainersTwoLendersResolveClockwiseFromDefaultersLeft(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	d := &s.Players[1]
	d.NumLoans = 2
	d.Loans = [MaxLoans]Loan{{0, 10}, {3, 12}}
	s.Players[0].LoanCards--
	s.Players[3].LoanCards--
	d.Cash = 0
	d.Ship = Counts{Red: 1, Blue: 1}
	play(t, s, "end")
	wantPhase(t, s, PhaseLenderChoice, 3)
	play(t, s, "yes")
	wantPhase(t, s, PhaseSeize, 3)
	play(t, s, "pick:ship:red")
	wantPhase(t, s, PhaseLenderChoice, 0)
	if s.Players[3].Island != (Counts{Red: 1}) || d.Ship != (Counts{Blue: 1}) {
		t.Fatalf("first lender (seat 3): island %v, ship %v", s.Players[3].Island, d.Ship)
	}
	play(t, s, "yes", "pick:ship:blue")
	wantPhase(t, s, PhaseTurn, 1)
	if s.Players[0].Island != (Counts{Blue: 1}) || d.Ship.Total() != 0 {
		t.Fatalf("second lender (seat 0): island %v, ship %v", s.Players[0].Island, d.Ship)
	}
}

// More Containers rulings, Player Loans: a rejected offer blocks every loan (Bank or player)
// for the rest of the active player's turn; when interest forced the request, the interest
// then goes unpaid and the default follows.
func TestMoreContainersRejectedOfferBlocksLoansAndInterestDefaults(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	d := &s.Players[1]
	d.NumLoans = 1
	d.Loans[0] = Loan{Lender: -1, Amount: LoanAmount}
	d.Cash = 0
	d.Ship = Counts{Red: 1}
	play(t, s, "end") // seat 1's turn starts: $1 interest, no cash: a loan is requested
	wantPhase(t, s, PhaseLoanOffer, 2)
	play(t, s, "yes", "no", "no")
	wantPhase(t, s, PhaseLoanAccept, 1)
	play(t, s, "no")
	wantPhase(t, s, PhaseTurn, 1)
	if d.NumLoans != 1 || d.Cash != 0 || s.Players[2].Cash != 20 {
		t.Fatalf("a loan was taken after the rejection: loans %d cash $%d", d.NumLoans, d.Cash)
	}
	if d.Ship.Total() != 0 || s.Bank.ContainerLots[0][Red] != 1 {
		t.Fatalf("unpaid interest did not default: ship %v lots %v", d.Ship, s.Bank.ContainerLots)
	}
	if legal(t, s, "loan") {
		t.Fatal("a loan is offered after a rejected offer this turn")
	}
	// The block ends with the turn: at seat 1's next turn start the unpaid interest asks
	// for a loan again, and an accepted offer now goes through (the $1 interest is the Bank
	// loan's: only loans held when the turn began are due).
	play(t, s, "end", "end", "end", "end")
	wantPhase(t, s, PhaseLoanOffer, 2)
	play(t, s, "yes", "no", "no", "yes")
	if d.NumLoans != 2 || d.Loans[1] != (Loan{Lender: 2, Amount: LoanAmount}) || d.Cash != 9 || s.Players[2].Cash != 10 {
		t.Fatalf("the loan block outlived the turn: loans %d %+v cash $%d lender $%d", d.NumLoans, d.Loans, d.Cash, s.Players[2].Cash)
	}
}

// More Containers, Luxury Containers: Acquire Luxury is a free action between actions (never
// inside one), once per turn; an empty gold supply is one of the two colours, and when the
// second colour runs out the game ends that turn even if a colour is refilled later in it.
func TestMoreContainersAcquireLuxuryBetweenActionsAndSecondEmptyColourEndsTurn(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Luxury})
	p := &s.Players[0]
	p.FactoryLots[0][White] = 1
	s.Supply[White] = 1
	s.Supply[Green] = 0
	s.Supply[Gold] = 3
	play(t, s, "produce")
	wantPhase(t, s, PhasePlace, 0)
	if legal(t, s, "luxury:factory") {
		t.Fatal("Acquire Luxury in the middle of an action")
	}
	play(t, s, "place:$2")
	wantPhase(t, s, PhaseRearrange, 0)
	if legal(t, s, "luxury:factory") {
		t.Fatal("Acquire Luxury in the middle of an action (rearranging)")
	}
	if !s.EndTriggered {
		t.Fatal("white and green empty: the end is triggered")
	}
	play(t, s, "done")
	wantPhase(t, s, PhaseTurn, 0)
	play(t, s, "luxury:factory", "pick:factory:white:$1", "pick:factory:white:$2", "place:$1")
	wantPhase(t, s, PhaseTurn, 0)
	if s.Supply[White] != 2 || s.Supply[Gold] != 2 || p.FactoryLots[0][Gold] != 1 {
		t.Fatalf("supply %v lots %v", s.Supply, p.FactoryLots)
	}
	if legal(t, s, "luxury:factory") {
		t.Fatal("Acquire Luxury twice in a turn")
	}
	if !s.EndTriggered {
		t.Fatal("refilling white un-triggered the end")
	}
	play(t, s, "end")
	if !s.IsTerminal() {
		t.Fatalf("the game did not end with the turn: phase %s", s.machine.Phase)
	}
}

// More Containers, Truck Company Auctions: company auctions follow the Bank-lot auction
// rules, under which nothing is added to a lot while it is auctioned. A freight fee owed to
// an independent company that is being auctioned therefore does not go on its pile (the
// winner takes the pile as it stood) but to the supply; once the auction is over (here:
// another company's), fees feed the pile again.
func TestMoreContainersFreightFeeDuringCompanyAuctionGoesToSupply(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: Trucks})
	s.Companies[0] = Company{Owner: -1, Pile: 2}
	s.Auctions[TruckAuction] = Auction{Active: true, Target: 0, Bidder: 3, Cash: 2}
	s.Players[3].Cash -= 2
	s.Players[1].FactoryLots[0][Green] = 1
	s.Players[0].Warehouses = 3
	before := s.CashFlow()
	play(t, s, "buy-factory:p2", "pick:factory:green:$1")
	if s.Companies[0].Pile != 2 || s.Players[0].Cash != 18 {
		t.Fatalf("pile $%d buyer $%d, want the pile unchanged at $2 and the buyer at $18", s.Companies[0].Pile, s.Players[0].Cash)
	}
	if after := s.CashFlow(); after.ToSupply != before.ToSupply+1 || after.InPlay != before.InPlay-1 {
		t.Fatalf("the fee did not go to the supply: %+v -> %+v", before, after)
	}
	// The auction of another company: seat 0's own pile takes the fee.
	s2 := newTestState(t, Options{Players: 4, Modules: Trucks})
	s2.Companies[0] = Company{Owner: -1}
	s2.Auctions[TruckAuction] = Auction{Active: true, Target: 2, Bidder: 3, Cash: 2}
	s2.Players[3].Cash -= 2
	s2.Players[1].FactoryLots[0][Green] = 1
	s2.Players[0].Warehouses = 3
	play(t, s2, "buy-factory:p2", "pick:factory:green:$1")
	if s2.Companies[0].Pile != 1 {
		t.Fatalf("pile $%d, want $1", s2.Companies[0].Pile)
	}
}
