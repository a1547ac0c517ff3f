package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Selection at a node, on trees built by hand: which edge selectEdge returns for the
// visits, values, priors and availabilities it is given (UCT without a net, PUCT with one).

// fixedPolicy is a rollout policy that always names one action (the first legal one when
// that action is not legal).
type fixedPolicy struct{ a int }

func (fixedPolicy) Name() string { return "fixed" }

func (p fixedPolicy) Act(_ *rules.State, legal []int) int {
	if slices.Contains(legal, p.a) {
		return p.a
	}
	return legal[0]
}

// handTree returns a worker whose root (node 0) has one edge of seat 0 per entry of
// actions, in key order, with the visits, values, priors and availabilities given.
func handTree(cfg Config, actions []int, visits []int32, values []float64, priors []float32, avail []int32) *worker {
	w := &worker{cfg: &cfg}
	w.newNode()
	prev := int32(-1)
	for i, a := range actions {
		e := w.newEdge(0, prev, int32(a))
		w.edges[e].visits, w.edges[e].value, w.edges[e].prior, w.edges[e].avail = visits[i], values[i], priors[i], avail[i]
		prev = e
	}
	return w
}

// seeded gives the worker its random stream, as search does.
func (w *worker) seeded(seed uint64) *worker {
	w.pcg.Seed(seed, seed)
	w.rng = rand.New(&w.pcg)
	return w
}

// PUCT scores a move q + c·P·√avail/(1+n): a visited move with a large availability and a
// middling prior beats an unvisited move with a small prior (by the √avail factor), and
// with fpu=0 an unvisited move is worth the mean of the visited ones, not 0.5.
func TestSelectEdge_PUCTScoreAndFirstPlayValue(t *testing.T) {
	st := rules.State{}
	// a visited 1 time (mean 0.5, prior 0.5, available 99 times before now); b unvisited
	// (prior 0.1). c=1, fpu=-1: a scores 0.5+0.5·10/2 = 3, b 0.5+0.1 = 0.6.
	w := handTree(Config{C: 1, FPU: -1}, []int{4, 7}, []int32{1, 0}, []float64{0.5, 0}, []float32{0.5, 0.1}, []int32{99, 0})
	w.eval = peakedNet{}
	if e := w.selectEdge(0, 0, []int{4, 7}, &st); w.edges[e].key != 4 {
		t.Errorf("PUCT picked action %d, want 4 (the visited move with the large availability)", w.edges[e].key)
	}
	// fpu=0: a visited 10 times (mean 0.9, prior 0.1, available 10 times); b unvisited,
	// prior 0.2. b is worth the mean 0.9 + 0.2 = 1.1, a 0.9 + 0.1·√11/11 ≈ 0.93. (Were b
	// worth 0.5, a would win.)
	w = handTree(Config{C: 1, FPU: 0}, []int{4, 7}, []int32{10, 0}, []float64{9, 0}, []float32{0.1, 0.2}, []int32{10, 0})
	w.eval = peakedNet{}
	if e := w.selectEdge(0, 0, []int{4, 7}, &st); w.edges[e].key != 7 {
		t.Errorf("fpu=0 picked action %d, want 7 (the unvisited move, worth the visited mean)", w.edges[e].key)
	}
}

// The first-play value counts the seat's own action 0 and stops before the next seat's
// action 0 (the edges of a node are keyed seat·numActions+action, in order).
func TestFirstPlayValue_CountsActionZeroAndStopsAtTheNextSeat(t *testing.T) {
	cfg := Config{FPU: 0}
	w := &worker{cfg: &cfg}
	n := w.newNode()
	base := numActions                      // seat 1
	e0 := w.newEdge(n, -1, base-1)          // seat 0's last action
	e1 := w.newEdge(n, e0, base)            // seat 1, action 0
	e2 := w.newEdge(n, e1, base+5)          // seat 1, action 5
	e3 := w.newEdge(n, e2, base+numActions) // seat 2, action 0
	w.edges[e0].visits, w.edges[e0].value = 5, 0
	w.edges[e1].visits, w.edges[e1].value = 3, 3
	w.edges[e2].visits, w.edges[e2].value = 1, 0
	w.edges[e3].visits, w.edges[e3].value = 4, 0
	if got := w.firstPlayValue(n, base); got != 0.75 {
		t.Errorf("seat 1: %v, want (3+0)/(3+1) = 0.75", got)
	}
}

