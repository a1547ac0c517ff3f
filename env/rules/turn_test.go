package rules

import (
	"slices"
	"testing"
)

// Tests of the turn menu, Bank loans and interest (docs/RULES.md: Turn, Build, Sail, Bank
// Loans; Rulebook, Bank Loans and Default) at the edges of turn.go,
// loans.go and state.go (the mutation records in docs/results/ name the bug each one catches).

// Building costs exactly what the cost table says (Rulebook, Build a Factory / Warehouse):
// a player with exactly that much cash may build, a dollar less may not.
func TestBuildingWithExactlyTheCostInHand(t *testing.T) {
	s := newTestState(t, DefaultOptions()) // seat 0: one factory (white), one warehouse
	s.Players[0].Cash = int32(FactoryCost[2])
	if !legal(t, s, "build:factory:green") {
		t.Fatalf("second factory refused with exactly $%d", FactoryCost[2])
	}
	s.Players[0].Cash--
	if legal(t, s, "build:factory:green") {
		t.Fatal("second factory built a dollar short")
	}
	s.Players[0].Cash = int32(WarehouseCost[2])
	if !legal(t, s, "build:warehouse") {
		t.Fatalf("second warehouse refused with exactly $%d", WarehouseCost[2])
	}
	play(t, s, "build:warehouse")
	if s.Players[0].Cash != 0 || s.Players[0].Warehouses != 2 {
		t.Fatalf("cash %d warehouses %d", s.Players[0].Cash, s.Players[0].Warehouses)
	}
}

// Sailing to the Bank offers loading the holding area only when there is something to load
// and room for it (a ship holds five containers, Rulebook, Ships): with an empty holding area
// or a full ship the turn menu returns at once.
func TestSailingToTheBankOffersLoadingOnlyWithCargoAndRoom(t *testing.T) {
	s0 := newTestState(t, DefaultOptions())
	play(t, s0, "sail:bank")
	wantPhase(t, s0, PhaseTurn, 0)
	s := newTestState(t, DefaultOptions())
	p := &s.Players[0]
	p.Ship = Counts{Red: ShipCapacity}
	p.Holding = Counts{Blue: 1}
	play(t, s, "sail:bank")
	wantPhase(t, s, PhaseTurn, 0)
	// One free place: the load is offered.
	s2 := newTestState(t, DefaultOptions())
	s2.Players[0].Ship = Counts{Red: ShipCapacity - 1}
	s2.Players[0].Holding = Counts{Blue: 1}
	play(t, s2, "sail:bank")
	wantPhase(t, s2, PhaseLoadBank, 0)
}

// A player may repay a loan with exactly its amount in hand (Rulebook, Bank Loans).
func TestRepayingALoanWithExactlyItsAmountInHand(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	p := &s.Players[0]
	p.NumLoans = 1
	p.Loans[0] = Loan{Lender: -1, Amount: LoanAmount}
	p.Cash = LoanAmount
	play(t, s, "repay:0")
	if p.Cash != 0 || p.NumLoans != 0 {
		t.Fatalf("cash %d loans %d", p.Cash, p.NumLoans)
	}
	p.NumLoans = 1
	p.Loans[0] = Loan{Lender: -1, Amount: LoanAmount}
	p.Cash = LoanAmount - 1
	if legal(t, s, "repay:0") {
		t.Fatal("repaid a dollar short")
	}
}

// Interest is $1 per loan at the start of the turn (Rulebook, Bank Loans): a player with
// exactly the interest in hand pays it and takes no new loan.
func TestInterestWithExactlyTheCashDueTakesNoLoan(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	p := &s.Players[1]
	p.NumLoans = 1
	p.Loans[0] = Loan{Lender: -1, Amount: LoanAmount}
	p.Cash = 1
	play(t, s, "end")
	wantPhase(t, s, PhaseTurn, 1)
	if p.Cash != 0 || p.NumLoans != 1 {
		t.Fatalf("after interest: cash %d, %d loans (want $0, 1 loan)", p.Cash, p.NumLoans)
	}
}

