package play

import (
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// Moves and decisions in words, for people: "Bid $5 (sealed) for p3's cargo (1 white,
// 2 red)" instead of "$5", "Pay the Bank: which colour?" instead of "bank-pay-colour". Two
// tables are the one source of these texts, shared by `container play` and the web app:
// kindWords says each move kind in words (by the phase it answers where a kind serves
// several), phaseWords asks each decision as a question and explains it with a reference
// into docs/RULES.md. The notation (Move.String) stays what is typed and sent; the words are
// for reading.

// Context is the public part of the decision a move answers: what its words need. Every
// field is known to every seat (rules.Decision minus its sealed values), so the words of a
// move never tell more than the board does.
type Context struct {
	Phase       rules.Phase
	Players     int
	Decider     int
	Active      int
	Counterpart int            // seller, harbor owner, deliverer, defaulter or borrower (-1 if none)
	District    rules.District // district placed into or picked from
	Pending     rules.Counts   // containers waiting to be placed
	Bank        rules.AuctionKind
	ActionsUsed int
	Free        bool // a harbor purchase taken as an anchor action
	Lender      int  // chosen lender of a player loan (-1 before)
	Returner    int  // outbid seat putting a container bid back (-1 if none)
	// Cargo is what a delivery auction offers: the deliverer's ship, on the board for all to
	// see. It is zero outside the delivery phases, and where only the decision was known
	// (ContextOf); the words then say "the cargo" without naming it.
	Cargo rules.Counts
}

// ContextOf is the public context of decision d in a game of players seats. A decision does
// not hold the cargo of a delivery auction: ContextAt adds it from the position.
func ContextOf(d rules.Decision, players int) Context {
	return Context{Phase: d.Phase, Players: players, Decider: d.Decider, Active: d.Active,
		Counterpart: d.Counterpart, District: d.District, Pending: d.Pending, Bank: d.BankBid.Kind,
		ActionsUsed: int(d.Turn.ActionsUsed), Free: d.Free, Lender: int(d.Loan.Lender), Returner: int(d.BankBid.Returner)}
}

// ContextAt is the public context of the decision position s waits on: ContextOf its
// decision, with the cargo on offer in a delivery auction (the active seat's ship). s may be
// the whole position or a seat's redacted view; both read the same.
func ContextAt(s *rules.State) Context {
	c := ContextOf(s.Decision(), s.Game().Options().Players)
	if DeliveryPhase(c.Phase) {
		c.Cargo = s.Players[c.Active].Ship
	}
	return c
}

// DeliveryPhase reports whether p is a decision of a delivery auction: bids, runoff, the
// deliverer's tie-break and accept-or-buy-out. The deliverer is the active seat in all four.
func DeliveryPhase(p rules.Phase) bool {
	switch p {
	case rules.PhaseDeliveryBid, rules.PhaseRunoffBid, rules.PhaseDeliveryTie, rules.PhaseDeliveryAccept:
		return true
	}
	return false
}

// Words names seats for one reader: the reader's own seat is "you", the others pN.
type Words struct {
	Viewer int // the reader's seat (-1: nobody's, every seat is pN)
}

func (w Words) seat(s int) string {
	switch {
	case s < 0:
		return "nobody"
	case s == w.Viewer:
		return "you"
	}
	return fmt.Sprintf("p%d", s+1)
}

// of is the possessive: "your", "p3's".
func (w Words) of(s int) string {
	if s >= 0 && s == w.Viewer {
		return "your"
	}
	return w.seat(s) + "'s"
}

// store names a seat's district: "your factory store", "p2's harbor".
func (w Words) store(s int, d rules.District) string {
	if d == rules.FactoryDistrict {
		return w.of(s) + " factory store"
	}
	return w.of(s) + " harbor"
}

func lotName(index uint8) string {
	kind := "container lot"
	if index >= rules.BankLots {
		kind = "cash lot"
	}
	return fmt.Sprintf("%s %s", kind, [3]string{"I", "II", "III"}[index%rules.BankLots])
}

func auctionName(k rules.AuctionKind) string {
	switch k {
	case rules.ContainerLotAuction:
		return "the container-lot auction"
	case rules.CashLotAuction:
		return "the cash-lot auction"
	case rules.TruckAuction:
		return "the truck-company auction"
	}
	return "the auction"
}

// colourCounts says containers by colour, in the colour order of rules.Colour: "1 white,
// 2 red" ("" when there are none).
func colourCounts(c rules.Counts) string {
	var parts []string
	for col := rules.Colour(0); col < rules.NumColours; col++ {
		if c[col] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[col], col))
		}
	}
	return strings.Join(parts, ", ")
}

