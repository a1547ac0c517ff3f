package search

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// rampNet is an Evaluator whose prior grows with the legal index (prior[i] ∝ i+1) and whose
// value for seat s is 0.1·(s+1), everywhere. With fail set it first writes 0.9 everywhere,
// then returns an error.
type rampNet struct{ fail bool }

func (r rampNet) Evaluate(_ *rules.State, legal []int, prior, value []float32) error {
	if r.fail {
		for i := range prior {
			prior[i] = 0.9
		}
		for s := range value {
			value[s] = 0.9
		}
		return errors.New("refused")
	}
	sum := float32(len(legal) * (len(legal) + 1) / 2)
	for i := range prior {
		prior[i] = float32(i+1) / sum
	}
	for s := range value {
		value[s] = 0.1 * float32(s+1)
	}
	return nil
}

// With a net and no rollout policy, the root's edges carry the net's prior of their own
// move, and every simulation backs up the net's value of the leaf it reached (no
// rollout). A net that fails gives every move the same prior and every seat 0.5. For 3, 4
// and 5 players (5 is the size of the value arrays).
func TestPUCT_RootEdgesCarryTheNetsPriorAndValue(t *testing.T) {
	for _, players := range []int{3, 4, 5} {
		opts := rules.DefaultOptions()
		opts.Players = players
		g, err := rules.NewGame(opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, fail := range []bool{false, true} {
			st := g.NewInitialStateSeed(uint64(players))
			seat := st.CurrentPlayer()
			var view rules.State
			st.Redact(seat, &view)
			cfg := DefaultConfig()
			w := &worker{cfg: &cfg, eval: rampNet{fail: fail}}
			w.search(&view, seat, 30, time.Time{})
			var probe worker
			probe.cfg = &cfg
			cands := probe.candidates(st)
			if len(cands) < 3 {
				t.Fatalf("%d players: %d candidate moves, not a test", players, len(cands))
			}
			sum := float32(len(cands) * (len(cands) + 1) / 2)
			visited := 0
			for i, a := range cands {
				e := w.rootEdge(a, seat)
				if e == nil {
					t.Fatalf("%d players, fail=%v: no root edge for candidate %d", players, fail, a)
				}
				want := float32(i+1) / sum
				wantValue := float64(0.1 * float32(seat+1)) // the net's value for the root's seat
				if fail {
					want, wantValue = 1/float32(len(cands)), 0.5
				}
				if e.prior != want {
					t.Errorf("%d players, fail=%v: move %d prior %v, want %v", players, fail, a, e.prior, want)
				}
				if e.visits > 0 {
					visited++
					if mean := e.value / float64(e.visits); math.Abs(mean-wantValue) > 1e-6 {
						t.Errorf("%d players, fail=%v: move %d mean %v over %d visits, want the net's %v", players, fail, a, mean, e.visits, wantValue)
					}
				}
			}
			if visited == 0 {
				t.Errorf("%d players, fail=%v: no root move visited", players, fail)
			}
			if (w.err != nil) != fail {
				t.Errorf("%d players, fail=%v: worker error %v", players, fail, w.err)
			}
		}
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

// leaf=mix scores a new leaf with (1-mix) times the net's value plus mix times the outcome of
// the rollout the same random numbers play: mix=0 is the value alone, mix=1 the rollout alone.
func TestLeafMix_WeighsTheValueAndTheRollout(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	var outs [3][rules.MaxPlayers]float64
	for k, mix := range []float64{0, 1, 0.5} {
		cfg := DefaultConfig()
		cfg.Leaf, cfg.Mix = LeafMix, mix
		w := &worker{cfg: &cfg, eval: rampNet{}}
		w.pcg.Seed(7, 7)
		w.rng = rand.New(&w.pcg)
		st := g.NewInitialStateSeed(3)
		legal := w.candidates(st)
		w.newNode()
		w.leaf(st, 0, st.CurrentPlayer(), append([]int(nil), legal...), &outs[k])
		if !st.IsTerminal() {
			t.Fatalf("mix=%v: the rollout did not play to the end", mix)
		}
	}
	for s := 0; s < opts.Players; s++ {
		value := float64(0.1 * float32(s+1))
		if math.Abs(outs[0][s]-value) > 1e-9 {
			t.Errorf("mix=0, seat %d: %v, want the net's %v", s, outs[0][s], value)
		}
		if want := 0.5*value + 0.5*outs[1][s]; math.Abs(outs[2][s]-want) > 1e-9 {
			t.Errorf("mix=0.5, seat %d: %v, want the mean of the value %v and the rollout's %v", s, outs[2][s], value, outs[1][s])
		}
	}
	if outs[1] == outs[0] {
		t.Error("the rollout's outcome is the net's value: not a test")
	}
}

// constNet is an Evaluator with a uniform prior and the value v for every seat.
type constNet struct{ v float32 }

func (c constNet) Evaluate(_ *rules.State, legal []int, prior, value []float32) error {
	for i := range prior {
		prior[i] = 1 / float32(len(legal))
	}
	for s := range value {
		value[s] = c.v
	}
	return nil
}

// With value=NAME the prior is the net's and the leaf values are the value network's: the
// root edges carry rampNet's prior while every backed-up outcome is constNet's value.
func TestPUCT_ValueNetworkScoresTheLeavesAndNetGivesThePrior(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(4)
	seat := st.CurrentPlayer()
	var view rules.State
	st.Redact(seat, &view)
	cfg := DefaultConfig()
	w := &worker{cfg: &cfg, eval: &splitEvaluator{prior: rampNet{}, value: constNet{v: 0.7}}}
	w.search(&view, seat, 40, time.Time{})
	var probe worker
	probe.cfg = &cfg
	cands := probe.candidates(st)
	if len(cands) < 3 {
		t.Fatalf("%d candidate moves, not a test", len(cands))
	}
	sum := float32(len(cands) * (len(cands) + 1) / 2)
	visited := 0
	for i, a := range cands {
		e := w.rootEdge(a, seat)
		if e == nil {
			t.Fatalf("no root edge for candidate %d", a)
		}
		if want := float32(i+1) / sum; e.prior != want {
			t.Errorf("move %d prior %v, want rampNet's %v", a, e.prior, want)
		}
		if e.visits > 0 {
			visited++
			if mean := e.value / float64(e.visits); math.Abs(mean-0.7) > 1e-6 {
				t.Errorf("move %d: mean backed-up value %v, want the value network's 0.7", a, mean)
			}
		}
	}
	if visited == 0 {
		t.Fatal("no root move visited")
	}
	// An error of either network reaches the search as an error.
	bad := &splitEvaluator{prior: rampNet{}, value: rampNet{fail: true}}
	if err := bad.Evaluate(&view, cands, make([]float32, len(cands)), make([]float32, 4)); err == nil {
		t.Error("a failing value network: no error")
	}
	bad = &splitEvaluator{prior: rampNet{fail: true}, value: constNet{v: 0.7}}
	if err := bad.Evaluate(&view, cands, make([]float32, len(cands)), make([]float32, 4)); err == nil {
		t.Error("a failing prior network: no error")
	}
}

// The bot built from a value= spec plays, and its name spells the value network.
func TestNew_ValueNetworkSpecPlays(t *testing.T) {
	withNet(t, peakedNet{})
	b, err := bots.New("ismcts:sims=20,net=p,value=v", rules.DefaultOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Name(), "net=p,value=v") {
		t.Errorf("name %q does not spell net=p,value=v", b.Name())
	}
	g, _ := rules.NewGame(rules.DefaultOptions())
	st := g.NewInitialStateSeed(9)
	legal := st.LegalActions(nil)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	if a := b.Act(&view, legal); !slices.Contains(legal, a) {
		t.Errorf("played %d, not legal", a)
	}
}
