package rules

import (
	"fmt"
)

// Machine checks of deliveries, loan requests and amounts: sealed and runoff delivery
// bids, incentives, player-loan requests, the amount being built, and that the decider has
// a legal move.

// checkDelivery checks a delivery auction in progress: sealed bids in turn order from the
// deliverer's left, the runoff among the tied, the tie break, the winner.
func (s *State) checkDelivery() error {
	m := &s.machine
	n := s.n()
	a := int(s.Active)
	under, decision := s.underPhase()
	if !decision {
		return nil
	}
	switch under {
	case PhaseDeliveryBid, PhaseRunoffBid, PhaseDeliveryTie, PhaseDeliveryAccept:
	default:
		return nil
	}
	if p := &s.Players[a]; p.ShipAt.Where != AtIsland || p.Ship.Total() == 0 {
		return machineErr("phase", "a delivery auction needs the active ship at the island with cargo")
	}
	self := uint8(1) << a
	if (m.HasBid|m.Tied|m.HasRunoff)&self != 0 || m.Bids[a] != 0 || m.Runoff[a] != 0 {
		return machineErr("has_bid", "the deliverer (seat %d) does not bid", a)
	}
	// The bidder deciding now (the loan borrower when a loan interrupted the bid).
	bidder := int(m.Decider)
	if isLoanPhase(m.Phase) {
		bidder = int(m.LoanReturnDecider)
	}
	// before(x) is the set of seats from the deliverer's left up to, not including, x.
	before := func(x int) uint8 {
		var b uint8
		for i := (a + 1) % n; i != x && i != a; i = (i + 1) % n {
			b |= 1 << i
		}
		return b
	}
	all := s.seatMask() &^ self
	for i := 0; i < n; i++ {
		if m.HasBid&(1<<i) == 0 && m.Bids[i] != 0 {
			return machineErr(fmt.Sprintf("bids[%d]", i), "$%d from a seat that has not bid", m.Bids[i])
		}
		if m.HasRunoff&(1<<i) == 0 && m.Runoff[i] != 0 {
			return machineErr(fmt.Sprintf("runoff[%d]", i), "$%d from a seat that made no runoff addition", m.Runoff[i])
		}
		if m.HasBid&(1<<i) != 0 && s.Players[i].Cash < m.Bids[i]+m.Runoff[i] {
			return machineErr(fmt.Sprintf("bids[%d]", i), "$%d bid (+ $%d runoff) with $%d in hand", m.Bids[i], m.Runoff[i], s.Players[i].Cash)
		}
	}
	best := int32(-1)
	var maxSet uint8
	if m.HasBid == all {
		for i := 0; i < n; i++ {
			if i != a && m.Bids[i] > best {
				best, maxSet = m.Bids[i], 0
			}
			if i != a && m.Bids[i] == best {
				maxSet |= 1 << i
			}
		}
	}
	many := func(x uint8) bool { return x&(x-1) != 0 }
	// total is the best bid + runoff among the seats in set, and the seats reaching it.
	total := func(set uint8) (int32, uint8) {
		t, at := int32(-1), uint8(0)
		for i := 0; i < n; i++ {
			if set&(1<<i) == 0 {
				continue
			}
			if v := m.Bids[i] + m.Runoff[i]; v > t {
				t, at = v, 1<<i
			} else if v == t {
				at |= 1 << i
			}
		}
		return t, at
	}
	switch under {
	case PhaseDeliveryBid:
		if m.HasBid != before(bidder) || m.Revealed || m.Tied != 0 || m.HasRunoff != 0 || m.RunoffRevealed || m.Winner != -1 {
			return machineErr("has_bid", "%#x: the seats from the deliverer's left up to seat %d bid first, nothing revealed or tied yet", m.HasBid, bidder)
		}
	case PhaseRunoffBid:
		if m.HasBid != all || !m.Revealed || m.Tied != maxSet || !many(m.Tied) {
			return machineErr("tied", "%#x: a runoff is among the two or more highest first-round bidders (%#x)", m.Tied, maxSet)
		}
		if m.Tied&(1<<bidder) == 0 || m.HasRunoff != before(bidder)&m.Tied || m.RunoffRevealed || m.Winner != -1 {
			return machineErr("has_runoff", "%#x: the tied seats before seat %d add first, nothing revealed yet", m.HasRunoff, bidder)
		}
	case PhaseDeliveryTie, PhaseDeliveryAccept:
		if m.HasBid != all || !m.Revealed {
			return machineErr("has_bid", "%#x: every opponent of the deliverer has bid", m.HasBid)
		}
		if m.HasRunoff == 0 {
			if under == PhaseDeliveryTie || m.RunoffRevealed || m.Tied != maxSet || many(m.Tied) {
				return machineErr("tied", "%#x: without a runoff the single highest bidder (%#x) wins", m.Tied, maxSet)
			}
		} else {
			_, at := total(m.HasRunoff)
			if m.HasRunoff != maxSet || !many(maxSet) || !m.RunoffRevealed || m.Tied != at {
				return machineErr("tied", "%#x: after a runoff among %#x the highest totals (%#x) are tied", m.Tied, m.HasRunoff, at)
			}
			if under == PhaseDeliveryTie && !many(m.Tied) {
				return machineErr("tied", "%#x: the deliverer breaks a tie of two or more", m.Tied)
			}
		}
		if under == PhaseDeliveryTie && m.Winner != -1 {
			return machineErr("winner", "%d before the tie is broken", m.Winner)
		}
		if under == PhaseDeliveryAccept && (m.Winner < 0 || m.Tied&(1<<m.Winner) == 0) {
			return machineErr("winner", "%d is not among the highest bidders (%#x)", m.Winner, m.Tied)
		}
	}
	return nil
}

