package rules

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// noPanic runs f and reports a panic as a test error naming what was called.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panics: %v", what, r)
		}
	}()
	f()
}

// A kind, an auction kind or an action id just past the end of its table (as a corrupt file
// or a caller's arithmetic can give) is named, refused or clamped, never a panic: the kind
// NumMoveKinds is "kind(N)" with no phases, its move is "move(N)" with no id, a bank raise of
// auction kind NumAuctionKinds is written "move(N)", and the action ids -1 and
// NumDistinctActions decode to the first and the last kind with no arguments.
func TestValuesJustPastTheKindTablesNeverPanic(t *testing.T) {
	s := newTestState(t, Options{Players: 4})
	past := Move{Kind: NumMoveKinds}
	noPanic(t, "MoveKind.String", func() {
		if got, want := NumMoveKinds.String(), "kind("+strconv.Itoa(int(NumMoveKinds))+")"; got != want {
			t.Errorf("NumMoveKinds.String() = %q, want %q", got, want)
		}
	})
	noPanic(t, "MoveKind.Phases", func() {
		if p := NumMoveKinds.Phases(); p != 0 {
			t.Errorf("NumMoveKinds.Phases() = %b, want none", p)
		}
	})
	noPanic(t, "Move.String", func() {
		if got, want := past.String(), fmt.Sprintf("move(%d)", NumMoveKinds); got != want {
			t.Errorf("Move{Kind: NumMoveKinds}.String() = %q, want %q", got, want)
		}
	})
	noPanic(t, "MoveToAction", func() {
		if id, ok := s.MoveToAction(past); ok {
			t.Errorf("Move{Kind: NumMoveKinds} has id %d", id)
		}
	})
	noPanic(t, "Move.String of a bank raise", func() {
		m := Move{Kind: CallBankRaise, Index: NumAuctionKinds}
		if got, want := m.String(), fmt.Sprintf("move(%d)", CallBankRaise); got != want {
			t.Errorf("bank raise of auction kind %d: %q, want %q", NumAuctionKinds, got, want)
		}
	})
	noPanic(t, "ActionToMove", func() {
		if m := s.ActionToMove(NumDistinctActions()); m != (Move{Kind: NumMoveKinds - 1}) {
			t.Errorf("ActionToMove(NumDistinctActions()) = %+v, want the last kind, no arguments", m)
		}
		if m := s.ActionToMove(-1); m != (Move{}) {
			t.Errorf("ActionToMove(-1) = %+v, want the first kind, no arguments", m)
		}
	})
}

// A phase set holds phases only: even the set with every bit on does not report a value past
// the last phase (a Phase read from a corrupt file), and no kind is legal in one.
func TestPhaseSetHasNoValuePastTheLastPhase(t *testing.T) {
	full := ^PhaseSet(0)
	for p := range 256 {
		if got, want := full.Has(Phase(p)), p < int(NumPhases); got != want {
			t.Errorf("full set Has(%d) = %v, want %v (%d phases)", p, got, want, NumPhases)
		}
	}
	for k := range NumMoveKinds {
		if k.Phases().Has(NumPhases) {
			t.Errorf("kind %s is legal in phase %d, past the last", k, NumPhases)
		}
	}
}

// A move whose argument is one past its kind's range (loan slot MaxLoans, auction kind
// NumAuctionKinds, a colour past the last, place price $7, ...) has no action id: it is not
// taken for the first id of the next kind.
func TestMoveToActionRefusesAnArgumentOnePastItsKindsRange(t *testing.T) {
	s := newTestState(t, Options{Players: 4})
	checked := 0
	for k := range NumMoveKinds {
		switch kindArgs[k] {
		case argNone, argSeatNext, argSeat, argTruck:
			continue // no argument, or a seat (taken relative to the decider)
		}
		m := moveOf(k, kindSize[k])
		if id, ok := s.MoveToAction(m); ok {
			t.Errorf("%s %+v (one past the kind's %d ids) has id %d (%s)", k, m, kindSize[k], id, s.ActionToMove(id))
		}
		checked++
	}
	if checked < 15 {
		t.Fatalf("test setup: only %d kinds checked", checked)
	}
}

// The notation reads every amount an Amount move holds, up to the largest int32, and refuses
// one more with a one-line error.
func TestParseMoveReadsAmountsUpToTheLargestInt32(t *testing.T) {
	s := newTestState(t, Options{Players: 4})
	m, err := s.ParseMove("$" + strconv.Itoa(math.MaxInt32))
	if err != nil || m != (Move{Kind: Amount, Amount: math.MaxInt32}) {
		t.Errorf("$%d: %+v, %v", math.MaxInt32, m, err)
	}
	text := "$" + strconv.Itoa(math.MaxInt32+1)
	if _, err := s.ParseMove(text); !errors.Is(err, ErrBadNotation) || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "want an amount") {
		t.Errorf("%s: %v", text, err)
	}
}

// A move's leading word that no kind has is reported as an unknown move; a word that begins
// kinds' notations but is not followed by a known word lists those kinds' notations.
func TestParseMoveErrorsSayWhatIsWanted(t *testing.T) {
	s := newTestState(t, Options{Players: 4})
	for _, c := range []struct{ text, want string }{
		{"fly", `unknown move "fly"`},
		{"fly:p2", `unknown move "fly:p2"`},
		{"build:castle", "want build:factory:COLOUR or build:warehouse"},
		{"pick:boat:red", "want pick:factory:COLOUR:$PRICE or pick:harbor:COLOUR:$PRICE or pick:ship:COLOUR or pick:holding:COLOUR or pick:island:COLOUR"},
	} {
		_, err := s.ParseMove(c.text)
		if !errors.Is(err, ErrBadNotation) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want a one-line error with %q", c.text, err, c.want)
		}
	}
}

// Loan slots are 0..MaxLoans-1 in the notation (repay, pay-interest): the last is read, the
// one past it is refused with the range.
func TestParseMoveLoanSlotsEndAtTheLastSlot(t *testing.T) {
	s := newTestState(t, Options{Players: 4})
	for _, words := range []string{"repay", "pay-interest"} {
		last := words + ":" + strconv.Itoa(MaxLoans-1)
		if m, err := s.ParseMove(last); err != nil || m.Index != MaxLoans-1 {
			t.Errorf("%s: %+v, %v", last, m, err)
		}
		past := words + ":" + strconv.Itoa(MaxLoans)
		want := fmt.Sprintf("want a number 0..%d", MaxLoans-1)
		if m, err := s.ParseMove(past); !errors.Is(err, ErrBadNotation) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %+v, %v; want an error with %q", past, m, err, want)
		}
	}
}
