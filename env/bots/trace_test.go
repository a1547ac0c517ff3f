package bots

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// TestTrace prints one game move by move when BOTS_TRACE is set to a comma-separated list of
// bot names (BOTS_SEED picks the seed); it is a debugging aid, skipped otherwise.
func TestTrace(t *testing.T) {
	names := os.Getenv("BOTS_TRACE")
	if names == "" {
		t.Skip("set BOTS_TRACE=valuer,shipper,manufacturer,random to trace a game")
	}
	seed, _ := strconv.ParseUint(os.Getenv("BOTS_SEED"), 10, 64)
	agents := strings.Split(names, ",")
	o := rules.DefaultOptions()
	o.Players = len(agents)
	if m := os.Getenv("BOTS_MODULES"); m != "" {
		o.Modules, _ = rules.ParseModules(m)
	}
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(seed)
	var bs []Bot
	for i, n := range agents {
		b, err := New(n, o, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	var view rules.State
	var legal []int
	lastTurn := int32(-1)
	for !st.IsTerminal() {
		if st.Turn != lastTurn {
			lastTurn = st.Turn
			p := &st.Players[st.Active]
			fmt.Printf("--- turn %d seat %d (%s) cash %d loans %d fact %05b wh %d ship %v at %v hold %v isl %v supply %v flots %v hlots %v\n",
				st.Turn, st.Active, agents[st.Active], p.Cash, p.NumLoans, p.Factories, p.Warehouses, p.Ship, p.ShipAt, p.Holding, p.Island, st.Supply, p.FactoryLots, p.HarborLots)
		}
		seat := st.CurrentPlayer()
		legal = st.LegalActions(legal)
		st.Redact(seat, &view)
		a := bs[seat].Act(&view, legal)
		fmt.Printf("  [%d %s] %s\n", seat, st.Decision().Phase, st.ActionToMove(a))
		st.Apply(a)
	}
	for i, s := range st.Scores() {
		fmt.Printf("seat %d %s: %+v\n", i, agents[i], s)
	}
}