// The walk along a node's edges passes edge 0 like any other: with the node's first edge
// (edge 0) not legal now, the moves that have edges are scored, none is taken for untried.
func TestSelectEdge_WalksPastTheFirstEdgeWhenItIsNotLegal(t *testing.T) {
	st := rules.State{}
	w := handTree(Config{C: 1}, []int{1, 2, 3}, []int32{4, 2, 2}, []float64{2, 1, 2}, []float32{0, 0, 0}, []int32{4, 4, 4})
	w.seeded(1)
	edges := len(w.edges)
	e := w.selectEdge(0, 0, []int{2, 3}, &st)
	if len(w.edges) != edges {
		t.Fatalf("a new edge was made for a move that has one (%d edges, want %d)", len(w.edges), edges)
	}
	if w.edges[e].key != 3 {
		t.Errorf("picked action %d, want 3 (mean 1 against 0.5, equal exploration)", w.edges[e].key)
	}
}

// Without a net, at a node none of whose moves is tried the rollout policy's move is
// expanded first, even when it is action 0; once a move is tried, the next untried one is
// drawn at random (not the policy's again and again).
func TestSelectEdge_ThePolicysMoveFirstThenRandomUntriedMoves(t *testing.T) {
	st := rules.State{}
	for _, pa := range []int{0, 6, 9} {
		w := handTree(Config{C: 1}, nil, nil, nil, nil, nil)
		w.policy = fixedPolicy{pa}
		w.seeded(3)
		e := w.selectEdge(0, 0, []int{0, 3, 6, 9}, &st)
		if w.edges[e].key != int32(pa) {
			t.Errorf("policy move %d: expanded %d first", pa, w.edges[e].key)
		}
	}
	legal := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	picked := map[int32]int{}
	for seed := uint64(0); seed < 20; seed++ {
		w := handTree(Config{C: 1}, []int{5}, []int32{1}, []float64{0.5}, []float32{0}, []int32{1})
		w.policy = fixedPolicy{9}
		w.seeded(seed)
		e := w.selectEdge(0, 0, legal, &st)
		if w.edges[e].key == 5 {
			t.Fatalf("seed %d: chose the tried move with untried ones left", seed)
		}
		picked[w.edges[e].key]++
	}
	if picked[9] == 20 {
		t.Errorf("after a tried move every expansion took the policy's move 9: %v", picked)
	}
}

