package search

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

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

// failingNet is an Evaluator that always fails.
type failingNet struct{}

func (failingNet) Evaluate(*rules.State, []int, []float32, []float32) error {
	return errors.New("encoder refused the view")
}

// A network that fails to evaluate does not stop the search (the move is still legal), but
// the bot's Err reports it, so that a caller can tell the play was degraded.
func TestIsmcts_EvaluatorErrorIsReportedNotSwallowed(t *testing.T) {
	withNet(t, failingNet{})
	_, view, legal := bidDecision(t)
	b, err := bots.New("ismcts:sims=20,net=x", rules.DefaultOptions(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if b.(*Bot).Err() != nil {
		t.Fatalf("Err before any decision: %v", b.(*Bot).Err())
	}
	a := b.Act(view, legal)
	if !slices.Contains(legal, a) {
		t.Errorf("played %d, not legal", a)
	}
	if err := b.(*Bot).Err(); err == nil || !strings.Contains(err.Error(), "encoder refused") {
		t.Errorf("Err after failed evaluations: %v", err)
	}
}
