package rules

// This file runs the delivery auction (Delivery Auctions): sealed bids from every opponent
// in turn order from the deliverer's left, a sealed runoff among tied top bidders, the
// deliverer's choice among bidders still tied, then accept (winner pays, the supply pays the
// same subsidy) or buy out (the deliverer pays the Bank; Classic: the supply). Bids stay in
// the machine, not in the bidders' hands, until the auction resolves. The turn ends after.

// sailIsland moves the active ship to Container Island and opens the delivery auction.
func (s *State) sailIsland(seat int) {
	s.Players[seat].ShipAt = ShipPos{Where: AtIsland}
	m := &s.machine
	m.Action = SailIsland
	m.Bids, m.Runoff = [MaxPlayers]int32{}, [MaxPlayers]int32{}
	m.HasBid, m.Tied, m.HasRunoff = 0, 0, 0
	m.Revealed, m.RunoffRevealed = false, false
	m.Winner = -1
	m.Counterpart = int8(seat)
	m.Phase = PhaseDeliveryBid
	m.Decider = int8((seat + 1) % s.n())
}

// minDeliveryBid is the smallest legal bid of seat: Classic demands $1 unless broke.
func (s *State) minDeliveryBid(seat int) int32 {
	if s.classic() && s.Players[seat].Cash > 0 {
		return 1
	}
	return 0
}

// deliveryBid records the decider's sealed bid and moves on.
func (s *State) deliveryBid(amount int32) {
	m := &s.machine
	d := int(m.Decider)
	m.Bids[d] = amount
	m.HasBid |= 1 << d
	next := (d + 1) % s.n()
	if next != int(s.Active) {
		m.Decider = int8(next)
		return
	}
	m.Revealed = true
	best := int32(-1)
	for i := 0; i < s.n(); i++ {
		if i != int(s.Active) && m.Bids[i] > best {
			best = m.Bids[i]
		}
	}
	first := -1
	for k := 1; k < s.n(); k++ {
		i := (int(s.Active) + k) % s.n()
		if m.Bids[i] == best {
			m.Tied |= 1 << i
			if first < 0 {
				first = i
			}
		}
	}
	if m.Tied&(m.Tied-1) == 0 {
		s.toAccept(first)
		return
	}
	m.Phase = PhaseRunoffBid
	m.Decider = int8(first)
}

// runoffBid records the decider's sealed runoff addition and moves on.
func (s *State) runoffBid(amount int32) {
	m := &s.machine
	d := int(m.Decider)
	m.Runoff[d] = amount
	m.HasRunoff |= 1 << d
	for k := 1; k < s.n(); k++ {
		i := (d + k) % s.n()
		if i == int(s.Active) {
			break
		}
		if m.Tied&(1<<i) != 0 {
			m.Decider = int8(i)
			return
		}
	}
	m.RunoffRevealed = true
	best := int32(-1)
	for i := 0; i < s.n(); i++ {
		if m.Tied&(1<<i) != 0 && m.Bids[i]+m.Runoff[i] > best {
			best = m.Bids[i] + m.Runoff[i]
		}
	}
	var still uint8
	first := -1
	for k := 1; k < s.n(); k++ {
		i := (int(s.Active) + k) % s.n()
		if m.Tied&(1<<i) != 0 && m.Bids[i]+m.Runoff[i] == best {
			still |= 1 << i
			if first < 0 {
				first = i
			}
		}
	}
	m.Tied = still
	if still&(still-1) == 0 {
		s.toAccept(first)
		return
	}
	m.Phase = PhaseDeliveryTie
	m.Decider = s.Active
}

// toAccept asks the deliverer to accept the winner's offer or buy out.
func (s *State) toAccept(winner int) {
	m := &s.machine
	m.Winner = int8(winner)
	m.Phase = PhaseDeliveryAccept
	m.Decider = s.Active
	m.Counterpart = int8(winner)
}

// winningBid is the winner's total (bid plus runoff addition).
func (s *State) winningBid() int32 {
	m := &s.machine
	return m.Bids[m.Winner] + m.Runoff[m.Winner]
}

// acceptDelivery: the winner pays the deliverer, the supply pays the same subsidy, the cargo
// goes to the winner's scoring area. buyOut: the deliverer pays the winning total to the
// Bank (Classic: the supply) and keeps the cargo.
func (s *State) resolveDelivery(accept bool) {
	m := &s.machine
	a := &s.Players[s.Active]
	total := s.winningBid()
	to := a
	if accept {
		w := &s.Players[m.Winner]
		w.Cash -= total
		a.Cash += 2 * total
		m.FromSupply += int64(total)
		to = w
	} else {
		a.Cash -= total
		s.payBankCash(total)
	}
	to.Island.Add(&a.Ship)
	a.Ship = Counts{}
	s.endTurn()
}
