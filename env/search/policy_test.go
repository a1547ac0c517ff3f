package search

import (
	"math"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// ActPolicy reports the search's root visit shares: they sum to 1 over the legal actions,
// nothing illegal gets any, the move played is the most visited one (without explore), and
// the value lies on the rank scale -1..1.
func TestActPolicy_VisitSharesOfTheMovePlayed(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	legal := st.LegalActions(nil)
	b, err := bots.New("ismcts:sims=40,depth=10,workers=2", opts, 3)
	if err != nil {
		t.Fatal(err)
	}
	probs := make([]float32, rules.NumDistinctActions())
	a, v := b.(*Bot).ActPolicy(&view, legal, probs)
	isLegal := map[int]bool{}
	for _, x := range legal {
		isLegal[x] = true
	}
	sum, top, topP := 0.0, -1, float32(-1)
	for x, p := range probs {
		if p != 0 && !isLegal[x] {
			t.Fatalf("illegal action %d has share %v", x, p)
		}
		sum += float64(p)
		if p > topP {
			top, topP = x, p
		}
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Fatalf("visit shares sum to %v", sum)
	}
	if probs[a] != topP {
		t.Errorf("played %d with share %v; the most visited is %d with %v", a, probs[a], top, topP)
	}
	if v < -1 || v > 1 {
		t.Errorf("value %v outside -1..1", v)
	}
	b.(bots.Seeder).Seed(3)
	if again := b.Act(&view, legal); again != a {
		t.Errorf("Act after ActPolicy with the same seed: %d, want %d", again, a)
	}
	one := make([]float32, rules.NumDistinctActions())
	if a, v := b.(*Bot).ActPolicy(&view, legal[:1], one); a != legal[0] || one[a] != 1 || v != 0 {
		t.Errorf("a forced move: %d (share %v, value %v), want %d with share 1 and value 0", a, one[a], v, legal[0])
	}
}

// explore=N draws the move from the root visits while fewer than N turns have been played:
// for a seed the draw is always the same, across seeds it varies, and it is never an action
// the search did not visit; from turn N on the most visited move is played again.
func TestExplore_DrawsFromTheVisitsEarlyOnly(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(11)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	legal := st.LegalActions(nil)
	if len(legal) < 3 {
		t.Fatalf("opening has %d legal moves", len(legal))
	}
	seen := map[int]bool{}
	for seed := uint64(1); seed <= 30; seed++ {
		b, err := bots.New("ismcts:sims=30,depth=5,workers=1,explore=5", opts, seed)
		if err != nil {
			t.Fatal(err)
		}
		a := b.Act(&view, legal)
		b.(bots.Seeder).Seed(seed)
		if again := b.Act(&view, legal); again != a {
			t.Fatalf("seed %d: drew %d, then %d", seed, a, again)
		}
		p := make([]float32, rules.NumDistinctActions())
		b.(*Bot).ActPolicy(&view, legal, p)
		if p[a] == 0 {
			t.Fatalf("seed %d: drew %d, which the search never visited", seed, a)
		}
		seen[a] = true
	}
	if len(seen) < 2 {
		t.Errorf("30 seeds drew only %v; want variety", seen)
	}
	// Past the explore turns: the most visited move, as without explore.
	late := view
	late.Turn = 5
	b, _ := bots.New("ismcts:sims=30,depth=5,workers=1,explore=5", opts, 1)
	g2, _ := bots.New("ismcts:sims=30,depth=5,workers=1", opts, 1)
	if a, want := b.Act(&late, legal), g2.Act(&late, legal); a != want {
		t.Errorf("turn 5 with explore=5: played %d, the most visited is %d", a, want)
	}
}

// A game that ended at the safety turn limit is scored as a loss for every seat, so the
// search never prefers dragging a game out to the limit.
func TestScore_TurnLimitEndingIsALossForEverySeat(t *testing.T) {
	opts := rules.DefaultOptions()
	opts.TurnLimit = 3
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(2)
	r := bots.NewValuer(1)
	var view rules.State
	for !st.IsTerminal() {
		legal := st.LegalActions(nil)
		st.Redact(st.CurrentPlayer(), &view)
		st.Apply(r.Act(&view, legal))
	}
	if st.Ended != rules.EndTurnLimit {
		t.Fatalf("game ended by %v, want the turn limit", st.Ended)
	}
	w := &worker{}
	var out [rules.MaxPlayers]float64
	for i := range out {
		out[i] = 7
	}
	w.score(st, &out)
	for i, v := range out {
		if v != 0 {
			t.Errorf("seat %d scored %v, want 0 (a loss)", i, v)
		}
	}
}
