package encoding

import (
	"fmt"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func TestActionNamesAreUniqueAndCoverTheActionSpace(t *testing.T) {
	names := ActionNames()
	if len(names) != rules.NumDistinctActions() {
		t.Fatalf("%d names for %d actions", len(names), rules.NumDistinctActions())
	}
	seen := map[string]int{}
	for id, n := range names {
		if prev, dup := seen[n]; dup {
			t.Errorf("ids %d and %d are both named %q", prev, id, n)
		}
		seen[n] = id
		if got, ok := ActionID(n); !ok || got != id {
			t.Errorf("ActionID(%q) = %d, %v; want %d", n, got, ok, id)
		}
	}
	for _, want := range []string{"pick:factory:red:$2", "sail:harbor:+1", "$17", "+$100", "end", "place:$6", "pick:harbor:gold:$6"} {
		if _, ok := ActionID(want); !ok {
			t.Errorf("no action named %q", want)
		}
	}
	// Names of earlier builds still resolve: amounts were amount:N and amount:+100.
	for old, now := range map[string]string{"amount:17": "$17", "amount:0": "$0", "amount:+100": "+$100"} {
		a, okA := ActionID(old)
		b, okB := ActionID(now)
		if !okA || !okB || a != b {
			t.Errorf("ActionID(%q) = %d, %v; ActionID(%q) = %d, %v", old, a, okA, now, b, okB)
		}
	}
	if ActionName(-1) != "action(?)" || ActionName(len(names)) != "action(?)" {
		t.Error("out-of-range ids must be named action(?)")
	}
}

// genericName names a decoded Move the way ActionName does, with seats relative to decider.
func genericName(m rules.Move, decider, n int) string {
	rel := (int(m.Seat) - decider + n) % n
	switch m.Kind {
	case rules.RepayLoan:
		return fmt.Sprintf("repay:%d", m.Index)
	case rules.BuildFactory:
		return "build:factory:" + m.Colour.String()
	case rules.FactoryPurchase:
		return fmt.Sprintf("buy-factory:+%d", rel)
	case rules.Reprice:
		return "reprice:" + rules.District(m.Index).String()
	case rules.SailHarbor:
		return fmt.Sprintf("sail:harbor:+%d", rel)
	case rules.CallBankStart:
		if m.Index < rules.BankLots {
			return fmt.Sprintf("bank:start:container-lot:%d", m.Index+1)
		}
		return fmt.Sprintf("bank:start:cash-lot:%d", m.Index-rules.BankLots+1)
	case rules.CallBankRaise:
		return "bank:raise:" + rules.AuctionKind(m.Index).String()
	case rules.TruckStart:
		bid := "cash"
		if m.Index == 1 {
			bid = "containers"
		}
		return fmt.Sprintf("truck:start:+%d:%s", rel, bid)
	case rules.AcquireLuxury:
		return "luxury:" + rules.District(m.Index).String()
	case rules.Place:
		return fmt.Sprintf("place:$%d", m.Price)
	case rules.PickFactory:
		return fmt.Sprintf("pick:factory:%s:$%d", m.Colour, m.Price)
	case rules.PickHarbor:
		return fmt.Sprintf("pick:harbor:%s:$%d", m.Colour, m.Price)
	case rules.PickShip, rules.PickHolding, rules.PickIsland:
		where := map[rules.MoveKind]string{rules.PickShip: "ship", rules.PickHolding: "holding", rules.PickIsland: "island"}[m.Kind]
		return fmt.Sprintf("pick:%s:%s", where, m.Colour)
	case rules.PickColour:
		return "colour:" + m.Colour.String()
	case rules.Amount:
		return fmt.Sprintf("$%d", m.Amount)
	case rules.ChooseSeat:
		return fmt.Sprintf("seat:+%d", rel)
	case rules.PayInterest:
		return fmt.Sprintf("pay-interest:%d", m.Index)
	}
	first, _ := rules.KindBase(m.Kind)
	return actionNames[first] // kinds with one id
}

func TestActionNamesMatchTheEngineDecoding(t *testing.T) {
	g := newGame(t, rules.Options{Players: 5, Modules: rules.AllModules})
	s := g.NewInitialStateSeed(3)
	decider := s.CurrentPlayer()
	for id := 0; id < rules.NumDistinctActions(); id++ {
		m := s.ActionToMove(id)
		if got := genericName(m, decider, 5); got != ActionName(id) {
			t.Errorf("id %d: engine decodes %+v (%q), ActionName says %q", id, m, got, ActionName(id))
		}
	}
}
