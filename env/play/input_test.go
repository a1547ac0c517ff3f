package play

import (
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func inputState(t *testing.T) *rules.State {
	t.Helper()
	g, err := rules.NewGame(rules.Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	return g.NewInitialStateSeed(1)
}

// At an amount decision a number is an amount, bare or with $; listed moves are #N.
func TestParseInputAtAnAmountDecision(t *testing.T) {
	s := inputState(t)
	loan := rules.Move{Kind: rules.TakeLoan}
	am := &Amounts{Min: 0, Max: 25}
	for line, want := range map[string]rules.Move{
		"5":    {Kind: rules.Amount, Amount: 5},
		"$5":   {Kind: rules.Amount, Amount: 5},
		" 25 ": {Kind: rules.Amount, Amount: 25},
		"0":    {Kind: rules.Amount, Amount: 0},
		"#1":   loan,
		"# 1":  loan,
	} {
		m, err := ParseInput(s, line, []rules.Move{loan}, am)
		if err != nil || m != want {
			t.Errorf("%q: %v, %v; want %v", line, m, err, want)
		}
	}
	for line, want := range map[string]string{
		"26":  "$26 is not an amount you can choose now (from $0 to $25); type an amount from $0 to $25 ($ optional), #1 for loan, or help",
		"$99": "$99 is not an amount you can choose now (from $0 to $25)",
		"#2":  "no move numbered #2; type an amount",
		"foo": `"foo" is not a move here; type an amount from $0 to $25 ($ optional), #1 for loan, or help`,
		"$x":  `"$x" is not a move here`,
		"#x":  `"#x" is not a move here`,
		"-3":  `"-3" is not a move here`,
	} {
		_, err := ParseInput(s, line, []rules.Move{loan}, am)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: error %v; want one starting %q", line, err, want)
		}
	}
	// Without numbered moves, #1 says there are none (never "1..0").
	_, err := ParseInput(s, "#1", nil, am)
	if err == nil || err.Error() != "no moves are numbered here; type an amount from $0 to $25 ($ optional) or help" {
		t.Errorf("#1 with no listed moves: %v", err)
	}
}

// Elsewhere a number (or #N) chooses a listed move and an amount is refused.
func TestParseInputAtAMoveDecision(t *testing.T) {
	s := inputState(t)
	moves := []rules.Move{{Kind: rules.EndTurn}, {Kind: rules.TakeLoan}, {Kind: rules.Produce}}
	for line, want := range map[string]rules.Move{"1": moves[0], "#3": moves[2], "3": moves[2], "end": moves[0], "loan": moves[1]} {
		m, err := ParseInput(s, line, moves, nil)
		if err != nil || m != want {
			t.Errorf("%q: %v, %v; want %v", line, m, err, want)
		}
	}
	for line, want := range map[string]string{
		"4":   "no move numbered 4; type a number 1-3, a move such as end, or help",
		"0":   "no move numbered 0; type a number 1-3",
		"$5":  "this decision takes no amount; type a number 1-3",
		"foo": `"foo" is not a move here; type a number 1-3, a move such as end, or help`,
	} {
		_, err := ParseInput(s, line, moves, nil)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: error %v; want one starting %q", line, err, want)
		}
	}
}
