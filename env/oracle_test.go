package env

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/container-rl/container/encoding"
)

// TestObserveOracleShowsEveryCardRotatedToTheSeat: Env.ObserveOracle (for centralised critics)
// is the observation layout with every seat's scoring card visible, rotated so the given seat
// comes first, also when the env hides the opponents' cash; Observe shows only the seat's own
// card. Before Reset, or for a seat or buffer that does not fit, it is an error.
func TestObserveOracleShowsEveryCardRotatedToTheSeat(t *testing.T) {
	o := DefaultOptions()
	o.HideOpponentCash = true
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	n := e.ObsSize()
	if err := e.ObserveOracle(0, make([]float32, n)); !errors.Is(err, ErrNotReset) {
		t.Fatalf("oracle before reset: %v, want ErrNotReset", err)
	}
	e.Reset(5)
	for range 7 { // a few decisions in, so the position is not the initial one
		if _, err := e.Step(slices.Index(e.Mask(), 1)); err != nil {
			t.Fatal(err)
		}
	}
	s, spec, players := e.State(), e.Spec(), o.Rules.Players
	orc, obs := make([]float32, n), make([]float32, n)
	for seat := range players {
		if err := e.ObserveOracle(seat, orc); err != nil {
			t.Fatal(err)
		}
		if err := e.Observe(seat, obs); err != nil {
			t.Fatal(err)
		}
		for k := range players {
			f, ok := spec.Feature(fmt.Sprintf("p%d.card", k))
			if !ok {
				t.Fatalf("no feature p%d.card", k)
			}
			card := int(s.Players[(seat+k)%players].Card)
			if orc[f.Offset+card] != 1 {
				t.Errorf("seat %d: oracle misses p%d's card %d", seat, k, card)
			}
			if got := obs[f.Offset+card]; (k == 0) != (got == 1) {
				t.Errorf("seat %d: observation shows p%d's card as %g", seat, k, got)
			}
			cash, _ := spec.Feature(fmt.Sprintf("p%d.cash", k))
			if k != 0 && orc[cash.Offset] == 0 && s.Players[(seat+k)%players].Cash != 0 {
				t.Errorf("seat %d: oracle hides p%d's cash", seat, k)
			}
		}
	}
	if err := e.ObserveOracle(players, orc); !errors.Is(err, encoding.ErrSeat) {
		t.Errorf("seat %d: %v, want ErrSeat", players, err)
	}
	if err := e.ObserveOracle(0, orc[:n-1]); err == nil {
		t.Error("a short buffer is accepted")
	}
}
