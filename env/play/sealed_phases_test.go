package play

import (
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Exactly the delivery bids, runoff additions and loan incentives are sealed: in every other
// phase an amount is shown at once.
func TestSealedPhasesAreTheThreeSealedBids(t *testing.T) {
	sealed := map[rules.Phase]bool{rules.PhaseDeliveryBid: true, rules.PhaseRunoffBid: true, rules.PhaseIncentiveBid: true}
	for p := rules.Phase(0); p < rules.NumPhases; p++ {
		if got := SealedPhase(p); got != sealed[p] {
			t.Errorf("SealedPhase(%s) = %v", p, got)
		}
		e := Entry{Move: rules.Move{Kind: rules.Amount, Amount: 3}, Phase: p}
		if e.SealedBid() != sealed[p] {
			t.Errorf("an amount in %s: SealedBid() = %v", p, e.SealedBid())
		}
	}
	if (Entry{Move: rules.Move{Kind: rules.Done}, Phase: rules.PhaseDeliveryBid}).SealedBid() {
		t.Error("a move that is not an amount is a sealed bid")
	}
}

// New refuses a human seat outside the table, naming the seats there are.
func TestNewRefusesAHumanSeatOutsideTheTable(t *testing.T) {
	o := rules.DefaultOptions()
	o.Players = 3
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	bs := make([]bots.Bot, 3)
	for i := range bs {
		bs[i] = bots.NewValuer(uint64(i))
	}
	for _, human := range []int{-1, 3, 4} {
		_, err := New(g, 1, human, bs)
		if err == nil || !strings.Contains(err.Error(), "is outside 0..2") {
			t.Errorf("human seat %d: %v", human, err)
		}
	}
	for _, human := range []int{0, 2} {
		if _, err := New(g, 1, human, bs); err != nil {
			t.Errorf("human seat %d: %v", human, err)
		}
	}
}
