package play

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// The typed answer to a decision, as container play reads it. A decision lists its moves
// numbered from 1 and, where it takes an amount (a bid), the range of amounts:
//
//   - where the decision takes an amount, a bare number is the amount ("5" and "$5" are the
//     same bid) and a listed move is chosen as "#N" (or by its notation);
//   - elsewhere a number chooses the listed move ("3" or "#3");
//   - anything else is read as a move's notation ("end", "loan").
//
// So a number never means two things at one decision.

// MoveLabel is how listed move i (0-based) is numbered at a decision: "#1" where bare numbers
// are amounts, "1" elsewhere.
func MoveLabel(i int, am *Amounts) string {
	if am != nil {
		return "#" + strconv.Itoa(i+1)
	}
	return strconv.Itoa(i + 1)
}

// ParseInput reads line, typed at the decision of s (the human's view) whose listed moves are
// moves and whose amounts are am (nil: it takes none). Its errors are one plain line for the
// human, ending with what may be typed instead.
func ParseInput(s *rules.State, line string, moves []rules.Move, am *Amounts) (rules.Move, error) {
	line = strings.TrimSpace(line)
	hint := InputHint(moves, am)
	if rest, ok := strings.CutPrefix(line, "#"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil {
			return rules.Move{}, fmt.Errorf("%s is not a move here; %s", rules.Quote(line), hint)
		}
		return listed(n, moves, am, hint)
	}
	if digits, isAmount := amountText(line); digits != "" {
		n, err := strconv.Atoi(digits)
		switch {
		case am == nil && isAmount:
			return rules.Move{}, fmt.Errorf("this decision takes no amount; %s", hint)
		case am == nil:
			if err != nil {
				return rules.Move{}, fmt.Errorf("no move numbered %s; %s", digits, hint)
			}
			return listed(n, moves, am, hint)
		case err != nil || n < am.Min || n > am.Max:
			return rules.Move{}, fmt.Errorf("$%s is not an amount you can choose now (from $%d to $%d); %s", digits, am.Min, am.Max, hint)
		}
		return rules.Move{Kind: rules.Amount, Amount: int32(n)}, nil
	}
	m, err := s.ParseMove(line)
	if err != nil || (m.Kind == rules.Amount && am == nil) {
		return rules.Move{}, fmt.Errorf("%s is not a move here; %s", rules.Quote(line), hint)
	}
	return m, nil
}

// amountText returns the digits of a bare number ("5") or of a dollar amount ("$5"), isAmount
// saying which; digits is "" for any other text.
func amountText(line string) (digits string, isAmount bool) {
	rest, isAmount := strings.CutPrefix(line, "$")
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.TrimLeft(rest, "0123456789") != "" {
		return "", false
	}
	return rest, isAmount
}

// listed is listed move n (1-based) or an error saying which numbers there are.
func listed(n int, moves []rules.Move, am *Amounts, hint string) (rules.Move, error) {
	if n >= 1 && n <= len(moves) {
		return moves[n-1], nil
	}
	if len(moves) == 0 {
		return rules.Move{}, fmt.Errorf("no moves are numbered here; %s", hint)
	}
	return rules.Move{}, fmt.Errorf("no move numbered %s; %s", MoveLabel(n-1, am), hint)
}

// InputHint says what may be typed at a decision with these listed moves and amounts:
// "type a number 1-7, a move such as end, or help"; "type an amount from $0 to $25 ($
// optional), #1 for loan, or help".
func InputHint(moves []rules.Move, am *Amounts) string {
	var parts []string
	if am != nil {
		parts = append(parts, fmt.Sprintf("an amount from $%d to $%d ($ optional)", am.Min, am.Max))
	}
	switch n := len(moves); {
	case n == 1:
		parts = append(parts, MoveLabel(0, am)+" for "+moves[0].String())
	case n > 1:
		span := fmt.Sprintf("a number %d-%d", 1, n)
		if am != nil {
			span = fmt.Sprintf("#1-#%d for a listed move", n)
		}
		parts = append(parts, span, "a move such as "+moves[0].String())
	}
	parts = append(parts, "help")
	if len(parts) == 2 {
		return "type " + parts[0] + " or " + parts[1]
	}
	return "type " + strings.Join(parts[:len(parts)-1], ", ") + ", or " + parts[len(parts)-1]
}
