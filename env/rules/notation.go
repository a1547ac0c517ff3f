package rules

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file converts between action ids, Moves and the text notation, following the kind
// table (kinds.go).

// ActionToMove decodes an action id for the current decider.
func (s *State) ActionToMove(id int) Move {
	if id < 0 || id >= len(idMove) {
		// Out of range: the nearest kind, with no arguments (as earlier builds did).
		if id < 0 {
			return Move{Kind: 0}
		}
		return Move{Kind: NumMoveKinds - 1}
	}
	m := idMove[id]
	switch kindArgs[m.Kind] {
	case argSeatNext, argSeat, argTruck:
		m.Seat = int8(s.abs(int(m.Seat)))
	case argAmount:
		m.Amount += s.machine.AmountBase
	}
	return m
}

// MoveToAction encodes a move for the current decider; ok is false for a move without an id
// (an amount more than MaxAmountID above the amount built so far, reached with AmountHundred
// first) or with arguments out of range.
func (s *State) MoveToAction(m Move) (id int, ok bool) {
	if m.Kind >= NumMoveKinds {
		return 0, false
	}
	i := 0
	switch kindArgs[m.Kind] { // the inverse of moveOf, for the decider's seats and amount
	case argLoanSlot, argDistrict, argBankLot, argAuction:
		i = int(m.Index)
	case argColour:
		i = int(m.Colour)
	case argSeatNext:
		i = s.rel(int(m.Seat)) - 1
	case argSeat:
		i = s.rel(int(m.Seat))
	case argTruck:
		if m.Index > 1 {
			return 0, false
		}
		i = 2*s.rel(int(m.Seat)) + int(m.Index)
	case argPlacePrice:
		i = int(m.Price) - 1
	case argFactoryLot:
		if m.Price < 1 || int(m.Price) > FactoryPrices || m.Colour >= NumColours {
			return 0, false
		}
		i = int(m.Colour)*FactoryPrices + int(m.Price) - 1
	case argHarborLot:
		if m.Price < 2 || int(m.Price) > HarborPrices+1 || m.Colour >= NumColours {
			return 0, false
		}
		i = int(m.Colour)*HarborPrices + int(m.Price) - 2
	case argAmount:
		a := m.Amount - s.machine.AmountBase
		if a < 0 || a > MaxAmountID {
			return 0, false
		}
		i = int(a)
	}
	if i < 0 || i >= kindSize[m.Kind] {
		return 0, false
	}
	return kindBase[m.Kind] + i, true
}

// String writes the move in the notation State.ParseMove reads: the kind's words and the
// arguments, separated by ':' (seats 1-based: p1..p5; docs/RULES.md section 11).
func (m Move) String() string { return m.text(false) }

// ErrBadNotation is wrapped by every ParseMove error.
var ErrBadNotation = errors.New("rules: bad move notation")

// ParseMove reads a move in the notation Move.String writes, and the spellings of earlier
// builds (sail:pN for sail:harbor:pN, color: for colour:).
func (s *State) ParseMove(text string) (Move, error) {
	m, err := parseMove(strings.TrimSpace(strings.ToLower(text)), s.n())
	if err != nil {
		return Move{}, fmt.Errorf("%w %s: %v", ErrBadNotation, Quote(text), err)
	}
	return m, nil
}

func parseMove(t string, players int) (Move, error) {
	if strings.HasPrefix(t, "$") && !strings.Contains(t, ":") {
		v, e := strconv.Atoi(t[1:])
		if e != nil || v < 0 || v > math.MaxInt32 {
			return Move{}, fmt.Errorf("want an amount $0 or more")
		}
		return Move{Kind: Amount, Amount: int32(v)}, nil
	}
	f := strings.Split(t, ":")
	// The longest leading fields that name a kind.
	n := len(f)
	k, ok := MoveKind(0), false
	for ; n > 0 && !ok; n-- {
		k, ok = kindByWords[strings.Join(f[:n], ":")]
	}
	if !ok {
		var want []string
		for k := range NumMoveKinds {
			if w, _, _ := strings.Cut(kinds[k].words, ":"); w == f[0] {
				want = append(want, k.usage())
			}
		}
		if len(want) > 0 {
			return Move{}, fmt.Errorf("want %s", strings.Join(want, " or "))
		}
		return Move{}, fmt.Errorf("unknown move %s", Quote(t))
	}
	return parseArgs(k, f[n+1:], players)
}

// parseArgs reads the argument fields of a move of kind k.
func parseArgs(k MoveKind, a []string, players int) (Move, error) {
	m := Move{Kind: k}
	shape := kinds[k].args
	want := map[argShape]int{argNone: 0, argBankLot: 2, argTruck: 2, argFactoryLot: 2, argHarborLot: 2}
	nargs, ok := want[shape]
	if !ok {
		nargs = 1
	}
	if len(a) != nargs {
		return m, fmt.Errorf("want %s", k.usage())
	}
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
	var err error
	switch shape {
	case argLoanSlot:
		var v int
		v, err = num(a[0], 0, MaxLoans-1)
		m.Index = uint8(v)
	case argDistrict:
		switch a[0] {
		case "factory":
			m.Index = uint8(FactoryDistrict)
		case "harbor":
			m.Index = uint8(HarborDistrict)
		default:
			err = fmt.Errorf("want factory or harbor, got %s", Quote(a[0]))
		}
	case argColour:
		m.Colour, err = ParseColour(a[0])
	case argSeatNext, argSeat:
		m.Seat, err = seat(a[0])
	case argBankLot:
		var v int
		if v, err = num(a[1], 1, BankLots); err != nil {
			return m, err
		}
		switch a[0] {
		case ContainerLotAuction.String():
			m.Index = uint8(v - 1)
		case CashLotAuction.String():
			m.Index = uint8(BankLots + v - 1)
		default:
			err = fmt.Errorf("want container-lot or cash-lot, got %s", Quote(a[0]))
		}
	case argAuction:
		err = fmt.Errorf("want %s", k.usage())
		for i, name := range auctionKindNames {
			if a[0] == name {
				m.Index, err = uint8(i), nil
			}
		}
	case argTruck:
		if m.Seat, err = seat(a[0]); err != nil {
			return m, err
		}
		switch a[1] {
		case "cash":
		case "containers":
			m.Index = 1
		default:
			err = fmt.Errorf("want cash or containers, got %s", Quote(a[1]))
		}
	case argPlacePrice:
		m.Price, err = price(a[0], 1, HarborPrices+1)
	case argFactoryLot, argHarborLot:
		if m.Colour, err = ParseColour(a[0]); err != nil {
			return m, err
		}
		if shape == argFactoryLot {
			m.Price, err = price(a[1], 1, FactoryPrices)
		} else {
			m.Price, err = price(a[1], 2, HarborPrices+1)
		}
	}
	return m, err
}