// cargoList is the cargo of c in brackets, " (1 white, 2 red)", or "" when not known.
func cargoList(c Context) string {
	if list := colourCounts(c.Cargo); list != "" {
		return " (" + list + ")"
	}
	return ""
}

// cargo is "the cargo" of a delivery auction, named by colour where known:
// "the cargo (1 white, 2 red)".
func cargo(c Context) string { return "the cargo" + cargoList(c) }

// cargoOf is seat s's cargo, named by colour where known: "p3's cargo (1 white, 2 red)".
func (w Words) cargoOf(s int, c Context) string { return w.of(s) + " cargo" + cargoList(c) }

// lowest is the colour of the lowest pending container (the one placed next), or "a".
func lowest(c rules.Counts) string {
	for col := rules.Colour(0); col < rules.NumColours; col++ {
		if c[col] > 0 {
			return col.String()
		}
	}
	return "a"
}

// rightOf is the seat on a seat's right: the one it pays to produce.
func rightOf(s, players int) int {
	if players <= 0 {
		return -1
	}
	return (s + players - 1) % players
}

// kindWords says a move of each kind in words, given the decision it answers. Every kind has
// a row (a test checks it): this table is where a new kind gets its words.
var kindWords = [rules.NumMoveKinds]func(w Words, c Context, m rules.Move) string{
	rules.EndTurn: func(w Words, c Context, m rules.Move) string {
		if c.ActionsUsed < 2 {
			return fmt.Sprintf("End the turn (%d action%s unused)", 2-c.ActionsUsed, plural(2-c.ActionsUsed))
		}
		return "End the turn"
	},
	rules.Done: func(w Words, c Context, m rules.Move) string {
		switch c.Phase {
		case rules.PhaseRearrange:
			return "Done rearranging"
		case rules.PhaseBuyFactory, rules.PhaseBuyHarbor:
			if c.Free {
				return "Done: buy nothing more here"
			}
			return "Done buying"
		case rules.PhaseLoadBank:
			return "Done loading the ship"
		case rules.PhaseBankContainerBid:
			return "Done: bid these containers"
		}
		return "Done"
	},
	rules.TakeLoan: func(w Words, c Context, m rules.Move) string {
		return fmt.Sprintf("Take a loan ($%d)", rules.LoanAmount)
	},
	rules.RepayLoan: func(w Words, c Context, m rules.Move) string {
		return fmt.Sprintf("Repay loan %d", m.Index+1)
	},
	rules.BuildFactory: func(w Words, c Context, m rules.Move) string {
		return fmt.Sprintf("Build a %s factory", m.Colour)
	},
	rules.BuildWarehouse: func(w Words, c Context, m rules.Move) string { return "Build a warehouse" },
	rules.Produce: func(w Words, c Context, m rules.Move) string {
		return fmt.Sprintf("Produce (pay $1 to %s)", w.seat(rightOf(c.Decider, c.Players)))
	},
	rules.FactoryPurchase: func(w Words, c Context, m rules.Move) string {
		return "Buy from " + w.store(int(m.Seat), rules.FactoryDistrict)
	},
	rules.HarborPurchase: func(w Words, c Context, m rules.Move) string {
		return "Buy from the harbor the ship is at"
	},
	rules.Reprice: func(w Words, c Context, m rules.Move) string {
		return "Reprice " + w.store(c.Decider, rules.District(m.Index))
	},
	rules.SailOcean:  func(w Words, c Context, m rules.Move) string { return "Sail to the open sea" },
	rules.SailIsland: func(w Words, c Context, m rules.Move) string { return "Sail to Container Island (auction the cargo)" },
	rules.SailBank:   func(w Words, c Context, m rules.Move) string { return "Sail to the Off-Shore Bank" },
	rules.SailHarbor: func(w Words, c Context, m rules.Move) string {
		return "Sail to " + w.of(int(m.Seat)) + " harbor"
	},
	rules.CallBankStart: func(w Words, c Context, m rules.Move) string {
		return "Call the Bank: auction " + lotName(m.Index)
	},
	rules.CallBankRaise: func(w Words, c Context, m rules.Move) string {
		return "Outbid on " + auctionName(rules.AuctionKind(m.Index))
	},
	rules.TruckStart: func(w Words, c Context, m rules.Move) string {
		with := "cash"
		if m.Index == 1 {
			with = "containers"
		}
		return fmt.Sprintf("Call the Bank: auction %s truck company (bid %s)", w.of(int(m.Seat)), with)
	},
	rules.AcquireLuxury: func(w Words, c Context, m rules.Move) string {
		return "Acquire luxury: trade two containers of " + w.store(c.Decider, rules.District(m.Index)) + " for a gold"
	},
	rules.Place: func(w Words, c Context, m rules.Move) string {
		if c.Phase == rules.PhaseReturnBid {
			return fmt.Sprintf("Put the returned %s container back in %s at $%d", lowest(c.Pending), w.store(c.Decider, c.District), m.Price)
		}
		return fmt.Sprintf("Place the %s container in %s at $%d", lowest(c.Pending), w.store(c.Decider, c.District), m.Price)
	},
	rules.PickFactory: func(w Words, c Context, m rules.Move) string { return pickLot(w, c, m, rules.FactoryDistrict) },
	rules.PickHarbor:  func(w Words, c Context, m rules.Move) string { return pickLot(w, c, m, rules.HarborDistrict) },
	rules.PickShip: func(w Words, c Context, m rules.Move) string {
		return fmt.Sprintf("Seize a %s container from %s ship", m.Colour, w.of(c.Counterpart))
	},
	rules.PickHolding: func(w Words, c Context, m rules.Move) string {
		if c.Phase == rules.PhaseLoadBank {
			return fmt.Sprintf("Load a %s container from the holding area onto the ship", m.Colour)
		}
		return fmt.Sprintf("Seize a %s container from %s holding area", m.Colour, w.of(c.Counterpart))
	},
	rules.PickIsland: func(w Words, c Context, m rules.Move) string {
		return fmt.Sprintf("Seize a %s container from %s island", m.Colour, w.of(c.Counterpart))
	},
	rules.PickColour: func(w Words, c Context, m rules.Move) string {
		if c.Phase == rules.PhaseProduceColour {
			return fmt.Sprintf("Produce %s", m.Colour)
		}
		return fmt.Sprintf("Pay %s to the Bank", m.Colour)
	},
	rules.Amount: func(w Words, c Context, m rules.Move) string {
		switch c.Phase {
		case rules.PhaseDeliveryBid:
			return fmt.Sprintf("Bid $%d (sealed) for %s", m.Amount, w.cargoOf(c.Counterpart, c))
		case rules.PhaseRunoffBid:
			return fmt.Sprintf("Add $%d (sealed) to the tied bid for %s", m.Amount, w.cargoOf(c.Counterpart, c))
		case rules.PhaseBankCashBid:
			return fmt.Sprintf("Bid $%d on %s", m.Amount, auctionName(c.Bank))
		case rules.PhaseIncentiveBid:
			return fmt.Sprintf("Offer a $%d incentive to lend to %s (sealed)", m.Amount, w.seat(c.Counterpart))
		}
		return fmt.Sprintf("$%d", m.Amount)
	},
	rules.Yes: func(w Words, c Context, m rules.Move) string {
		switch c.Phase {
		case rules.PhaseDeliveryAccept:
			return "Accept the top bid: sell " + cargo(c)
		case rules.PhaseLoanOffer:
			return fmt.Sprintf("Offer %s a loan", w.seat(c.Counterpart))
		case rules.PhaseLoanAccept:
			return fmt.Sprintf("Accept %s loan", w.of(c.Lender))
		case rules.PhaseLenderChoice:
			return fmt.Sprintf("Seize a container from %s", w.seat(c.Counterpart))
		}
		return "Yes"
	},
	rules.No: func(w Words, c Context, m rules.Move) string {
		switch c.Phase {
		case rules.PhaseDeliveryAccept:
			return "Buy " + cargo(c) + " yourself: pay the top bid to the Bank"
		case rules.PhaseLoanOffer:
			return "Do not lend"
		case rules.PhaseLoanAccept:
			return "Reject the loan (no loan this turn)"
		case rules.PhaseLenderChoice:
			return "Forgive the interest"
		}
		return "No"
	},
	rules.ChooseSeat: func(w Words, c Context, m rules.Move) string {
		switch c.Phase {
		case rules.PhaseDeliveryTie:
			return "Sell " + cargo(c) + " to " + w.seat(int(m.Seat))
		case rules.PhaseLoanTie:
			return "Borrow from " + w.seat(int(m.Seat))
		}
		return "Choose " + w.seat(int(m.Seat))
	},
	rules.PayInterest: func(w Words, c Context, m rules.Move) string {
		return fmt.Sprintf("Pay the interest on loan %d", m.Index+1)
	},
	rules.AmountHundred: func(w Words, c Context, m rules.Move) string { return "Add $100 to the amount" },
}