// A rollout stops after Depth decisions (forced ones included) and scores that position.
func TestRollout_StopsAfterDepthDecisions(t *testing.T) {
	g, err := rules.NewGame(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{1, 3, 7} {
		cfg := Config{Depth: depth}
		w := &worker{cfg: &cfg, policy: fixedPolicy{-1}} // always the first legal move
		st := g.NewInitialStateSeed(4)
		want := st.Clone()
		for i := 0; i < depth; i++ {
			want.Apply(want.LegalActions(nil)[0])
		}
		var out [rules.MaxPlayers]float64
		w.rollout(st, &out)
		if st.Hash() != want.Hash() {
			t.Errorf("depth %d: the rollout stopped elsewhere than after %d decisions", depth, depth)
		}
		var o2 [rules.MaxPlayers]float64
		w.score(want, &o2)
		if out != o2 {
			t.Errorf("depth %d: rollout scored %v, the position after %d decisions scores %v", depth, out, depth, o2)
		}
	}
}

// Each seat's outcome is half its share of the win plus a quarter of 1 + tanh(margin/20),
// the margin over the best other seat.
func TestOutcomes_WinShareAndSquashedMargin(t *testing.T) {
	g, err := rules.NewGame(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for seed := uint64(1); seed <= 3; seed++ {
		st := g.NewInitialStateSeed(seed)
		for i := 0; i < 40*int(seed) && !st.IsTerminal(); i++ {
			st.Apply(st.LegalActions(nil)[len(st.LegalActions(nil))/2])
		}
		sc := st.ScoresInto(nil)
		winners := 0
		for _, s := range sc {
			if s.Winner {
				winners++
			}
		}
		out := make([]float64, len(sc))
		Outcomes(st, out)
		for i := range sc {
			best := math.MinInt
			for j := range sc {
				if j != i {
					best = max(best, sc[j].Total)
				}
			}
			want := 0.25 + 0.25*math.Tanh(float64(sc[i].Total-best)/MarginScale)
			if sc[i].Winner {
				want += 0.5 / float64(winners)
			}
			if math.Abs(out[i]-want) > 1e-12 {
				t.Errorf("seed %d seat %d (total %d, best other %d): outcome %v, want %v", seed, i, sc[i].Total, best, out[i], want)
			}
			if sc[i].Total != best {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("every seat tied with its best opponent: the margin term was not checked")
	}
}

// peakedNet is an Evaluator whose prior puts 0.5 on one action (the highest legal one) and
// shares the rest evenly, and whose value is the same 1/players for every seat everywhere.
type peakedNet struct{}

func (peakedNet) Evaluate(view *rules.State, legal []int, prior, value []float32) error {
	for i := range prior {
		prior[i] = 0.5 / float32(len(legal)-1)
	}
	prior[len(prior)-1] = 0.5
	if len(prior) == 1 {
		prior[0] = 1
	}
	for s := range value {
		value[s] = 1 / float32(len(value))
	}
	return nil
}

// withNet registers ev as every net= for the test and restores the registry after it.
func withNet(t *testing.T, ev Evaluator) {
	t.Helper()
	netMu.Lock()
	old := netFactory
	netFactory = func(string, rules.Options) (Evaluator, error) { return ev, nil }
	netMu.Unlock()
	t.Cleanup(func() {
		netMu.Lock()
		netFactory = old
		netMu.Unlock()
	})
}

// bidDecision returns the position of hiddenBidPosition (4 players, seed 5), the deciding
// seat's view of it and its legal actions.
func bidDecision(t *testing.T) (*rules.State, *rules.State, []int) {
	t.Helper()
	st := hiddenBidPosition(t, rules.DefaultOptions(), 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	return st, &view, st.LegalActions(nil)
}

// rootVisited returns how many of the search's candidate moves at a delivery-bid position
// got any root visits, and how many candidates there are, for the ismcts spec.
func rootVisited(t *testing.T, spec string) (visited, cands int) {
	t.Helper()
	st, view, legal := bidDecision(t)
	b, err := bots.New(spec, rules.DefaultOptions(), 7)
	if err != nil {
		t.Fatal(err)
	}
	probs := make([]float32, rules.NumDistinctActions())
	b.(*Bot).ActPolicy(view, legal, probs)
	for _, p := range probs {
		if p > 0 {
			visited++
		}
	}
	return visited, len(b.(*Bot).workers[0].candidates(st))
}

// With a first-play-urgency reduction an untried move is worth the mean of the seat's tried
// ones minus fpu, so a small budget goes to the moves the prior and the values favour; with
// fpu=-1 every untried move is worth 0.5, above the 4-player mean outcome of 0.25, and the
// search tries every candidate before it looks deeper at any.
func TestPUCT_FirstPlayUrgencyLetsThePriorLead(t *testing.T) {
	withNet(t, peakedNet{})
	focused, n := rootVisited(t, "ismcts:sims=40,workers=1,net=x,fpu=1")
	spread, _ := rootVisited(t, "ismcts:sims=40,workers=1,net=x,fpu=-1")
	if n < 5 {
		t.Fatalf("only %d candidate moves: not a test of the spread", n)
	}
	if spread != n {
		t.Errorf("fpu=-1: %d of %d candidates visited, want all", spread, n)
	}
	if focused > n/2 {
		t.Errorf("fpu=1: %d of %d candidates visited, want the prior's favourite and few others", focused, n)
	}
}

// firstPlayValue is the visit-weighted mean outcome of the deciding seat's visited moves
// minus the reduction, never below 0, and 0.5 while none is visited; other seats' moves at
// the node do not count.
func TestFirstPlayValue_MeanOfTheSeatsVisitedMovesMinusTheReduction(t *testing.T) {
	cfg := Config{FPU: 0.1}
	w := &worker{cfg: &cfg}
	n := w.newNode()
	if got := w.firstPlayValue(n, 0); got != 0.5 {
		t.Errorf("no edges: %v, want 0.5", got)
	}
	e0 := w.newEdge(n, -1, 3)            // seat 0, visited 3 times, total 1.2
	e1 := w.newEdge(n, e0, 9)            // seat 0, visited once, total 0.8
	e2 := w.newEdge(n, e1, numActions+2) // seat 1: not seat 0's
	w.edges[e0].visits, w.edges[e0].value = 3, 1.2
	w.edges[e1].visits, w.edges[e1].value = 1, 0.8
	w.edges[e2].visits, w.edges[e2].value = 5, 5
	if got, want := w.firstPlayValue(n, 0), (1.2+0.8)/4-0.1; got < want-1e-12 || got > want+1e-12 {
		t.Errorf("seat 0: %v, want %v", got, want)
	}
	if got := w.firstPlayValue(n, numActions); got != 0.9 {
		t.Errorf("seat 1: %v, want 1-0.1", got)
	}
	cfg.FPU = 1
	if got := w.firstPlayValue(n, 0); got != 0 {
		t.Errorf("fpu=1: %v, want the floor 0", got)
	}
	if got := w.firstPlayValue(n, 2*numActions); got != 0.5 {
		t.Errorf("seat 2 with no edges: %v, want 0.5", got)
	}
}