// checkLoanRequest checks a player-loan request: who borrows and why, the offers asked for
// in turn order, the sealed incentives, the tie, the lender chosen.
func (s *State) checkLoanRequest() error {
	m := &s.machine
	if !isLoanPhase(m.Phase) {
		return nil
	}
	n := s.n()
	b := int(m.Borrower)
	if !s.canLoan(b) {
		return machineErr("borrower", "seat %d may not take a loan (two loans, or one rejected this turn)", b)
	}
	if m.LoanResume == resumeInterest {
		if b != int(s.Active) {
			return machineErr("borrower", "%d, but only the active seat %d pays interest", b, s.Active)
		}
	} else {
		if m.LoanReturnDecider != m.Borrower {
			return machineErr("loan_return_decider", "%d, but the borrower %d asked for the loan at its own decision", m.LoanReturnDecider, b)
		}
		if !s.loanRequestable(m.LoanReturnPhase) {
			return machineErr("loan_return_phase", "no loan may be requested during %s", m.LoanReturnPhase)
		}
		// Loans are requested at any decision of the borrower (CLARIFICATIONS, Loans): the
		// borrower must be the seat that decides the interrupted decision.
		ph, dec := m.Phase, m.Decider
		m.Phase, m.Decider = m.LoanReturnPhase, m.LoanReturnDecider
		err := s.checkDecider()
		m.Phase, m.Decider = ph, dec
		if err != nil {
			return machineErr("loan_return_decider", "%d does not decide the interrupted %s", m.LoanReturnDecider, m.LoanReturnPhase)
		}
	}
	// asked(x) is the set of seats from the borrower's left up to, not including, x.
	asked := func(x int) uint8 {
		var set uint8
		for i := (b + 1) % n; i != x && i != b; i = (i + 1) % n {
			set |= 1 << i
		}
		return set
	}
	for i := 0; i < n; i++ {
		bit := uint8(1) << i
		if m.Offers&bit != 0 && !s.canOffer(i, b) {
			return machineErr("offers", "seat %d cannot offer seat %d a loan (loan cards, $%d free)", i, b, LoanAmount)
		}
		if m.HasIncentive&bit == 0 && m.Incentives[i] != 0 {
			return machineErr(fmt.Sprintf("incentives[%d]", i), "$%d from a seat that bid no incentive", m.Incentives[i])
		}
		if m.HasIncentive&bit != 0 && m.Incentives[i] > s.freeCash(i)-LoanAmount {
			return machineErr(fmt.Sprintf("incentives[%d]", i), "$%d incentive with $%d free", m.Incentives[i], s.freeCash(i))
		}
	}
	if m.HasIncentive&^m.Offers != 0 || m.LoanTied&^m.Offers != 0 {
		return machineErr("has_incentive", "incentives %#x or ties %#x from seats that made no offer (%#x)", m.HasIncentive, m.LoanTied, m.Offers)
	}
	many := func(x uint8) bool { return x&(x-1) != 0 }
	best, at := int32(-1), uint8(0)
	for i := 0; i < n; i++ {
		if m.Offers&(1<<i) != 0 {
			if v := m.Incentives[i]; v > best {
				best, at = v, 1<<i
			} else if v == best {
				at |= 1 << i
			}
		}
	}
	d := int(m.Decider)
	switch m.Phase {
	case PhaseLoanOffer:
		if !s.isAsked(d, b) || m.Offers&^asked(d) != 0 {
			return machineErr("offers", "%#x: seat %d is asked after the seats before it, and must be one who could lend as far as the borrower knows", m.Offers, d)
		}
		if m.HasIncentive != 0 || m.LoanTied != 0 || m.IncentiveRevealed || m.Lender != -1 {
			return machineErr("has_incentive", "incentives or a lender before the offers are in")
		}
	case PhaseIncentiveBid:
		if !many(m.Offers) || m.HasIncentive != asked(d)&m.Offers || m.IncentiveRevealed || m.LoanTied != 0 || m.Lender != -1 {
			return machineErr("has_incentive", "%#x: the offering seats before seat %d bid first, nothing revealed yet (offers %#x)", m.HasIncentive, d, m.Offers)
		}
	case PhaseLoanTie:
		if !many(m.Offers) || m.HasIncentive != m.Offers || !m.IncentiveRevealed || m.LoanTied != at || !many(at) || m.Lender != -1 {
			return machineErr("loan_tied", "%#x: the borrower breaks a tie among the two or more highest incentives (%#x)", m.LoanTied, at)
		}
	case PhaseLoanAccept:
		if m.Lender < 0 || m.Offers&(1<<m.Lender) == 0 {
			return machineErr("lender", "%d made no offer (offers %#x)", m.Lender, m.Offers)
		}
		if many(m.Offers) {
			if m.HasIncentive != m.Offers || !m.IncentiveRevealed || m.LoanTied != at || at&(1<<m.Lender) == 0 {
				return machineErr("lender", "%d: the highest incentive (%#x) lends after every offerer bid", m.Lender, at)
			}
		} else if m.HasIncentive != 0 || m.IncentiveRevealed || m.LoanTied != 0 {
			return machineErr("has_incentive", "incentives with a single offer")
		}
	}
	return nil
}

