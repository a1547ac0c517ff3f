package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// This file converts between action ids, Moves and the text notation.

// ActionToMove decodes an action id for the current decider.
func (s *State) ActionToMove(id int) Move {
	k := MoveKind(0)
	for k+1 < NumMoveKinds && kindBase[k+1] <= id {
		k++
	}
	i := id - kindBase[k]
	m := Move{Kind: k}
	switch k {
	case RepayLoan, PayInterest, Reprice, CallBankStart, CallBankRaise, AcquireLuxury:
		m.Index = uint8(i)
	case BuildFactory, PickShip, PickHolding, PickIsland, PickColour:
		m.Colour = Colour(i)
	case FactoryPurchase, SailHarbor:
		m.Seat = int8(s.abs(i + 1))
	case ChooseSeat:
		m.Seat = int8(s.abs(i))
	case TruckStart:
		m.Seat = int8(s.abs(i / 2))
		m.Index = uint8(i % 2)
	case Place:
		m.Price = uint8(i + 1)
	case PickFactory:
		m.Colour = Colour(i / FactoryPrices)
		m.Price = uint8(FactoryPrice(i % FactoryPrices))
	case PickHarbor:
		m.Colour = Colour(i / HarborPrices)
		m.Price = uint8(HarborPrice(i % HarborPrices))
	case Amount:
		m.Amount = s.machine.AmountBase + int32(i)
	}
	return m
}

// MoveToAction encodes a move for the current decider; ok is false for a move without an id
// (an amount more than MaxAmountID above the amount built so far, reached with AmountHundred
// first) or with arguments out of range.
func (s *State) MoveToAction(m Move) (id int, ok bool) {
	i := 0
	switch m.Kind {
	case RepayLoan, PayInterest, Reprice, CallBankStart, CallBankRaise, AcquireLuxury:
		i = int(m.Index)
	case BuildFactory, PickShip, PickHolding, PickIsland, PickColour:
		i = int(m.Colour)
	case FactoryPurchase, SailHarbor:
		i = s.rel(int(m.Seat)) - 1
	case ChooseSeat:
		i = s.rel(int(m.Seat))
	case TruckStart:
		i = 2*s.rel(int(m.Seat)) + int(m.Index)
	case Place:
		i = int(m.Price) - 1
	case PickFactory:
		i = int(m.Colour)*FactoryPrices + int(m.Price) - 1
		if m.Price < 1 || int(m.Price) > FactoryPrices {
			return 0, false
		}
	case PickHarbor:
		i = int(m.Colour)*HarborPrices + int(m.Price) - 2
		if m.Price < 2 || int(m.Price) > HarborPrices+1 {
			return 0, false
		}
	case Amount:
		i = int(m.Amount - s.machine.AmountBase)
		if i < 0 || i > MaxAmountID {
			return 0, false
		}
	}
	if m.Kind >= NumMoveKinds || i < 0 || i >= kindSize[m.Kind] {
		return 0, false
	}
	return kindBase[m.Kind] + i, true
}

var bankLotNames = [2]string{"container-lot", "cash-lot"}

func seatName(seat int8) string { return "p" + strconv.Itoa(int(seat)+1) }

