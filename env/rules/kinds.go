package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// This file is the one description of the move kinds: for each kind its name, its number of
// action ids (and so its id range), the arguments its ids and its notation carry, and the
// phases in which it can be legal. The id codec (ActionToMove, MoveToAction), the notation
// (Move.String, ParseMove), the generic action names (ActionName) and MoveKind.String are
// derived from it. To add a kind: add the constant in move.go (ids follow the constant order,
// so a new kind goes last and the action layout version changes), add its row here, then
// write its legality (legal.go) and its effect (apply.go).

// argShape says which Move fields a kind's ids set and how its notation writes them.
type argShape uint8

const (
	argNone       argShape = iota
	argLoanSlot            // Index 0..MaxLoans-1, written as the number
	argDistrict            // Index: District, written factory|harbor
	argColour              // Colour, written as the colour name
	argSeatNext            // Seat: an opponent; id offset = relative seat - 1
	argSeat                // Seat: any seat; id offset = relative seat
	argBankLot             // Index 0..2 container lot I..III, 3..5 cash lot I..III: container-lot|cash-lot:1..3
	argAuction             // Index: AuctionKind, written container-lot|cash-lot|truck
	argTruck               // Seat and Index (0 cash, 1 containers); id offset = 2 x relative seat + Index
	argPlacePrice          // Price $1..$6; id offset = price - 1
	argFactoryLot          // Colour and Price $1..$4; id offset = colour x 4 + price - 1
	argHarborLot           // Colour and Price $2..$6; id offset = colour x 5 + price - 2
	argAmount              // Amount: the total, written $N; id offset = amount - amount built so far
)

// kindInfo is one row of the kind table.
type kindInfo struct {
	// name is the kind's name (MoveKind.String, the observation's action.kind labels).
	name string
	// size is the number of action ids of the kind.
	size int
	// words are the notation's fixed fields before the arguments ("sail:harbor"); empty for
	// Amount, which is written "$N".
	words string
	// args says which Move fields the kind uses and how the notation writes them.
	args argShape
	// phases are the phases in which a move of this kind can be legal.
	phases PhaseSet
}

// PhaseSet is a set of phases, one bit per Phase.
type PhaseSet uint32

// Has reports whether p is in the set.
func (s PhaseSet) Has(p Phase) bool { return p < NumPhases && s&(1<<p) != 0 }

func phases(ps ...Phase) PhaseSet {
	var s PhaseSet
	for _, p := range ps {
		s |= 1 << p
	}
	return s
}

// The phases of the kinds shared by several decisions.
var (
	pickPhases   = phases(PhaseRearrange, PhaseBuyFactory, PhaseBankContainerBid, PhaseSeize, PhaseLuxuryPick)
	amountPhases = phases(PhaseDeliveryBid, PhaseRunoffBid, PhaseBankCashBid, PhaseIncentiveBid)
	yesNoPhases  = phases(PhaseDeliveryAccept, PhaseLoanOffer, PhaseLoanAccept, PhaseLenderChoice)
	// A loan may be requested at every decision but the loan request's own and the game end
	// (docs/RULES.md section 10).
	loanPhases = (1<<NumPhases - 1) &^ phases(PhaseLoanOffer, PhaseIncentiveBid, PhaseLoanTie, PhaseLoanAccept, PhaseTerminal)
	turn       = phases(PhaseTurn)
)

