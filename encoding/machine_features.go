package encoding

import (
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// machineOffsets locates the features read from the decision machine (rules.Decision): the active turn's counters,
// the action in progress, the Bank bid being made, a default in progress, a payment to the
// Bank, and the delivery auction. Sealed bids are read from the view, in which Redact has
// zeroed every unrevealed bid but the observer's own.
type machineOffsets struct {
	actionsUsed, produced, calledBank, wonAuction, repays, luxuryUsed, loansBlocked int
	action, fixed, bought, pickLeft                                                 int
	bidKind, returner, returnFactory, returnHarbor                                  int
	unpaid, seizeAt, seized                                                         int
	pay, payer, payPlaced                                                           int
	bids, runoff, hasBid, tied, hasRunoff, revealed, runoffRevealed, winner         int
	interestDue, unpaidLoans                                                        int
	// Player Loans (-1 when the module is off).
	loanRejected, loanOffered, borrower, offers, incentives, hasIncentive, incentiveRevealed, loanTied, lender int
}

// seizeLocations names the seizure locations in the default order, island to nothing
// (rules.SeizeLocation; a lender's SeizeAnywhere is not a feature value).
var seizeLocations = func() []string {
	var l []string
	for k := rules.SeizeIsland; k <= rules.SeizeNothing; k++ {
		l = append(l, k.String())
	}
	return l
}()

func addMachineFeatures(b *builder, o rules.Options, nc int, maxHeap float32) machineOffsets {
	var m machineOffsets
	colours := colourLabels(nc)
	m.actionsUsed = b.scalar("turn.actions_used", 1, 2, "actions used this turn")
	m.produced = b.flag("turn.produced", "Produce used this turn")
	m.calledBank = b.flag("turn.called_bank", "Call Bank used this turn")
	m.wonAuction = b.flag("turn.won_auction", "won a Bank auction at this turn's start (no Call Bank)")
	m.repays = b.scalar("turn.repays", 1, 2, "loans repaid this turn")
	m.luxuryUsed, m.loansBlocked = -1, -1
	if o.Modules.Has(rules.Luxury) {
		m.luxuryUsed = b.flag("turn.luxury_used", "Acquire Luxury used this turn")
	}
	if o.Modules.Has(rules.PlayerLoans) {
		m.loansBlocked = b.flag("turn.loans_blocked", "a loan offer was rejected: no loans for the rest of the turn")
	}

	kinds := make([]string, rules.NumMoveKinds)
	for k := range kinds {
		kinds[k] = rules.MoveKind(k).String()
	}
	m.action = b.oneHot("action.kind", kinds, "turn-menu action in progress (or the last one)")
	m.fixed = b.add("action.fixed", lotIndexLabels(rules.HarborPrices, nc), 0, 1, rules.MaxWarehouses,
		"containers placed during this action, by lot index (factory $1..$4 or harbor $2..$6) and colour: they may not move again")
	m.bought = b.scalar("action.bought", 1, 2*rules.MaxFactories, "containers bought in this purchase (clipped)")
	m.pickLeft = b.scalar("action.pick_left", 1, 2*rules.MaxFactories, "colours still to choose when producing with short storage (clipped)")

	m.bidKind = b.oneHot("bank_bid.kind", auctionLabels(), "kind of the Bank bid in progress")
	m.returner = b.oneHot("bank_bid.returner", seatNoneLabels, "outbid seat putting containers back")
	m.returnFactory = b.add("bank_bid.return_factory", colours, 0, maxHeap, heapScale, "containers still to put back in the factory district")
	m.returnHarbor = b.add("bank_bid.return_harbor", colours, 0, maxHeap, heapScale, "containers still to put back in the harbor district")

	m.unpaid = b.scalar("default.unpaid", 1, rules.MaxLoans, "unpaid interest: containers still to seize")
	m.seizeAt = b.oneHot("default.seize_at", seizeLocations, "location of the pending seizure choice")
	m.seized = b.add("default.seized", colours, 0, maxHeap, heapScale, "containers seized so far in this default")

	m.pay = b.add("bank_pay.containers", colours, 0, maxHeap, heapScale, "containers still to pay to the Bank container lots")
	m.payer = b.oneHot("bank_pay.payer", seatNoneLabels, "seat choosing the colours paid")
	m.payPlaced = b.add("bank_pay.placed", []string{"value"}, 0, maxHeap, heapScale, "units paid so far (sets the next lot)")

	m.bids = b.add("delivery.bids", seatLabels, 0, maxCashFeature, cashScale, "delivery bids (own bid, and everyone's once revealed; clipped)")
	m.runoff = b.add("delivery.runoff", seatLabels, 0, maxCashFeature, cashScale, "runoff additions (own, and everyone's once revealed; clipped)")
	m.hasBid = b.add("delivery.has_bid", seatLabels, 0, 1, 0, "seat has placed its delivery bid")
	m.tied = b.add("delivery.tied", seatLabels, 0, 1, 0, "seat is in the runoff")
	m.hasRunoff = b.add("delivery.has_runoff", seatLabels, 0, 1, 0, "seat has placed its runoff addition")
	m.revealed = b.flag("delivery.revealed", "first-round bids are revealed")
	m.runoffRevealed = b.flag("delivery.runoff_revealed", "runoff additions are revealed")
	m.winner = b.oneHot("delivery.winner", seatNoneLabels, "winning bidder once decided")

	m.interestDue = b.scalar("interest.due", 1, rules.MaxLoans, "loans due interest at this turn's start")
	m.unpaidLoans = b.add("interest.unpaid", []string{"0", "1"}, 0, 1, 0, "loan slots whose interest went unpaid")

	m.loanRejected, m.loanOffered, m.borrower, m.offers, m.incentives = -1, -1, -1, -1, -1
	m.hasIncentive, m.incentiveRevealed, m.loanTied, m.lender = -1, -1, -1, -1
	if o.Modules.Has(rules.PlayerLoans) {
		m.loanRejected = b.add("loan_request.rejected", seatLabels, 0, 1, 0, "seats that rejected a player loan this turn")
		m.loanOffered = b.add("loan_request.offered", seatLabels, 0, 1, 0, "seats offered a player loan this turn (no Bank loan for them until it ends)")
		m.borrower = b.oneHot("loan_request.borrower", seatNoneLabels, "seat asking for a loan")
		m.offers = b.add("loan_request.offers", seatLabels, 0, 1, 0, "seats that offered a loan")
		m.incentives = b.add("loan_request.incentives", seatLabels, 0, maxCashFeature, smallCashScale, "sealed incentive bids (own, and everyone's once revealed; clipped)")
		m.hasIncentive = b.add("loan_request.has_incentive", seatLabels, 0, 1, 0, "seat has placed its incentive bid")
		m.incentiveRevealed = b.flag("loan_request.incentive_revealed", "incentive bids are revealed")
		m.loanTied = b.add("loan_request.tied", seatLabels, 0, 1, 0, "lenders tied on the best incentive")
		m.lender = b.oneHot("loan_request.lender", seatNoneLabels, "chosen lender")
	}
	return m
}

func (e *Encoder) encodeMachine(d *rules.Decision, observer int, dst []float32) {
	m := &e.l.machine
	n := e.l.n
	nc := e.l.nc
	rel := func(seat int) int { return ((seat-observer)%n + n) % n }
	seatOrNone := func(off int, seat int8) {
		if seat >= 0 && int(seat) < n {
			dst[off+1+rel(int(seat))] = 1
		} else {
			dst[off] = 1
		}
	}
	flag := func(off int, b bool) {
		if b && off >= 0 {
			dst[off] = 1
		}
	}
	dst[m.actionsUsed] = clip(float32(d.Turn.ActionsUsed)/2, 1)
	flag(m.produced, d.Turn.Produced)
	flag(m.calledBank, d.Turn.CalledBank)
	flag(m.wonAuction, d.Turn.WonAuction)
	dst[m.repays] = clip(float32(d.Turn.Repays)/2, 1)
	flag(m.luxuryUsed, d.Turn.LuxuryUsed)
	flag(m.loansBlocked, d.Turn.LoansBlocked)

	if d.Action.Kind < rules.NumMoveKinds {
		dst[m.action+int(d.Action.Kind)] = 1
	}
	for lot := 0; lot < rules.HarborPrices; lot++ {
		putCounts(dst[m.fixed+lot*nc:], &d.Action.Fixed[lot], nc, rules.MaxWarehouses)
	}
	for i := m.fixed; i < m.fixed+rules.HarborPrices*nc; i++ {
		dst[i] = clip(dst[i], 1)
	}
	dst[m.bought] = clip(float32(d.Action.Bought)/(2*rules.MaxFactories), 1)
	dst[m.pickLeft] = clip(float32(d.Action.PickLeft)/(2*rules.MaxFactories), 1)

	if d.BankBid.Kind < rules.NumAuctionKinds {
		dst[m.bidKind+int(d.BankBid.Kind)] = 1
	}
	seatOrNone(m.returner, d.BankBid.Returner)
	putCounts(dst[m.returnFactory:], &d.BankBid.ReturnFactory, nc, heapScale)
	putCounts(dst[m.returnHarbor:], &d.BankBid.ReturnHarbor, nc, heapScale)

	dst[m.unpaid] = clip(float32(d.Default.Unpaid)/rules.MaxLoans, 1)
	if int(d.Default.At) < len(seizeLocations) {
		dst[m.seizeAt+int(d.Default.At)] = 1
	}
	putCounts(dst[m.seized:], &d.Default.Seized, nc, heapScale)

	putCounts(dst[m.pay:], &d.Payment.Left, nc, heapScale)
	seatOrNone(m.payer, d.Payment.Payer)
	dst[m.payPlaced] = clip(float32(d.Payment.Placed)/heapScale, e.l.maxHeap)

	for seat := 0; seat < n; seat++ {
		r := rel(seat)
		dst[m.bids+r] = clip(float32(d.Delivery.Bids[seat])/cashScale, maxCashFeature)
		dst[m.runoff+r] = clip(float32(d.Delivery.Runoff[seat])/cashScale, maxCashFeature)
		flag(m.hasBid+r, d.Delivery.HasBid&(1<<seat) != 0)
		flag(m.tied+r, d.Delivery.Tied&(1<<seat) != 0)
		flag(m.hasRunoff+r, d.Delivery.HasRunoff&(1<<seat) != 0)
	}
	flag(m.revealed, d.Delivery.Revealed)
	flag(m.runoffRevealed, d.Delivery.RunoffRevealed)
	seatOrNone(m.winner, d.Delivery.Winner)

	dst[m.interestDue] = clip(float32(d.Interest.Loans)/rules.MaxLoans, 1)
	flag(m.unpaidLoans, d.Interest.Unpaid&1 != 0)
	flag(m.unpaidLoans+1, d.Interest.Unpaid&2 != 0)

	if m.borrower < 0 {
		return
	}
	seatOrNone(m.borrower, d.Loan.Borrower)
	seatOrNone(m.lender, d.Loan.Lender)
	flag(m.incentiveRevealed, d.Loan.IncentiveRevealed)
	for seat := 0; seat < n; seat++ {
		r := rel(seat)
		bit := uint8(1) << seat
		flag(m.loanRejected+r, d.Loan.Rejected&bit != 0)
		flag(m.loanOffered+r, d.Loan.Offered&bit != 0)
		flag(m.offers+r, d.Loan.Offers&bit != 0)
		flag(m.hasIncentive+r, d.Loan.HasIncentive&bit != 0)
		flag(m.loanTied+r, d.Loan.Tied&bit != 0)
		dst[m.incentives+r] = clip(float32(d.Loan.Incentives[seat])/smallCashScale, maxCashFeature)
	}
}

// auctionLabels name the auction kinds in observation labels: the rules' names with '_'
// (container_lot, cash_lot, truck).
func auctionLabels() []string {
	l := make([]string, rules.NumAuctionKinds)
	for k := range l {
		l[k] = strings.ReplaceAll(rules.AuctionKind(k).String(), "-", "_")
	}
	return l
}

func lotIndexLabels(lots, nc int) []string {
	var l []string
	for p := 0; p < lots; p++ {
		for c := 0; c < nc; c++ {
			l = append(l, fmt.Sprintf("lot%d.%s", p, rules.Colour(c)))
		}
	}
	return l
}