// String writes the move in the short notation State.ParseMove reads (seats 1-based: p1..p5).
func (m Move) String() string {
	switch m.Kind {
	case EndTurn:
		return "end"
	case Done:
		return "done"
	case TakeLoan:
		return "loan"
	case RepayLoan:
		return "repay:" + strconv.Itoa(int(m.Index))
	case BuildFactory:
		return "build:factory:" + m.Colour.String()
	case BuildWarehouse:
		return "build:warehouse"
	case Produce:
		return "produce"
	case FactoryPurchase:
		return "buy-factory:" + seatName(m.Seat)
	case HarborPurchase:
		return "buy-harbor"
	case Reprice:
		return "reprice:" + District(m.Index).String()
	case SailOcean:
		return "sail:ocean"
	case SailIsland:
		return "sail:island"
	case SailBank:
		return "sail:bank"
	case SailHarbor:
		return "sail:" + seatName(m.Seat)
	case CallBankStart:
		return fmt.Sprintf("bank:start:%s:%d", bankLotNames[m.Index/BankLots%2], int(m.Index)%BankLots+1)
	case CallBankRaise:
		if int(m.Index) < NumAuctionKinds {
			return "bank:raise:" + auctionKindNames[m.Index]
		}
	case TruckStart:
		cur := "cash"
		if m.Index == 1 {
			cur = "containers"
		}
		return "truck:start:" + seatName(m.Seat) + ":" + cur
	case AcquireLuxury:
		return "luxury:" + District(m.Index).String()
	case Place:
		return "place:$" + strconv.Itoa(int(m.Price))
	case PickFactory:
		return fmt.Sprintf("pick:factory:%s:$%d", m.Colour, m.Price)
	case PickHarbor:
		return fmt.Sprintf("pick:harbor:%s:$%d", m.Colour, m.Price)
	case PickShip:
		return "pick:ship:" + m.Colour.String()
	case PickHolding:
		return "pick:holding:" + m.Colour.String()
	case PickIsland:
		return "pick:island:" + m.Colour.String()
	case PickColour:
		return "colour:" + m.Colour.String()
	case Amount:
		return "$" + strconv.Itoa(int(m.Amount))
	case Yes:
		return "yes"
	case No:
		return "no"
	case ChooseSeat:
		return "seat:" + seatName(m.Seat)
	case PayInterest:
		return "pay-interest:" + strconv.Itoa(int(m.Index))
	case AmountHundred:
		return "+$100"
	}
	return fmt.Sprintf("move(%d)", m.Kind)
}

// ErrBadNotation is wrapped by every ParseMove error.
var ErrBadNotation = errors.New("rules: bad move notation")

// ParseMove reads a move in the notation Move.String writes.
func (s *State) ParseMove(text string) (Move, error) {
	m, err := parseMove(strings.TrimSpace(strings.ToLower(text)), s.n())
	if err != nil {
		return Move{}, fmt.Errorf("%w %s: %v", ErrBadNotation, Quote(text), err)
	}
	return m, nil
}

