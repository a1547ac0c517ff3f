package training

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
)

// The default network guides the search: its prior is a distribution over the legal
// actions, its values lie in 0..1 for every seat, and ismcts:net=default plays legal moves.
func TestSearchEvaluator_DefaultNetGuidesIsmcts(t *testing.T) {
	opts := rules.DefaultOptions()
	f, err := DefaultBotFor(opts)
	if err != nil {
		t.Skip(err)
	}
	ev, err := NewSearchEvaluator("default", f, opts)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(opts)
	st := g.NewInitialStateSeed(4)
	b, err := bots.New("ismcts:sims=24,net=default", opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	var view rules.State
	for step := 0; step < 60 && !st.IsTerminal(); step++ {
		d := st.CurrentPlayer()
		legal := st.LegalActions(nil)
		st.Redact(d, &view)
		prior, value := make([]float32, len(legal)), make([]float32, opts.Players)
		if err := ev.Evaluate(&view, legal, prior, value); err != nil {
			t.Fatal(err)
		}
		sum := float32(0)
		for _, p := range prior {
			sum += p
		}
		if math.Abs(float64(sum)-1) > 1e-4 {
			t.Fatalf("step %d: prior sums to %v", step, sum)
		}
		for s, v := range value {
			if v < 0 || v > 1 {
				t.Fatalf("step %d: seat %d value %v", step, s, v)
			}
		}
		a := b.Act(&view, legal)
		if _, ok := slices.BinarySearch(legal, a); !ok {
			t.Fatalf("step %d: illegal %d", step, a)
		}
		st.Apply(a)
	}
}

// A net made for other options is refused when the bot is made, before any game.
func TestSearchEvaluator_NetForOtherOptionsIsRefusedUpFront(t *testing.T) {
	opts := rules.Options{Players: 4, Length: rules.Short}
	_, err := bots.New("ismcts:net=default", opts, 1)
	if !errors.Is(err, ErrIncompatible) {
		t.Errorf("net=default for short games: %v, want ErrIncompatible", err)
	}
	_, err = bots.New("ismcts:net=nothere", rules.DefaultOptions(), 1)
	if err == nil || !strings.Contains(err.Error(), "net=nothere") {
		t.Errorf("net=nothere: %v", err)
	}
	if err := bots.Resolve("ismcts:net=default,sims=10"); err != nil {
		t.Errorf("Resolve: %v", err)
	}
	var _ search.Evaluator = (*SearchEvaluator)(nil)
}
