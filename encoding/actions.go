package encoding

import (
	"strings"

	"github.com/container-rl/container/env/rules"
)

// Action names are generic: the same id has the same name whoever decides, because seats in
// ids are relative to the decider ("+1" is the next player clockwise, "+0" the decider). They
// are the engine's notation with those relative seats (rules.ActionName).

var actionNames = buildActionNames()

// ActionName returns the generic name of action id, e.g. "pick:factory:red:$2",
// "sail:harbor:+1", "$17" (an amount counts from the amount built so far); "action(?)" for
// an id out of range.
func ActionName(id int) string {
	if id < 0 || id >= len(actionNames) {
		return "action(?)"
	}
	return actionNames[id]
}

// ActionNames returns a fresh slice with the name of every action id.
func ActionNames() []string { return append([]string(nil), actionNames...) }

// ActionID returns the id with the given generic name. It also reads the names earlier builds
// wrote for amounts ("amount:17" for "$17", "amount:+100" for "+$100").
func ActionID(name string) (int, bool) {
	if rest, ok := strings.CutPrefix(name, "amount:"); ok {
		name = "$" + rest
		if rest == "+100" {
			name = "+$100"
		}
	}
	for id, n := range actionNames {
		if n == name {
			return id, true
		}
	}
	return 0, false
}

func buildActionNames() []string {
	names := make([]string, rules.NumDistinctActions())
	for id := range names {
		names[id] = rules.ActionName(id)
	}
	return names
}
