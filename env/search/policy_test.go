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

// handBot is a one-worker Bot whose root holds seat 0's edges for actions, with the visits
// and summed outcomes given (the state a search leaves behind).
func handBot(actions []int, visits []int32, values []float64) *Bot {
	w := handTree(DefaultConfig(), actions, visits, values, make([]float32, len(actions)), visits)
	return &Bot{workers: []*worker{w}}
}

// Exploration draws a move in proportion to its root visits: never one without visits,
// action 0 included when it has them.
func TestSampleVisits_NeverAMoveWithoutVisits(t *testing.T) {
	b := handBot([]int{0, 4, 9}, []int32{0, 5, 3}, []float64{0, 2, 1})
	b0 := handBot([]int{0, 4}, []int32{6, 0}, []float64{3, 0})
	seen := map[int]int{}
	for base := uint64(0); base < 200; base++ {
		a := b.sampleVisits([]int{0, 4, 9}, 0, base, 4)
		seen[a]++
		if got := b0.sampleVisits([]int{0, 4}, 0, base, 0); got != 0 {
			t.Fatalf("base %d: drew %d, the move without visits (action 0 has them all)", base, got)
		}
	}
	if seen[0] > 0 || seen[4] == 0 || seen[9] == 0 {
		t.Errorf("draws %v: want actions 4 and 9 only", seen)
	}
}

// ActPolicy's probabilities are the visit shares of every legal move (action 0 included)
// and sum to 1 whatever the number of legal moves above one; its value is 2·mean−1 of the
// deciding seat's root outcomes; an id outside the action space is skipped, not a panic.
func TestActPolicy_SharesValueAndOutOfRangeIds(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(6)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	full := st.LegalActions(nil)
	if full[0] != 0 {
		t.Fatalf("first legal action %d, want end-turn (0) for this test", full[0])
	}
	n := rules.NumDistinctActions()
	for _, legal := range [][]int{full[:2], full, append(append([]int(nil), full...), n)} {
		b, err := bots.New("ismcts:sims=60,depth=5,workers=1", opts, 2)
		if err != nil {
			t.Fatal(err)
		}
		probs := make([]float32, n)
		_, value := b.(*Bot).ActPolicy(&view, legal, probs)
		var sum float64
		total, outcome := 0, 0.0
		for _, a := range legal {
			if a >= n {
				continue
			}
			sum += float64(probs[a])
			v, o := b.(*Bot).rootVisits(a, view.CurrentPlayer())
			total += v
			outcome += o
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("%d legal: probabilities sum to %v", len(legal), sum)
		}
		if v0, _ := b.(*Bot).rootVisits(0, view.CurrentPlayer()); v0 > 0 && math.Abs(float64(probs[0])-float64(v0)/float64(total)) > 1e-6 {
			t.Errorf("%d legal: end-turn probability %v, want its share %v", len(legal), probs[0], float64(v0)/float64(total))
		}
		if want := float32(2*outcome/float64(total) - 1); total > 0 && math.Abs(float64(value-want)) > 1e-6 {
			t.Errorf("%d legal: value %v, want 2·mean−1 = %v", len(legal), value, want)
		}
	}
	// One legal move, action 0: probability 1 without a search; an out-of-range single id
	// is not a panic.
	b, _ := bots.New("ismcts:sims=10,workers=1", opts, 2)
	probs := make([]float32, n)
	if a, v := b.(*Bot).ActPolicy(&view, []int{0}, probs); a != 0 || v != 0 || probs[0] != 1 {
		t.Errorf("single legal end-turn: played %d value %v probability %v", a, v, probs[0])
	}
	probs = make([]float32, n)
	b.(*Bot).ActPolicy(&view, []int{n}, probs)
}