// loanRequestable reports whether a loan may be requested during phase p (where TakeLoan is
// one of the legal moves).
func (s *State) loanRequestable(p Phase) bool { return loanAt(p) }

// checkAmountBase: an amount built with AmountHundred is a multiple of $100, exists only in
// a pending amount decision (a delivery bid, a runoff addition, a Bank cash bid, an incentive
// bid) of a game that is not over, and never exceeds the largest legal amount (AmountHundred
// is legal only while $100 more fits), so the decision keeps a legal id.
func (s *State) checkAmountBase() error {
	b := s.machine.AmountBase
	if b == 0 {
		return nil
	}
	if b < 0 || b%100 != 0 {
		return machineErr("amount_base", "$%d is not a non-negative multiple of $100", b)
	}
	_, hi, ok := s.amountRange()
	if s.Ended != NotEnded || !ok {
		return machineErr("amount_base", "$%d built outside an amount decision (phase %s)", b, s.machine.Phase)
	}
	if b > hi {
		return machineErr("amount_base", "$%d built, above the largest legal amount $%d", b, hi)
	}
	return nil
}

// checkHasLegalMove: a game that is not over has a decision with at least one legal move.
func (s *State) checkHasLegalMove() error {
	if s.Ended != NotEnded {
		return nil
	}
	if lo, hi, ok := s.amountRange(); ok && lo <= hi {
		return nil
	}
	k := sink{s: s, noAmounts: true}
	s.generate(&k)
	if len(k.moves) == 0 {
		return machineErr("phase", "%s of seat %d has no legal move", s.machine.Phase, s.machine.Decider)
	}
	return nil
}
