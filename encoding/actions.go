package encoding

import (
	"fmt"

	"github.com/container-rl/container/env/rules"
)

// Action names are generic: the same id has the same name whoever decides, because seats in
// ids are relative to the decider ("+1" is the next player clockwise, "+0" the decider).

var actionNames = buildActionNames()

// ActionName returns the generic name of action id, e.g. "pick:factory:red:$2",
// "sail:harbor:+1", "amount:17"; "action(?)" for an id out of range.
func ActionName(id int) string {
	if id < 0 || id >= len(actionNames) {
		return "action(?)"
	}
	return actionNames[id]
}

// ActionNames returns a fresh slice with the name of every action id.
func ActionNames() []string { return append([]string(nil), actionNames...) }

// ActionID returns the id with the given generic name.
func ActionID(name string) (int, bool) {
	for id, n := range actionNames {
		if n == name {
			return id, true
		}
	}
	return 0, false
}

var auctionKindNames = [rules.NumAuctionKinds]string{"container-lot", "cash-lot", "truck"}

// kindNames gives the names of each kind's ids, in id order. The argument order inside a kind
// follows the engine's ActionToMove (encoding tests check it).
func kindNames(k rules.MoveKind) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	rel := func(count, from int, format string) {
		for i := 0; i < count; i++ {
			add(format, i+from)
		}
	}
	colours := func(format string, nc int) {
		for c := 0; c < nc; c++ {
			add(format, rules.Colour(c))
		}
	}
	switch k {
	case rules.EndTurn:
		add("end")
	case rules.Done:
		add("done")
	case rules.TakeLoan:
		add("loan")
	case rules.RepayLoan:
		rel(rules.MaxLoans, 0, "repay:%d")
	case rules.BuildFactory:
		colours("build:factory:%s", rules.NumNormalColours)
	case rules.BuildWarehouse:
		add("build:warehouse")
	case rules.Produce:
		add("produce")
	case rules.FactoryPurchase:
		rel(rules.MaxPlayers-1, 1, "buy-factory:+%d")
	case rules.HarborPurchase:
		add("buy-harbor")
	case rules.Reprice:
		add("reprice:factory")
		add("reprice:harbor")
	case rules.SailOcean:
		add("sail:ocean")
	case rules.SailIsland:
		add("sail:island")
	case rules.SailBank:
		add("sail:bank")
	case rules.SailHarbor:
		rel(rules.MaxPlayers-1, 1, "sail:harbor:+%d")
	case rules.CallBankStart:
		rel(rules.BankLots, 1, "bank:start:container-lot:%d")
		rel(rules.BankLots, 1, "bank:start:cash-lot:%d")
	case rules.CallBankRaise:
		for _, n := range auctionKindNames {
			add("bank:raise:%s", n)
		}
	case rules.TruckStart:
		for s := 0; s < rules.MaxPlayers; s++ {
			add("truck:start:+%d:cash", s)
			add("truck:start:+%d:containers", s)
		}
	case rules.AcquireLuxury:
		add("luxury:factory")
		add("luxury:harbor")
	case rules.Place:
		rel(6, 1, "place:$%d")
	case rules.PickFactory:
		for c := 0; c < rules.NumColours; c++ {
			for p := 0; p < rules.FactoryPrices; p++ {
				add("pick:factory:%s:$%d", rules.Colour(c), rules.FactoryPrice(p))
			}
		}
	case rules.PickHarbor:
		for c := 0; c < rules.NumColours; c++ {
			for p := 0; p < rules.HarborPrices; p++ {
				add("pick:harbor:%s:$%d", rules.Colour(c), rules.HarborPrice(p))
			}
		}
	case rules.PickShip:
		colours("pick:ship:%s", rules.NumColours)
	case rules.PickHolding:
		colours("pick:holding:%s", rules.NumColours)
	case rules.PickIsland:
		colours("pick:island:%s", rules.NumColours)
	case rules.PickColour:
		colours("colour:%s", rules.NumColours)
	case rules.Amount:
		rel(rules.MaxAmountID+1, 0, "amount:%d")
	case rules.Yes:
		add("yes")
	case rules.No:
		add("no")
	case rules.ChooseSeat:
		rel(rules.MaxPlayers, 0, "seat:+%d")
	case rules.PayInterest:
		rel(rules.MaxLoans, 0, "pay-interest:%d")
	case rules.AmountHundred:
		add("amount:+100")
	}
	return out
}

func buildActionNames() []string {
	names := make([]string, 0, rules.NumDistinctActions())
	for k := rules.MoveKind(0); k < rules.NumMoveKinds; k++ {
		first, count := rules.KindBase(k)
		kn := kindNames(k)
		if len(kn) != count || first != len(names) {
			panic(fmt.Sprintf("encoding: action names of kind %d: %d names for %d ids at %d", k, len(kn), count, first))
		}
		names = append(names, kn...)
	}
	return names
}