// kinds is the kind table, in action-id order.
var kinds = [NumMoveKinds]kindInfo{
	EndTurn:         {"end", 1, "end", argNone, turn},
	Done:            {"done", 1, "done", argNone, phases(PhaseRearrange, PhaseBuyFactory, PhaseBuyHarbor, PhaseLoadBank, PhaseBankContainerBid)},
	TakeLoan:        {"loan", 1, "loan", argNone, loanPhases},
	RepayLoan:       {"repay", MaxLoans, "repay", argLoanSlot, turn},
	BuildFactory:    {"build-factory", NumNormalColours, "build:factory", argColour, turn},
	BuildWarehouse:  {"build-warehouse", 1, "build:warehouse", argNone, turn},
	Produce:         {"produce", 1, "produce", argNone, turn},
	FactoryPurchase: {"buy-factory", MaxPlayers - 1, "buy-factory", argSeatNext, turn},
	HarborPurchase:  {"buy-harbor", 1, "buy-harbor", argNone, turn},
	Reprice:         {"reprice", 2, "reprice", argDistrict, turn},
	SailOcean:       {"sail-ocean", 1, "sail:ocean", argNone, turn},
	SailIsland:      {"sail-island", 1, "sail:island", argNone, turn},
	SailBank:        {"sail-bank", 1, "sail:bank", argNone, turn},
	SailHarbor:      {"sail-harbor", MaxPlayers - 1, "sail:harbor", argSeatNext, turn},
	CallBankStart:   {"bank-start", 2 * BankLots, "bank:start", argBankLot, turn},
	CallBankRaise:   {"bank-raise", NumAuctionKinds, "bank:raise", argAuction, turn},
	TruckStart:      {"truck-start", 2 * MaxPlayers, "truck:start", argTruck, turn},
	AcquireLuxury:   {"luxury", 2, "luxury", argDistrict, turn},
	Place:           {"place", 6, "place", argPlacePrice, phases(PhasePlace, PhaseReturnBid)},
	PickFactory:     {"pick-factory", NumColours * FactoryPrices, "pick:factory", argFactoryLot, pickPhases},
	PickHarbor:      {"pick-harbor", NumColours * HarborPrices, "pick:harbor", argHarborLot, pickPhases | phases(PhaseBuyHarbor)},
	PickShip:        {"pick-ship", NumColours, "pick:ship", argColour, phases(PhaseSeize)},
	PickHolding:     {"pick-holding", NumColours, "pick:holding", argColour, phases(PhaseLoadBank, PhaseSeize)},
	PickIsland:      {"pick-island", NumColours, "pick:island", argColour, phases(PhaseSeize)},
	PickColour:      {"colour", NumColours, "colour", argColour, phases(PhaseProduceColour, PhaseBankPayColour)},
	Amount:          {"amount", MaxAmountID + 1, "", argAmount, amountPhases},
	Yes:             {"yes", 1, "yes", argNone, yesNoPhases},
	No:              {"no", 1, "no", argNone, yesNoPhases},
	ChooseSeat:      {"seat", MaxPlayers, "seat", argSeat, phases(PhaseDeliveryTie, PhaseLoanTie)},
	PayInterest:     {"pay-interest", MaxLoans, "pay-interest", argLoanSlot, phases(PhaseInterestChoice)},
	AmountHundred:   {"amount-hundred", 1, "+$100", argNone, amountPhases},
}

// oldWords are spellings earlier builds wrote, still read: the kind they name and the
// notation's fixed fields. sail:pN was SailHarbor's notation before sail:harbor:pN.
var oldWords = map[string]MoveKind{"sail": SailHarbor, "color": PickColour}