// pickLot says picking a container of colour m.Colour at price m.Price from a store.
func pickLot(w Words, c Context, m rules.Move, d rules.District) string {
	what := fmt.Sprintf("%s at $%d", m.Colour, m.Price)
	switch c.Phase {
	case rules.PhaseRearrange:
		return fmt.Sprintf("Pick up the %s in %s to move it", what, w.store(c.Decider, d))
	case rules.PhaseBuyFactory, rules.PhaseBuyHarbor:
		return fmt.Sprintf("Buy %s from %s", what, w.store(c.Counterpart, d))
	case rules.PhaseBankContainerBid:
		return fmt.Sprintf("Add %s from %s to the bid", what, w.store(c.Decider, d))
	case rules.PhaseSeize:
		return fmt.Sprintf("Seize %s from %s", what, w.store(c.Counterpart, d))
	case rules.PhaseLuxuryPick:
		return fmt.Sprintf("Return %s from %s to the supply", what, w.store(c.Decider, d))
	}
	return fmt.Sprintf("Pick %s from %s", what, w.store(c.Decider, d))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Move says m, a move answering the decision of c, in words.
func (w Words) Move(c Context, m rules.Move) string {
	if m.Kind >= rules.NumMoveKinds || kindWords[m.Kind] == nil {
		return m.String()
	}
	return kindWords[m.Kind](w, c, m)
}

// SealedMove is what another seat reads of a sealed bid before its round closes.
func (w Words) SealedMove(c Context) string {
	switch c.Phase {
	case rules.PhaseDeliveryBid:
		return "Sealed bid for " + w.cargoOf(c.Counterpart, c)
	case rules.PhaseRunoffBid:
		return "Sealed addition to the tied bid for " + w.cargoOf(c.Counterpart, c)
	case rules.PhaseIncentiveBid:
		return fmt.Sprintf("Sealed incentive to lend to %s", w.seat(c.Counterpart))
	}
	return "Sealed bid"
}

// phaseInfo is one row of the phase table: the decision as a question, and what it means.
type phaseInfo struct {
	ask     func(w Words, c Context) string
	help    string
	section string // docs/RULES.md section the help comes from
}

// phaseWords is the phase table: every phase has a row (a test checks it).
var phaseWords = [rules.NumPhases]phaseInfo{
	rules.PhaseTurn: {func(w Words, c Context) string {
		left := max(0, 2-c.ActionsUsed)
		if left == 0 {
			return w.of(c.Active) + " turn: both actions used; a free action, or end the turn"
		}
		return fmt.Sprintf("%s turn: choose an action (%d left), a free action, or end the turn", capital(w.of(c.Active)), left)
	}, "Two actions per turn: build a factory or warehouse, produce, buy from a factory store, buy at a harbor, reprice, sail, or call the Bank. Produce and calling the Bank are once per turn, the others may be taken twice. Loans, repayments and luxury are free actions. Ending the turn early is allowed.", "3. The turn"},
	rules.PhaseInterestChoice: {func(w Words, c Context) string {
		return "Cash is short for interest: which loan's interest to pay?"
	}, "Interest is $1 per loan at the start of the turn. With two loans from different lenders and only $1, you pick the loan to pay; the other is unpaid and its lender seizes a container.", "6. Loans, interest, default"},
	rules.PhaseProduceColour: {func(w Words, c Context) string {
		return "Storage is short: which colour to produce next?"
	}, "Producing makes one container of each factory colour you own; when your storage cannot hold them all you pick the colours one at a time until it is full.", "3. The turn (Produce)"},
	rules.PhasePlace: {func(w Words, c Context) string {
		return fmt.Sprintf("Place the %s container in %s: at what price?", lowest(c.Pending), w.store(c.Decider, c.District))
	}, "New containers go onto the price lots of the store, one at a time (factory $1-$4, harbor $2-$6). Other players buy them at that price: cheap sells fast, dear earns more.", "3. The turn (arranging containers)"},
	rules.PhaseRearrange: {func(w Words, c Context) string {
		return fmt.Sprintf("Rearrange %s: pick up a container to move, or finish", w.store(c.Decider, c.District))
	}, "After placing you may move any container not yet placed or moved in this action to another price. Each container moves at most once per action.", "3. The turn (arranging containers)"},
	rules.PhaseBuyFactory: {func(w Words, c Context) string {
		return fmt.Sprintf("Buy from %s: pick containers, then finish", w.store(c.Counterpart, rules.FactoryDistrict))
	}, "Each container costs its price, paid to the seller, and needs room in your harbor. Buy at least one; then you place them in your harbor.", "3. The turn (Factory Purchase); 9. Truck Companies (freight fee)"},
	rules.PhaseBuyHarbor: {func(w Words, c Context) string {
		return fmt.Sprintf("Buy from %s: pick containers for your ship, then finish", w.store(c.Counterpart, rules.HarborDistrict))
	}, "Containers bought at a harbor go straight onto your ship (at most 5), paid to the harbor's owner. Arriving at a harbor gives a free purchase where buying nothing is allowed.", "3. The turn (Harbor Purchase, Anchor)"},
	rules.PhaseLoadBank: {func(w Words, c Context) string {
		return "At the Bank: load containers from the holding area onto the ship, then finish"
	}, "Containers won at Bank auctions wait in your holding area; at the Bank you load them onto the ship to deliver them to the island later.", "3. The turn (Anchor: Bank)"},
	rules.PhaseDeliveryBid: {func(w Words, c Context) string {
		return fmt.Sprintf("Bid for %s: your sealed bid", w.cargoOf(c.Counterpart, c))
	}, "The cargo is every container on the deliverer's ship. Every other player bids once, sealed, from $0 up to their cash. The deliverer then accepts the top bid (the winner pays, the supply pays the same again to the deliverer) or pays that amount to the Bank to keep the cargo. The cargo scores on the winner's island.", "5. Delivery auctions"},
	rules.PhaseRunoffBid: {func(w Words, c Context) string {
		return fmt.Sprintf("Tied for %s: add a sealed amount to your bid", w.cargoOf(c.Counterpart, c))
	}, "Tied top bidders each add a sealed amount (0 allowed). Still tied, the deliverer chooses.", "5. Delivery auctions"},
	rules.PhaseDeliveryTie: {func(w Words, c Context) string {
		return "Still tied: who gets " + cargo(c) + "?"
	}, "The bidders are still tied after the runoff: the deliverer picks the winner among them.", "5. Delivery auctions"},
	rules.PhaseDeliveryAccept: {func(w Words, c Context) string {
		return "Sell " + cargo(c) + " to the top bidder, or buy it yourself?"
	}, "Accept: the top bidder pays you the bid and the supply pays you the same again. Buy out: you pay the bid to the Bank and put the cargo on your own island.", "5. Delivery auctions"},
	rules.PhaseBankCashBid: {func(w Words, c Context) string {
		return fmt.Sprintf("Bid cash on %s", auctionName(c.Bank))
	}, "A cash bid on a Bank lot must beat the current one; the cash is frozen on the bid tile. If nobody outbids you by the start of your next turn you win the lot.", "4. Off-Shore Bank auctions"},
	rules.PhaseBankContainerBid: {func(w Words, c Context) string {
		return fmt.Sprintf("Bid containers on %s: pick them, finish when the bid is high enough", auctionName(c.Bank))
	}, "A container bid is made from your own store lots and must beat the current bid (gold counts 1.5). The containers stay on the bid tile until the auction ends.", "4. Off-Shore Bank auctions"},
	rules.PhaseBankPayColour: {func(w Words, c Context) string {
		return "Pay the Bank: which colour?"
	}, "Containers paid to the Bank go onto its container lots one at a time, lot I, II, III and round again; the payer chooses the colour for each lot.", "4. Off-Shore Bank auctions (paying the Bank)"},
	rules.PhaseSeize: {func(w Words, c Context) string {
		return fmt.Sprintf("%s cannot pay interest: which container is seized?", capital(w.seat(c.Counterpart)))
	}, "Unpaid interest on a Bank loan costs one container, taken from the island first, then the ship, holding area, harbor, factory store; the player on the right picks among colours.", "6. Loans, interest, default"},
	rules.PhaseReturnBid: {func(w Words, c Context) string {
		return fmt.Sprintf("Outbid: put the returned %s container back in %s at what price?", lowest(c.Pending), w.store(c.Decider, c.District))
	}, "An outbid container bidder puts each container back in the store it came from, at any price.", "4. Off-Shore Bank auctions"},
	rules.PhaseLuxuryPick: {func(w Words, c Context) string {
		return "Acquire luxury: pick the containers to return"
	}, "Return two containers of one store to the supply and take a gold container into that store. Gold scores as any colour and counts 1.5 in Bank container bids.", "9. Luxury Containers"},
	rules.PhaseLoanOffer: {func(w Words, c Context) string {
		return fmt.Sprintf("%s asks for a loan: offer one?", capital(w.seat(c.Counterpart)))
	}, "With a loan card and $10 you may lend; the borrower pays interest to you and repays you. Several offers lead to sealed incentive bids.", "9. Player Loans"},
	rules.PhaseIncentiveBid: {func(w Words, c Context) string {
		return fmt.Sprintf("Several lenders for %s: your sealed incentive", w.seat(c.Counterpart))
	}, "Each lender bids a sealed incentive on top of the $10; the highest lends (the borrower breaks ties) and the debt is $10 plus the incentive.", "9. Player Loans"},
	rules.PhaseLoanTie: {func(w Words, c Context) string {
		return "Tied lenders: who lends?"
	}, "Lenders tied on the best incentive: the borrower chooses one.", "9. Player Loans"},
	rules.PhaseLoanAccept: {func(w Words, c Context) string {
		return fmt.Sprintf("Accept %s loan?", w.of(c.Lender))
	}, "Accepting takes the lender's cash and card; rejecting means no loan of any kind for the rest of this turn.", "9. Player Loans"},
	rules.PhaseLenderChoice: {func(w Words, c Context) string {
		return fmt.Sprintf("%s cannot pay your interest: seize a container or forgive?", capital(w.seat(c.Counterpart)))
	}, "A lender whose interest is unpaid takes any one container of the borrower (not on a bid tile) into their own island, or forgives.", "9. Player Loans"},
	rules.PhaseTerminal: {func(w Words, c Context) string { return "The game is over" },
		"The game ended: cash, island (by your scoring card, most common colour discarded), leftovers and loans make the score.", "7. Game end"},
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Ask is the decision of c as a question or instruction, e.g. "Pay the Bank: which colour?".
func (w Words) Ask(c Context) string {
	if c.Phase >= rules.NumPhases || phaseWords[c.Phase].ask == nil {
		return c.Phase.String()
	}
	return capital(phaseWords[c.Phase].ask(w, c))
}

// Help explains a decision of phase p in a few sentences and names the section of
// docs/RULES.md it comes from.
func Help(p rules.Phase) (text, section string) {
	if p >= rules.NumPhases {
		return "", ""
	}
	return phaseWords[p].help, phaseWords[p].section
}