func parseMove(t string, players int) (Move, error) {
	f := strings.Split(t, ":")
	seat := func(x string) (int8, error) {
		if len(x) < 2 || x[0] != 'p' {
			return 0, fmt.Errorf("want a seat p1..p%d, got %s", players, Quote(x))
		}
		v, err := strconv.Atoi(x[1:])
		if err != nil || v < 1 || v > players {
			return 0, fmt.Errorf("want a seat p1..p%d, got %s", players, Quote(x))
		}
		return int8(v - 1), nil
	}
	num := func(x string, lo, hi int) (int, error) {
		v, err := strconv.Atoi(x)
		if err != nil || v < lo || v > hi {
			return 0, fmt.Errorf("want a number %d..%d, got %s", lo, hi, Quote(x))
		}
		return v, nil
	}
	price := func(x string, lo, hi int) (uint8, error) {
		if !strings.HasPrefix(x, "$") {
			return 0, fmt.Errorf("want a price $%d..$%d, got %s", lo, hi, Quote(x))
		}
		v, err := num(x[1:], lo, hi)
		return uint8(v), err
	}
	district := func(x string) (uint8, error) {
		switch x {
		case "factory":
			return uint8(FactoryDistrict), nil
		case "harbor":
			return uint8(HarborDistrict), nil
		}
		return 0, fmt.Errorf("want factory or harbor, got %s", Quote(x))
	}
	nargs := func(k int) error {
		if len(f) != k {
			return fmt.Errorf("want %d fields separated by ':', got %d", k, len(f))
		}
		return nil
	}
	var m Move
	var err error
	switch {
	case t == "+$100":
		return Move{Kind: AmountHundred}, nil
	case len(f) == 1 && strings.HasPrefix(t, "$"):
		v, e := strconv.Atoi(t[1:])
		if e != nil || v < 0 {
			return m, fmt.Errorf("want an amount $0 or more")
		}
		return Move{Kind: Amount, Amount: int32(v)}, nil
	}
	switch f[0] {
	case "end", "done", "loan", "produce", "buy-harbor", "yes", "no":
		if err = nargs(1); err != nil {
			return m, err
		}
		m.Kind = map[string]MoveKind{"end": EndTurn, "done": Done, "loan": TakeLoan, "produce": Produce,
			"buy-harbor": HarborPurchase, "yes": Yes, "no": No}[f[0]]
		return m, nil
	case "repay", "pay-interest":
		if err = nargs(2); err != nil {
			return m, err
		}
		m.Kind = RepayLoan
		if f[0] == "pay-interest" {
			m.Kind = PayInterest
		}
		v, e := num(f[1], 0, MaxLoans-1)
		m.Index = uint8(v)
		return m, e
	case "build":
		if len(f) == 2 && f[1] == "warehouse" {
			return Move{Kind: BuildWarehouse}, nil
		}
		if err = nargs(3); err != nil || f[1] != "factory" {
			return m, fmt.Errorf("want build:warehouse or build:factory:COLOUR")
		}
		m.Kind = BuildFactory
		m.Colour, err = ParseColour(f[2])
		return m, err
	case "buy-factory", "seat":
		if err = nargs(2); err != nil {
			return m, err
		}
		m.Kind = FactoryPurchase
		if f[0] == "seat" {
			m.Kind = ChooseSeat
		}
		m.Seat, err = seat(f[1])
		return m, err
	case "reprice", "luxury":
		if err = nargs(2); err != nil {
			return m, err
		}
		m.Kind = Reprice
		if f[0] == "luxury" {
			m.Kind = AcquireLuxury
		}
		m.Index, err = district(f[1])
		return m, err
	case "sail":
		if err = nargs(2); err != nil {
			return m, err
		}
		switch f[1] {
		case "ocean":
			m.Kind = SailOcean
		case "island":
			m.Kind = SailIsland
		case "bank":
			m.Kind = SailBank
		default:
			m.Kind = SailHarbor
			m.Seat, err = seat(f[1])
		}
		return m, err
	case "bank":
		if len(f) == 3 && f[1] == "raise" {
			for i, n := range auctionKindNames {
				if f[2] == n {
					return Move{Kind: CallBankRaise, Index: uint8(i)}, nil
				}
			}
			return m, fmt.Errorf("want bank:raise:container-lot|cash-lot|truck")
		}
		if len(f) != 4 || f[1] != "start" {
			return m, fmt.Errorf("want bank:start:container-lot|cash-lot:1..3 or bank:raise:KIND")
		}
		v, e := num(f[3], 1, BankLots)
		if e != nil {
			return m, e
		}
		switch f[2] {
		case "container-lot":
			return Move{Kind: CallBankStart, Index: uint8(v - 1)}, nil
		case "cash-lot":
			return Move{Kind: CallBankStart, Index: uint8(BankLots + v - 1)}, nil
		}
		return m, fmt.Errorf("want container-lot or cash-lot, got %s", Quote(f[2]))
	case "truck":
		if err = nargs(4); err != nil || f[1] != "start" {
			return m, fmt.Errorf("want truck:start:SEAT:cash|containers")
		}
		m.Kind = TruckStart
		if m.Seat, err = seat(f[2]); err != nil {
			return m, err
		}
		switch f[3] {
		case "cash":
		case "containers":
			m.Index = 1
		default:
			return m, fmt.Errorf("want cash or containers, got %s", Quote(f[3]))
		}
		return m, nil
	case "place":
		if err = nargs(2); err != nil {
			return m, err
		}
		m.Kind = Place
		m.Price, err = price(f[1], 1, HarborPrices+1)
		return m, err
	case "colour", "color":
		if err = nargs(2); err != nil {
			return m, err
		}
		m.Kind = PickColour
		m.Colour, err = ParseColour(f[1])
		return m, err
	case "pick":
		if len(f) < 3 {
			return m, fmt.Errorf("want pick:WHERE:COLOUR")
		}
		if m.Colour, err = ParseColour(f[2]); err != nil {
			return m, err
		}
		switch f[1] {
		case "factory", "harbor":
			if err = nargs(4); err != nil {
				return m, err
			}
			if f[1] == "factory" {
				m.Kind = PickFactory
				m.Price, err = price(f[3], 1, FactoryPrices)
			} else {
				m.Kind = PickHarbor
				m.Price, err = price(f[3], 2, HarborPrices+1)
			}
			return m, err
		case "ship", "holding", "island":
			if err = nargs(3); err != nil {
				return m, err
			}
			m.Kind = map[string]MoveKind{"ship": PickShip, "holding": PickHolding, "island": PickIsland}[f[1]]
			return m, nil
		}
		return m, fmt.Errorf("want pick:factory|harbor|ship|holding|island, got %s", Quote(f[1]))
	}
	return m, fmt.Errorf("unknown move %s", Quote(t))
}
