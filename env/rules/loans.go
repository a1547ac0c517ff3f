package rules

// This file holds Bank loans: requesting, repaying, interest (Bank Loans section).
//
// A loan changes only the borrower's cash and loan count, so a loan requested in the middle
// of an action (while bidding, before a buyout) has the same effect as one requested just
// before it; the engine offers TakeLoan exactly where a player's cash can matter: the turn
// menu and the delivery bid, runoff and accept decisions.

// maxRepaysPerTurn bounds repayments in one turn (the rules allow repaying both loans; a
// repay-borrow cycle beyond that changes nothing and would make turns unbounded).
const maxRepaysPerTurn = 2

// canLoan reports whether seat may request a loan now.
func (s *State) canLoan(seat int) bool {
	return s.Players[seat].NumLoans < MaxLoans && s.machine.LoanRejected&(1<<seat) == 0
}

// takeBankLoan lends seat $10 from the supply.
func (s *State) takeBankLoan(seat int) {
	p := &s.Players[seat]
	p.Loans[p.NumLoans] = Loan{Lender: -1, Amount: LoanAmount}
	p.NumLoans++
	p.Cash += LoanAmount
	s.machine.FromSupply += LoanAmount
}

// canRepay reports whether seat may repay loan slot i now (own turn menu). Of two identical
// loans only the last slot is offered, so no two action ids do the same thing.
func (s *State) canRepay(seat, i int) bool {
	p := &s.Players[seat]
	if i >= int(p.NumLoans) || s.machine.Repays >= maxRepaysPerTurn || p.Cash < p.Loans[i].Amount {
		return false
	}
	return i == int(p.NumLoans)-1 || p.Loans[i] != p.Loans[p.NumLoans-1]
}

// repay pays loan slot i back (to the supply, or to the lending player) and closes it.
func (s *State) repay(seat, i int) {
	p := &s.Players[seat]
	l := p.Loans[i]
	p.Cash -= l.Amount
	if l.Lender < 0 {
		s.machine.ToSupply += int64(l.Amount)
	} else {
		s.Players[l.Lender].Cash += l.Amount
		s.Players[l.Lender].LoanCards++
	}
	copy(p.Loans[i:], p.Loans[i+1:])
	p.Loans[MaxLoans-1] = Loan{Lender: -1}
	p.NumLoans--
	s.machine.Repays++
}

// payInterest charges the active seat $1 per loan due at the start of its turn (to the Bank,
// or to the lending player). Short of cash, it pays what it can: the player chooses which
// loan when the two have different lenders (PhaseInterestChoice; it returns true), and the
// unpaid loans are marked in machine.UnpaidLoans for the default.
func (s *State) payInterest(seat int) bool {
	m := &s.machine
	p := &s.Players[seat]
	due := int(m.InterestDue)
	if due == 2 && p.Cash == 1 && p.Loans[0].Lender != p.Loans[1].Lender {
		m.Phase = PhaseInterestChoice
		m.Decider = int8(seat)
		return true
	}
	bank := int32(0) // the interest owed to the Bank is one payment (Paying the Bank)
	for i := 0; i < due; i++ {
		if p.Cash >= 1 {
			bank += s.payInterestOn(seat, i)
		} else {
			m.UnpaidLoans |= 1 << i
		}
	}
	s.payBankCash(bank)
	return false
}

// payInterestChoice pays the chosen loan and leaves the other unpaid.
func (s *State) payInterestChoice(i int) {
	a := int(s.Active)
	s.payBankCash(s.payInterestOn(a, i))
	s.machine.UnpaidLoans = 1 << (1 - i)
	s.runTurnStart()
}

// payInterestOn takes $1 interest on seat's loan slot i: to the lending player, or
// returned as owed to the Bank (the caller pays the Bank).
func (s *State) payInterestOn(seat, i int) int32 {
	p := &s.Players[seat]
	p.Cash--
	if l := p.Loans[i].Lender; l >= 0 {
		s.Players[l].Cash++
		return 0
	}
	return 1
}

// payBankCash pays amount to the Bank cash lots, $1 at a time from lot I, skipping a lot
// that carries an auction token (Paying the Bank). Classic: to the supply.
func (s *State) payBankCash(amount int32) {
	if amount <= 0 {
		return
	}
	if s.classic() {
		s.machine.ToSupply += int64(amount)
		return
	}
	var open [BankLots]int
	k := 0
	for l := 0; l < BankLots; l++ {
		if !s.lotTokened(CashLotAuction, l) {
			open[k] = l
			k++
		}
	}
	q, r := amount/int32(k), int(amount%int32(k))
	for i := 0; i < k; i++ {
		s.Bank.CashLots[open[i]] += q
		if i < r {
			s.Bank.CashLots[open[i]]++
		}
	}
}

// lotTokened reports whether Bank lot l of the given kind carries an auction token.
func (s *State) lotTokened(kind AuctionKind, l int) bool {
	a := &s.Auctions[kind]
	return a.Active && int(a.Target) == l
}
