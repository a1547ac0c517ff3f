package rules

import (
	"errors"
	"strings"
	"testing"
)

// Positions whose loans make no sense are refused with a message naming the problem: loan
// cards or player loans in a game without the Player Loans module, negative or impossible
// counts, more loans lent than cards, a seat lending to itself or from outside the table,
// loans below the $10 a loan costs. The largest sensible values are accepted.
func TestPositionLoansThatMakeNoSenseAreRefused(t *testing.T) {
	pos := func(modules, p0, p1, p2 string) []byte {
		return []byte(`{"options": {"players": 3, "modules": "` + modules + `"}, "players": [` +
			`{"factories": "w"` + p0 + `}, {"factories": "g"` + p1 + `}, {"factories": "r"` + p2 + `}]}`)
	}
	const pl = "player-loans"
	for _, tc := range []struct {
		name       string
		data       []byte
		want       string // "" : accepted
		lenderCard int    // with want "": seat 1's loan cards after loading (-1: not checked)
	}{
		// Without the module.
		{"loan cards without the module", pos("", `, "loan_cards": 1`, "", ""), "loan_cards without the player-loans module", -1},
		{"three loan cards without the module", pos("luxury", "", `, "loan_cards": 3`, ""), "loan_cards without the player-loans module", -1},
		{"zero loan cards without the module", pos("", `, "loan_cards": 0`, "", ""), "", -1},
		{"a player loan without the module", pos("trucks", `, "loans": [{"lender": 1, "amount": 10}]`, "", ""), "without the player-loans module", -1},
		{"Bank loans without the module", pos("", `, "loans": 2`, "", ""), "", -1},
		// Counts.
		{"negative loan cards", pos(pl, `, "loan_cards": -1`, "", ""), "-1 loan cards", -1},
		{"256 loan cards (a byte's wrap to 0)", pos(pl, `, "loan_cards": 256`, "", ""), "256 loan cards", -1},
		{"four loan cards", pos(pl, `, "loan_cards": 4`, "", ""), "4 loan cards in hand + 0 lent out; a player has 3", -1},
		{"two loan cards, none lent", pos(pl, `, "loan_cards": 2`, "", ""), "2 loan cards in hand + 0 lent out", -1},
		{"negative loans", pos(pl, `, "loans": -1`, "", ""), "-1 loans; a player has at most 2", -1},
		{"three Bank loans", pos(pl, `, "loans": 3`, "", ""), "3 loans; a player has at most 2", -1},
		{"three listed loans", pos(pl, `, "loans": [{"amount": 10}, {"amount": 10}, {"amount": 10}]`, "", ""), "3 loans; a player has at most 2", -1},
		{"a fractional loan count", pos(pl, `, "loans": 1.5`, "", ""), "loans must be a number of Bank loans or a list", -1},
		// Lenders and amounts.
		{"a loan from itself", pos(pl, `, "loans": [{"lender": 0, "amount": 10}]`, "", ""), "loan from 0, which is not an opponent's seat", -1},
		{"a loan from a seat past the table", pos(pl, `, "loans": [{"lender": 3, "amount": 10}]`, "", ""), "loan from 3, which is not an opponent's seat", -1},
		{"a loan from seat -2", pos(pl, `, "loans": [{"lender": -2, "amount": 10}]`, "", ""), "loan from -2, which is not an opponent's seat", -1},
		{"a player loan of $9", pos(pl, `, "loans": [{"lender": 1, "amount": 9}]`, "", ""), "player loan of $9; loans are at least $10", -1},
		{"a negative player loan", pos(pl, `, "loans": [{"lender": 1, "amount": -10}]`, "", ""), "player loan of $-10", -1},
		{"a Bank loan of $11", pos(pl, `, "loans": [{"amount": 11}]`, "", ""), "Bank loan of $11; Bank loans are $10", -1},
		// More loans lent than cards: seat 1 lent one loan to each of the others and says it
		// still holds all three cards, or lent four (two to each) with three cards in all.
		{"lent one, holds three", pos(pl, `, "loans": [{"lender": 1, "amount": 10}]`, "", `, "loans": [{"lender": 1, "amount": 12}]`),
			"", 1},
		{"lent two, claims three in hand", pos(pl, `, "loans": [{"lender": 1, "amount": 10}]`, `, "loan_cards": 3`, `, "loans": [{"lender": 1, "amount": 12}]`),
			"3 loan cards in hand + 2 lent out; a player has 3", -1},
		{"lent four", pos(pl, `, "loans": [{"lender": 1, "amount": 10}, {"lender": 1, "amount": 10}]`, "", `, "loans": [{"lender": 1, "amount": 12}, {"lender": 1, "amount": 30}]`),
			"loan cards", -1},
		// The largest sensible: three lent, none in hand; two loans each way.
		{"lent three, none in hand", pos(pl, `, "loans": [{"lender": 1, "amount": 10}, {"lender": 1, "amount": 10}]`, "", `, "loans": [{"lender": 1, "amount": 99}]`),
			"", 0},
		{"two loans from two lenders", pos(pl, `, "loans": [{"lender": 1, "amount": 10}, {"lender": 2, "amount": 10}]`, "", ""), "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := LoadPosition(tc.data)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v\n%s", err, tc.data)
				}
				if err := s.Validate(); err != nil {
					t.Fatalf("loaded but invalid: %v", err)
				}
				if tc.lenderCard >= 0 && int(s.Players[1].LoanCards) != tc.lenderCard {
					t.Errorf("seat 1 holds %d loan cards, want %d", s.Players[1].LoanCards, tc.lenderCard)
				}
				return
			}
			if !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want ErrBadPosition mentioning %q\n%s", err, tc.want, tc.data)
			}
		})
	}
}

// Validate itself (for positions built in code, not loaded) refuses a single loan card in a
// game without the module.
func TestValidateRefusesOneLoanCardWithoutTheModule(t *testing.T) {
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(1)
	s.Players[2].LoanCards = 1
	if err := s.Validate(); !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), "player 2: loan cards without the player-loans module") {
		t.Errorf("one loan card without the module: %v", err)
	}
}