// Short by a dollar with two loans from different lenders, the defaulter chooses which to
// pay (More Containers, Player Loans; CLARIFICATIONS, "More Containers rulings"): paying the
// Bank loan leaves the player loan unpaid, so its lender decides first whether to seize.
func TestInterestChoiceLeavesTheOtherLoanUnpaidForItsLender(t *testing.T) {
	s := newTestState(t, Options{Players: 4, Modules: PlayerLoans})
	d := &s.Players[1]
	d.NumLoans = 2
	d.Loans = [MaxLoans]Loan{{Lender: 2, Amount: 10}, {Lender: -1, Amount: 10}}
	d.Cash = 1
	d.FactoryLots[0][Green] = 1
	play(t, s, "end")
	wantPhase(t, s, PhaseInterestChoice, 1)
	play(t, s, "pay-interest:1") // the Bank loan
	wantPhase(t, s, PhaseLenderChoice, 2)
	if s.machine.Counterpart != 1 {
		t.Fatalf("counterpart %d", s.machine.Counterpart)
	}
}

// Every phase has a name; a value outside the table prints a placeholder instead of failing
// (a corrupt or future position names its phase in error messages).
func TestPhaseStringOutsideTheTable(t *testing.T) {
	for p := Phase(0); p < NumPhases; p++ {
		if p.String() == "phase(?)" || p.String() == "" {
			t.Fatalf("phase %d has no name", p)
		}
	}
	for _, p := range []Phase{NumPhases, NumPhases + 1, 255} {
		if got := p.String(); got != "phase(?)" {
			t.Fatalf("Phase(%d) = %q", p, got)
		}
	}
}

// Amount ids reach MaxAmountID ($99 above the amount built so far) and AmountHundred is
// legal while $100 more still fits, also exactly (docs/ACTIONS.md, amounts): a bidder with
// $100 may bid $99 by id and press +$100 to bid all of it.
func TestAmountIDsReachMaxAmountIDAndTheHundredFitsExactly(t *testing.T) {
	s := newTestState(t, DefaultOptions())
	s.Players[0].Ship = Counts{Red: 1}
	s.Players[1].Cash = 100
	play(t, s, "sail:island")
	wantPhase(t, s, PhaseDeliveryBid, 1)
	ids := s.LegalActions(nil)
	top, _ := s.MoveToAction(Move{Kind: Amount, Amount: MaxAmountID})
	hundred, _ := s.MoveToAction(Move{Kind: AmountHundred})
	if !slices.Contains(ids, top) || !slices.Contains(ids, hundred) {
		t.Fatalf("ids %v lack $%d (%d) or +$100 (%d)", ids, MaxAmountID, top, hundred)
	}
	play(t, s, "+$100")
	if !legal(t, s, "$100") {
		t.Fatalf("the bid of all $100 is not legal: %v", s.LegalMoves(nil))
	}
	s2 := newTestState(t, DefaultOptions())
	s2.Players[0].Ship = Counts{Red: 1}
	s2.Players[1].Cash = 99
	play(t, s2, "sail:island")
	if id, _ := s2.MoveToAction(Move{Kind: AmountHundred}); slices.Contains(s2.LegalActions(nil), id) {
		t.Fatal("+$100 offered with $99")
	}
}

// A record's checksum is the hash of its final position (record.go), so a turn start may not
// change the position beyond what the rules change: one in which nothing is seized pays
// nothing to the Bank and leaves the payment bookkeeping as it was. Four turns ended at once
// from the seed-11 setup hash to the value the build of main 96d39d7 computed, and a record
// of them verifies.
func TestTurnStartsWithNothingSeizedKeepTheRecordChecksumOfEarlierBuilds(t *testing.T) {
	const seed = 11
	g, err := NewGame(Options{Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(seed)
	first := s.CurrentPlayer()
	play(t, s, "end", "end", "end", "end")
	wantPhase(t, s, PhaseTurn, first)
	if h := s.Hash(); h != 0xb421a5883e937596 {
		t.Errorf("hash %016x after four ended turns, earlier builds b421a5883e937596", h)
	}
	if _, err := NewRecord(s, seed).Verify(); err != nil {
		t.Fatal(err)
	}
}
