package rules

import (
	"fmt"
	"strings"
)

// Render returns a text board for people, drawn from what viewer may see (Redact); viewer
// -1 draws the omniscient board. Seats are named p1..p5 as in the move notation. It shows
// every player's districts lot by lot, ship, holding area, island, cash and loans, the Bank's
// lots and auctions, the supplies, and the pending decision. Scoring cards and sealed bids
// appear only where the viewer may see them.
func (s *State) Render(viewer int) string {
	v := s
	if viewer >= 0 && s.game != nil && viewer < s.game.opts.Players {
		v = &State{}
		s.Redact(viewer, v)
	} else {
		viewer = -1
	}
	return v.render(viewer)
}

func seatLabel(seat int) string { return fmt.Sprintf("p%d", seat+1) }

func lettersOrDash(c Counts) string {
	if c.Total() == 0 {
		return "-"
	}
	return c.Letters()
}

func (s *State) render(viewer int) string {
	var b strings.Builder
	o := s.game.opts
	n := o.Players
	who := "omniscient"
	if viewer >= 0 {
		who = "view of " + seatLabel(viewer)
	}
	mods := ""
	if o.Modules != 0 {
		mods = " +" + o.Modules.String()
	}
	fmt.Fprintf(&b, "Container %s%s, %d players, %s | turn %d, step %d | %s\n", o.Variant, mods, n, o.Length, s.Turn+1, s.Steps, who)
	b.WriteString(s.renderDecision(viewer))
	b.WriteString("Supply:")
	for c := Colour(0); c < NumColours; c++ {
		if c < NumNormalColours || o.Modules.Has(Luxury) {
			fmt.Fprintf(&b, " %c%d", colourLetters[c], s.Supply[c])
		}
	}
	if s.Removed.Total() > 0 {
		fmt.Fprintf(&b, " | removed: %s", s.Removed.Letters())
	}
	b.WriteString(" | factories:")
	for c := Colour(0); c < NumNormalColours; c++ {
		fmt.Fprintf(&b, " %c%d", colourLetters[c], s.FactorySupply[c])
	}
	fmt.Fprintf(&b, " | warehouses: %d", s.WarehouseSupply)
	if s.EndTriggered {
		b.WriteString(" | END TRIGGERED: last turn")
	}
	b.WriteString("\n")
	if o.Variant != Classic {
		b.WriteString("Bank: containers")
		for l := 0; l < BankLots; l++ {
			fmt.Fprintf(&b, " %s:%s", romanLot(l), lettersOrDash(s.Bank.ContainerLots[l]))
		}
		b.WriteString(" | cash")
		for l := 0; l < BankLots; l++ {
			fmt.Fprintf(&b, " %s:$%d", romanLot(l), s.Bank.CashLots[l])
		}
		b.WriteString("\n")
		for k, a := range s.Auctions {
			if !a.Active {
				continue
			}
			switch AuctionKind(k) {
			case ContainerLotAuction:
				fmt.Fprintf(&b, "Auction on container lot %s: %s bids $%d\n", romanLot(int(a.Target)), seatLabel(int(a.Bidder)), a.Cash)
			case CashLotAuction:
				fmt.Fprintf(&b, "Auction on cash lot %s: %s bids %s (factory %s, harbor %s)\n", romanLot(int(a.Target)), seatLabel(int(a.Bidder)),
					plural(a.FromFactory.Total()+a.FromHarbor.Total(), "container"), lettersOrDash(a.FromFactory), lettersOrDash(a.FromHarbor))
			case TruckAuction:
				bid := fmt.Sprintf("$%d", a.Cash)
				if a.Cash == 0 {
					bid = plural(a.FromFactory.Total()+a.FromHarbor.Total(), "container")
				}
				fmt.Fprintf(&b, "Auction on %s's truck company: %s bids %s\n", seatLabel(int(a.Target)), seatLabel(int(a.Bidder)), bid)
			}
		}
	}
	for i := 0; i < n; i++ {
		s.renderPlayer(&b, i, viewer)
	}
	return b.String()
}