// String returns the kind's name, e.g. "sail-harbor" ("kind(N)" outside the table).
func (k MoveKind) String() string {
	if k < NumMoveKinds {
		return kinds[k].name
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Phases returns the phases in which a move of kind k can be legal (the empty set outside
// the table). Tests check every legal move of random games against it.
func (k MoveKind) Phases() PhaseSet {
	if k < NumMoveKinds {
		return kinds[k].phases
	}
	return 0
}

// KindByName returns the kind with the given name (MoveKind.String).
func KindByName(name string) (MoveKind, bool) {
	for k := range NumMoveKinds {
		if kinds[k].name == name {
			return k, true
		}
	}
	return 0, false
}

// Lookup tables derived from the kind table for the hot paths (ActionToMove, MoveToAction):
// kindBase[k] is the first action id of kind k, kindSize[k] its number of ids and
// kindArgs[k] its argument shape; idKind[id]
// is the kind of action id and idMove[id] its move with relative seats and amount.
var (
	kindBase [NumMoveKinds + 1]int
	kindSize [NumMoveKinds]int
	kindArgs [NumMoveKinds]argShape
	idKind   []MoveKind
	idMove   []Move
)

func init() {
	for k := MoveKind(0); k < NumMoveKinds; k++ {
		kindBase[k+1] = kindBase[k] + kinds[k].size
		kindSize[k] = kinds[k].size
		kindArgs[k] = kinds[k].args
		for i := range kinds[k].size {
			idKind = append(idKind, k)
			idMove = append(idMove, moveOf(k, i))
		}
	}
}

// NumDistinctActions is the size of the action space. It is the same for every option set, so
// a network trained on one configuration has the same output layout on another.
func NumDistinctActions() int { return kindBase[NumMoveKinds] }

// KindBase returns the first action id of kind k and the number of ids it has.
func KindBase(k MoveKind) (first, count int) { return kindBase[k], kinds[k].size }

// ActionKind returns the kind of action id and the id's offset within the kind (ok false
// outside [0, NumDistinctActions())).
func ActionKind(id int) (k MoveKind, offset int, ok bool) {
	if id < 0 || id >= len(idKind) {
		return 0, 0, false
	}
	k = idKind[id]
	return k, id - kindBase[k], true
}

// moveOf decodes offset i of kind k into a Move whose seats are relative to the decider
// (0 the decider, 1 the next seat clockwise) and whose amount counts from the amount built.
func moveOf(k MoveKind, i int) Move {
	m := Move{Kind: k}
	switch kinds[k].args {
	case argLoanSlot, argDistrict, argBankLot, argAuction:
		m.Index = uint8(i)
	case argColour:
		m.Colour = Colour(i)
	case argSeatNext:
		m.Seat = int8(i + 1)
	case argSeat:
		m.Seat = int8(i)
	case argTruck:
		m.Seat = int8(i / 2)
		m.Index = uint8(i % 2)
	case argPlacePrice:
		m.Price = uint8(i + 1)
	case argFactoryLot:
		m.Colour = Colour(i / FactoryPrices)
		m.Price = uint8(FactoryPrice(i % FactoryPrices))
	case argHarborLot:
		m.Colour = Colour(i / HarborPrices)
		m.Price = uint8(HarborPrice(i % HarborPrices))
	case argAmount:
		m.Amount = int32(i)
	}
	return m
}

// ActionName returns the generic name of action id: its move's notation with seats relative
// to the decider ("+0" the decider, "+1" the next seat clockwise) and an amount counted from
// the amount built so far, e.g. "sail:harbor:+1", "pick:factory:red:$2", "$17"; the same id
// has the same name whoever decides. "action(?)" for an id out of range.
func ActionName(id int) string {
	k, i, ok := ActionKind(id)
	if !ok {
		return "action(?)"
	}
	return moveOf(k, i).text(true)
}

// text writes the move: the kind's words, then its arguments, separated by ':'. Seats are
// absolute (p1..p5) or, when relative, "+N" counted from the decider.
func (m Move) text(relative bool) string {
	if m.Kind >= NumMoveKinds {
		return fmt.Sprintf("move(%d)", m.Kind)
	}
	ki := &kinds[m.Kind]
	seat := func(s int8) string {
		if relative {
			return "+" + strconv.Itoa(int(s))
		}
		return "p" + strconv.Itoa(int(s)+1)
	}
	arg := ""
	switch ki.args {
	case argNone:
		return ki.words
	case argLoanSlot:
		arg = strconv.Itoa(int(m.Index))
	case argDistrict:
		arg = District(m.Index).String()
	case argColour:
		arg = m.Colour.String()
	case argSeatNext, argSeat:
		arg = seat(m.Seat)
	case argBankLot:
		// A container lot is auctioned as ContainerLotAuction, a cash lot as CashLotAuction.
		arg = AuctionKind(m.Index/BankLots%2).String() + ":" + strconv.Itoa(int(m.Index)%BankLots+1)
	case argAuction:
		if int(m.Index) >= NumAuctionKinds {
			return fmt.Sprintf("move(%d)", m.Kind)
		}
		arg = auctionKindNames[m.Index]
	case argTruck:
		arg = seat(m.Seat) + ":cash"
		if m.Index == 1 {
			arg = seat(m.Seat) + ":containers"
		}
	case argPlacePrice:
		arg = "$" + strconv.Itoa(int(m.Price))
	case argFactoryLot, argHarborLot:
		arg = m.Colour.String() + ":$" + strconv.Itoa(int(m.Price))
	case argAmount:
		return "$" + strconv.Itoa(int(m.Amount))
	}
	return ki.words + ":" + arg
}

// usage describes the notation of kind k for error messages, e.g. "sail:harbor:SEAT".
func (k MoveKind) usage() string {
	ki := &kinds[k]
	switch ki.args {
	case argNone:
		return ki.words
	case argLoanSlot:
		return ki.words + ":0.." + strconv.Itoa(MaxLoans-1)
	case argDistrict:
		return ki.words + ":factory|harbor"
	case argColour:
		return ki.words + ":COLOUR"
	case argSeatNext, argSeat:
		return ki.words + ":SEAT"
	case argBankLot:
		return ki.words + ":" + ContainerLotAuction.String() + "|" + CashLotAuction.String() + ":1.." + strconv.Itoa(BankLots)
	case argAuction:
		return ki.words + ":" + strings.Join(auctionKindNames[:], "|")
	case argTruck:
		return ki.words + ":SEAT:cash|containers"
	case argPlacePrice:
		return ki.words + ":$PRICE"
	case argFactoryLot, argHarborLot:
		return ki.words + ":COLOUR:$PRICE"
	}
	return "$AMOUNT"
}

// kindByWords maps each kind's notation words (and the old spellings) to the kind.
var kindByWords = func() map[string]MoveKind {
	w := map[string]MoveKind{}
	for k := range NumMoveKinds {
		if kinds[k].words != "" {
			w[kinds[k].words] = k
		}
	}
	for old, k := range oldWords {
		w[old] = k
	}
	return w
}()
