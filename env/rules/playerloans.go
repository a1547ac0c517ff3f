package rules

// This file holds the Player Loans module (More Containers, Player Loans; CLARIFICATIONS,
// "More Containers rulings"): every loan request, also one forced by interest, first goes
// round the opponents clockwise from the borrower's left. An opponent with a loan card and
// $10 in hand (cash committed to an unresolved delivery bid is not in hand) may offer; every
// opponent who could lend as far as the borrower can know is asked (isAsked), and one whose
// sealed bid leaves less than $10 in hand may only decline. No
// offer: a Bank loan. One offer: the borrower accepts or rejects it. Several: the offerers
// make sealed incentive bids, the highest wins (the borrower breaks ties), and the borrower
// accepts (receiving $10 plus the incentive, owed back in full) or rejects (no loan of any
// kind for the rest of the active player's turn).
//
// "This turn" is the whole turn: once any opponent has offered a seat a loan, that seat may
// not take a Bank loan until the active player's turn ends (machine.LoanOffered). A later
// request that draws no offer then gives nothing, and the seat may not request again that
// turn (it was left to accept a player loan or take none; the block also keeps turns finite).

// freeCash is seat's cash in hand less what it has committed to an unresolved delivery bid.
func (s *State) freeCash(seat int) int32 {
	return s.freeCashSeen(seat, &s.machine.Bids, &s.machine.Runoff)
}

// freeCashSeen is freeCash with the sealed delivery bids and runoff additions read from bids
// and runoff (see amountRangeSeen).
func (s *State) freeCashSeen(seat int, bids, runoff *[MaxPlayers]int32) int32 {
	m := &s.machine
	c := s.Players[seat].Cash
	ph := m.Phase
	if ph >= PhaseLoanOffer && ph <= PhaseLoanAccept {
		ph = m.LoanReturnPhase // a loan requested during the auction
	}
	if m.Action == SailIsland && ph >= PhaseDeliveryBid && ph <= PhaseDeliveryAccept &&
		m.HasBid&(1<<seat) != 0 {
		c -= bids[seat] + runoff[seat]
	}
	return c
}

// canOffer reports whether seat may offer borrower a loan.
func (s *State) canOffer(seat, borrower int) bool {
	return seat != borrower && s.Players[seat].LoanCards > 0 && s.freeCash(seat) >= LoanAmount
}

// isAsked reports whether seat is asked to offer borrower a loan: an opponent with a loan card
// and $10 in hand as far as the borrower can know (cash less its delivery bid and runoff
// addition only once they are revealed). Who is asked is public, so it must not depend on a
// sealed value the borrower has not seen: a seat whose unrevealed bid leaves it less than $10
// in hand is asked all the same and may only decline (canOffer), as at the table, where a
// player who cannot lend declines like one who will not (docs/RULES.md, Player Loans).
func (s *State) isAsked(seat, borrower int) bool {
	if seat == borrower || s.Players[seat].LoanCards == 0 {
		return false
	}
	m := &s.machine
	var bids, runoff [MaxPlayers]int32
	if m.Revealed {
		bids = m.Bids
	}
	if m.RunoffRevealed {
		runoff = m.Runoff
	}
	return s.freeCashSeen(seat, &bids, &runoff) >= LoanAmount
}

// requestLoan handles a loan request of borrower: a Bank loan at once without the module or
// without possible lenders (it returns false), else the offer round (it returns true; resume
// says what continues after it).
func (s *State) requestLoan(borrower int, resume uint8) bool {
	m := &s.machine
	if s.game.opts.Modules.Has(PlayerLoans) {
		for r := 1; r < s.n(); r++ {
			if l := (borrower + r) % s.n(); s.isAsked(l, borrower) {
				m.Borrower = int8(borrower)
				m.LoanResume = resume
				m.LoanReturnPhase, m.LoanReturnDecider = m.Phase, m.Decider
				m.Offers, m.HasIncentive, m.LoanTied = 0, 0, 0
				m.Incentives = [MaxPlayers]int32{}
				m.IncentiveRevealed = false
				m.Lender = -1
				m.Phase = PhaseLoanOffer
				m.Decider = int8(l)
				return true
			}
		}
	}
	s.bankLoanOrNothing(borrower)
	return false
}

// bankLoanOrNothing ends a request that drew no offer: a Bank loan, unless an opponent
// offered the borrower a loan earlier this turn; then no loan, and no further request this
// turn.
func (s *State) bankLoanOrNothing(borrower int) {
	m := &s.machine
	if m.LoanOffered&(1<<borrower) == 0 {
		s.takeBankLoan(borrower)
		return
	}
	m.LoanRejected |= 1 << borrower
	if borrower == int(s.Active) {
		m.LoansBlocked = true
	}
}