func romanLot(l int) string {
	if l >= 0 && l < 3 {
		return [3]string{"I", "II", "III"}[l]
	}
	return fmt.Sprintf("lot(%d)", l)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (s *State) renderPlayer(b *strings.Builder, i, viewer int) {
	p := &s.Players[i]
	o := s.game.opts
	mark := " "
	if i == int(s.Active) {
		mark = "*"
	}
	card := "card ?"
	if p.Card < NumScoringCards && (viewer < 0 || viewer == i) {
		vals, two, _ := ScoringCardValues(int(p.Card))
		var parts []string
		for row := 0; row < NumNormalColours; row++ {
			c := scoringCardRows[p.Card][row]
			if c == two {
				parts = append(parts, fmt.Sprintf("%c$10/5", colourLetters[c]))
			} else {
				parts = append(parts, fmt.Sprintf("%c$%d", colourLetters[c], vals[c]))
			}
		}
		card = fmt.Sprintf("card %d (%s)", p.Card, strings.Join(parts, " "))
	}
	fmt.Fprintf(b, "%s%s cash $%d | %s", mark, seatLabel(i), p.Cash, card)
	if p.NumLoans > 0 {
		var ls []string
		for l := 0; l < int(p.NumLoans) && l < MaxLoans; l++ {
			if p.Loans[l].Lender < 0 {
				ls = append(ls, fmt.Sprintf("Bank $%d", p.Loans[l].Amount))
			} else {
				ls = append(ls, fmt.Sprintf("%s $%d", seatLabel(int(p.Loans[l].Lender)), p.Loans[l].Amount))
			}
		}
		fmt.Fprintf(b, " | loans: %s", strings.Join(ls, ", "))
	}
	if o.Modules.Has(Trucks) {
		fmt.Fprintf(b, " | trucks placed %d", p.Trucks)
	}
	if o.Modules.Has(PlayerLoans) {
		fmt.Fprintf(b, " | loan cards %d", p.LoanCards)
	}
	b.WriteString("\n")
	var fac strings.Builder
	nf := 0
	for c := 0; c < NumNormalColours; c++ {
		if p.Factories&(1<<uint(c)) != 0 {
			fac.WriteByte(colourLetters[c])
			nf++
		}
	}
	fcount, hcount := 0, 0
	fmt.Fprintf(b, "    factory  [%s]", fac.String())
	for k := range p.FactoryLots {
		fmt.Fprintf(b, " $%d:%s", FactoryPrice(k), lettersOrDash(p.FactoryLots[k]))
		fcount += p.FactoryLots[k].Total()
	}
	rf, rh := 0, 0
	for k := range s.Auctions {
		if a := &s.Auctions[k]; a.Active && int(a.Bidder) == i {
			rf += a.FromFactory.Total()
			rh += a.FromHarbor.Total()
		}
	}
	fmt.Fprintf(b, " | %d", fcount)
	if rf > 0 {
		fmt.Fprintf(b, "+%d reserve", rf)
	}
	fmt.Fprintf(b, "/%d\n", 2*nf)
	fmt.Fprintf(b, "    harbor   [%d warehouse%s]", p.Warehouses, map[bool]string{true: "", false: "s"}[p.Warehouses == 1])
	for k := range p.HarborLots {
		fmt.Fprintf(b, " $%d:%s", HarborPrice(k), lettersOrDash(p.HarborLots[k]))
		hcount += p.HarborLots[k].Total()
	}
	fmt.Fprintf(b, " | %d", hcount)
	if rh > 0 {
		fmt.Fprintf(b, "+%d reserve", rh)
	}
	fmt.Fprintf(b, "/%d\n", p.Warehouses)
	where := p.ShipAt.String()
	if p.ShipAt.Where == AtHarbor {
		where = "harbor of " + seatLabel(int(p.ShipAt.Seat))
	}
	fmt.Fprintf(b, "    ship at %s: %s", where, lettersOrDash(p.Ship))
	if o.Variant != Classic {
		fmt.Fprintf(b, " | holding: %s", lettersOrDash(p.Holding))
	}
	fmt.Fprintf(b, " | island: %s\n", lettersOrDash(p.Island))
	if o.Modules.Has(Trucks) {
		c := s.Companies[i]
		if c.Owner >= 0 {
			fmt.Fprintf(b, "    truck company owned by %s\n", seatLabel(int(c.Owner)))
		} else if c.Pile > 0 {
			fmt.Fprintf(b, "    truck company independent, fees $%d\n", c.Pile)
		}
	}
}

// renderDecision describes the pending decision and, during a delivery auction, the bids
// the view may see.
func (s *State) renderDecision(viewer int) string {
	if s.Ended != NotEnded {
		why := "the supply ran out of two colours"
		if s.Ended == EndTurnLimit {
			why = "the turn limit was reached"
		}
		return "Game over: " + why + "\n"
	}
	d := s.Decision()
	var b strings.Builder
	fmt.Fprintf(&b, "Decision: %s decides %s (active %s)", seatLabel(d.Decider), d.Phase, seatLabel(d.Active))
	switch d.Phase {
	case PhasePlace, PhaseReturnBid, PhaseRearrange, PhaseProduceColour:
		fmt.Fprintf(&b, ", %s district", d.District)
	}
	if d.Counterpart >= 0 {
		fmt.Fprintf(&b, ", with %s", seatLabel(d.Counterpart))
	}
	if d.Pending.Total() > 0 {
		fmt.Fprintf(&b, ", containers %s", d.Pending.Letters())
	}
	if d.MaxAmount > 0 || d.MinAmount > 0 {
		fmt.Fprintf(&b, ", amount $%d..$%d", d.MinAmount, d.MaxAmount)
	}
	if d.ToBeat > 0 {
		fmt.Fprintf(&b, ", to beat %d", d.ToBeat)
	}
	if d.Free {
		b.WriteString(", free anchor purchase")
	}
	b.WriteString("\n")
	m := &s.machine
	if m.Action == SailIsland && m.HasBid != 0 && d.Phase != PhaseTurn {
		b.WriteString("Delivery bids:")
		for i := 0; i < s.game.opts.Players; i++ {
			if m.HasBid&(1<<uint(i)) == 0 {
				continue
			}
			// Other seats' unrevealed bids are sealed (and read 0 in a redacted view).
			bid := "sealed"
			if viewer < 0 || viewer == i || m.Revealed {
				bid = fmt.Sprintf("$%d", m.Bids[i])
			}
			fmt.Fprintf(&b, " %s %s", seatLabel(i), bid)
			if m.HasRunoff&(1<<uint(i)) != 0 {
				if viewer < 0 || viewer == i || m.RunoffRevealed {
					fmt.Fprintf(&b, " +$%d", m.Runoff[i])
				} else {
					b.WriteString(" +sealed")
				}
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