// loanDone returns to what the loan request interrupted.
func (s *State) loanDone() {
	m := &s.machine
	if m.LoanResume == resumeInterest {
		m.LoanResume = resumeDecision
		s.runTurnStart()
		return
	}
	m.Phase, m.Decider = m.LoanReturnPhase, m.LoanReturnDecider
}

// nextAfter returns the next seat after from (clockwise, stopping before the borrower) in
// mask, or -1.
func (s *State) nextAfter(from int, mask uint8) int {
	b := int(s.machine.Borrower)
	for i := (from + 1) % s.n(); i != b; i = (i + 1) % s.n() {
		if mask&(1<<i) != 0 {
			return i
		}
	}
	return -1
}

// loanOffer records the decider's offer (yes) or refusal and asks the next opponent.
func (s *State) loanOffer(yes bool) {
	m := &s.machine
	d := int(m.Decider)
	b := int(m.Borrower)
	if yes {
		m.Offers |= 1 << d
	}
	for i := (d + 1) % s.n(); i != b; i = (i + 1) % s.n() {
		if s.isAsked(i, b) {
			m.Decider = int8(i)
			return
		}
	}
	if m.Offers != 0 {
		m.LoanOffered |= 1 << b
	}
	switch {
	case m.Offers == 0:
		s.bankLoanOrNothing(b)
		s.loanDone()
	case m.Offers&(m.Offers-1) == 0:
		s.toLoanAccept(s.nextAfter(b, m.Offers))
	default:
		m.Phase = PhaseIncentiveBid
		m.Decider = int8(s.nextAfter(b, m.Offers))
	}
}

// incentiveBid records the decider's sealed incentive and, after the last, reveals them.
func (s *State) incentiveBid(amount int32) {
	m := &s.machine
	d := int(m.Decider)
	m.Incentives[d] = amount
	m.HasIncentive |= 1 << d
	if next := s.nextAfter(d, m.Offers); next >= 0 {
		m.Decider = int8(next)
		return
	}
	m.IncentiveRevealed = true
	best := int32(-1)
	for i := 0; i < s.n(); i++ {
		if m.Offers&(1<<i) != 0 && m.Incentives[i] > best {
			best = m.Incentives[i]
		}
	}
	for i := 0; i < s.n(); i++ {
		if m.Offers&(1<<i) != 0 && m.Incentives[i] == best {
			m.LoanTied |= 1 << i
		}
	}
	if m.LoanTied&(m.LoanTied-1) == 0 {
		s.toLoanAccept(s.nextAfter(int(m.Borrower), m.LoanTied))
		return
	}
	m.Phase = PhaseLoanTie
	m.Decider = m.Borrower
}

// toLoanAccept asks the borrower to accept lender's loan or reject every loan.
func (s *State) toLoanAccept(lender int) {
	m := &s.machine
	m.Lender = int8(lender)
	m.Phase = PhaseLoanAccept
	m.Decider = m.Borrower
}

// loanAccept gives the borrower the lender's loan (yes) or rejects it (no loans this turn).
func (s *State) loanAccept(yes bool) {
	m := &s.machine
	b := int(m.Borrower)
	if yes {
		l := int(m.Lender)
		amount := LoanAmount + m.Incentives[l]
		s.Players[l].Cash -= amount
		s.Players[l].LoanCards--
		p := &s.Players[b]
		p.Cash += amount
		p.Loans[p.NumLoans] = Loan{Lender: int8(l), Amount: amount}
		p.NumLoans++
	} else {
		m.LoanRejected |= 1 << b
		if b == int(s.Active) {
			m.LoansBlocked = true
		}
	}
	s.loanDone()
}

// nextUnpaidPlayerLoan returns the unpaid player-loan slot whose lender comes first
// clockwise from the defaulter's left, or -1.
func (s *State) nextUnpaidPlayerLoan(a int) int {
	m := &s.machine
	p := &s.Players[a]
	for r := 1; r < s.n(); r++ {
		l := (a + r) % s.n()
		for i := 0; i < int(p.NumLoans); i++ {
			if m.UnpaidLoans&(1<<i) != 0 && int(p.Loans[i].Lender) == l {
				return i
			}
		}
	}
	return -1
}

// lenderChoice: the lender seizes a container (yes: pick it next) or forgives (no).
func (s *State) lenderChoice(yes bool) {
	m := &s.machine
	if yes {
		m.Phase = PhaseSeize
		m.SeizeAt = seizeAnywhere
		return
	}
	s.runTurnStart()
}

// lenderSeize moves the picked container of the defaulter to the lender's scoring area.
func (s *State) lenderSeize(area *Counts, c Colour) {
	area[c]--
	s.Players[s.machine.Decider].Island[c]++
	s.runTurnStart()
}
