package training

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
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

// value=NAME names an embedded value network (models/MANIFEST.json, status "value"): the
// search is made with it for the games it was trained for, and its values are the file's
// (the same as value=models/value/FILE.bot); for other games it is refused with a line
// naming the games it has, and an unknown name lists the names there are.
func TestValueNetworkNamesResolveToTheEmbeddedFiles(t *testing.T) {
	opts := rules.DefaultOptions()
	f, ok, err := ValueBotFor("value-4p", opts)
	if err != nil || !ok {
		t.Fatalf("ValueBotFor(value-4p, 4 players): ok %v, err %v", ok, err)
	}
	byPath, err := ReadBotFile("../models/value/value-4p.bot")
	if err != nil {
		t.Fatal(err)
	}
	named, err := NewSearchEvaluator("value-4p", f, opts)
	if err != nil {
		t.Fatal(err)
	}
	fromPath, err := NewSearchEvaluator("path", byPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	view, legal := turnMenuView(t, opts)
	var got [2][]float32
	for i, ev := range []*SearchEvaluator{named, fromPath} {
		prior, value := make([]float32, len(legal)), make([]float32, opts.Players)
		if err := ev.Evaluate(view, legal, prior, value); err != nil {
			t.Fatal(err)
		}
		got[i] = value
	}
	if !slices.Equal(got[0], got[1]) {
		t.Errorf("value=value-4p gives %v, the file %v", got[0], got[1])
	}
	b, err := bots.New("ismcts:sims=8,net=default,value=value-4p,leaf=mix,depth=10", opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a := b.Act(view, legal); !slices.Contains(legal, a) {
		t.Fatalf("illegal move %d", a)
	}

	three := rules.Options{Players: 3}
	if _, ok, err := ValueBotFor("value-4p", three); !ok || !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "players 4") {
		t.Errorf("value-4p for 3 players: ok %v, err %v; want ErrIncompatible naming the 4-player model", ok, err)
	}
	if _, err := bots.New("ismcts:net=default,value=value-4p", three, 1); err == nil || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("value=value-4p in a 3-player game: %v, want one line", err)
	}
	if _, ok, err := ValueBotFor("nothere", opts); ok || err != nil {
		t.Errorf("ValueBotFor(nothere): ok %v, err %v; want not found", ok, err)
	}
	_, err = bots.New("ismcts:net=default,value=nothere", opts, 1)
	if err == nil || !strings.Contains(err.Error(), "value=nothere") || !strings.Contains(err.Error(), "value-4p") {
		t.Errorf("value=nothere: %v, want a line naming the key and the value networks there are", err)
	}
}

// Edge cases of the network that guides the search
// (searchnet.go; the mutation records in docs/results/ name the bug each one catches).

// headNet is a network without hidden layers that ignores the observation: action a's logit
// is logit(a) and the value head's outputs (relative to the decider) are values, so its
// prior and leaf values are known exactly.
func headNet(t *testing.T, opts rules.Options, logit func(a int) float32, values []float32) *BotFile {
	t.Helper()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	enc := encoding.NewEncoder(g)
	cfg := NetConfig{ObsDim: enc.Size(), NumActions: enc.NumActions(), ValueDim: len(values), Width: 1, Depth: 0, Norm: NormNone}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range cfg.Params() {
		switch p.Name {
		case "policy_w", "value_w":
			clear(w.Tensors[i])
		case "policy_b":
			for a := range w.Tensors[i] {
				w.Tensors[i][a] = logit(a)
			}
		case "value_b":
			copy(w.Tensors[i], values)
		}
	}
	return &BotFile{Header: BotHeader{Name: "heads", EncodingVersion: encoding.Version, Actions: CurrentActionLayout(), Rules: opts}, Weights: w}
}

// turnMenuView plays random legal moves until seat 1 or later decides with EndTurn (id 0)
// and at least two other moves legal, and returns that seat's view and legal actions.
func turnMenuView(t *testing.T, opts rules.Options) (*rules.State, []int) {
	t.Helper()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(3)
	rng := rand.New(rand.NewPCG(1, 1))
	for step := 0; step < 5000 && !st.IsTerminal(); step++ {
		legal := st.LegalActions(nil)
		if d := st.CurrentPlayer(); d > 0 && legal[0] == 0 && len(legal) >= 3 {
			var view rules.State
			st.Redact(d, &view)
			return &view, legal
		}
		st.Apply(legal[rng.IntN(len(legal))])
	}
	t.Fatal("no turn menu with EndTurn and two other moves for seat 1 or later")
	return nil, nil
}

// softmax64 is the softmax of logit over ids, in float64.
func softmax64(logit func(a int) float32, ids []int) []float64 {
	top := math.Inf(-1)
	for _, a := range ids {
		top = max(top, float64(logit(a)))
	}
	p, sum := make([]float64, len(ids)), 0.0
	for i, a := range ids {
		p[i] = math.Exp(float64(logit(a)) - top)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// The search's prior is the softmax of the network's logits over the legal actions (EndTurn,
// id 0, among them); it stays exact and finite when the network is all but certain (one
// logit 200 above the rest: that move gets probability 1, the others 0, no overflow); an id
// the network has no output for gets probability 0, and a list of only such ids a uniform
// prior (nothing panics).
func TestSearchEvaluatorPriorIsTheSoftmaxOfTheLegalLogits(t *testing.T) {
	opts := rules.DefaultOptions()
	view, legal := turnMenuView(t, opts)
	values := []float32{0, 0, 0, 0}
	A := CurrentActionLayout().NumActions
	for name, c := range map[string]struct {
		logit func(a int) float32
		legal []int
		want  []float64
	}{
		"moderate logits, id 0 the highest": {
			logit: func(a int) float32 { return float32(40-(a*7)%31) / 4 },
			legal: legal,
		},
		"moderate logits, id 0 the lowest": {
			logit: func(a int) float32 { return float32((a*7)%31+1) / 4 },
			legal: legal,
		},
		"certain of id 0": {
			logit: func(a int) float32 { return float32(200 * max(0, 1-a)) },
			legal: legal,
			want:  append([]float64{1}, make([]float64, len(legal)-1)...),
		},
		"certain of the last legal id": {
			logit: func(a int) float32 { return float32(200 * max(0, a-legal[len(legal)-2])) },
			legal: legal,
			want:  append(make([]float64, len(legal)-1), 1),
		},
		"an id past the network's actions": {
			logit: func(a int) float32 { return float32(a%5) - 2 },
			legal: append(slices.Clone(legal), A),
		},
		"only ids the network does not know": {
			logit: func(a int) float32 { return 1 },
			legal: []int{A, A + 7},
			want:  []float64{0.5, 0.5},
		},
	} {
		ev, err := NewSearchEvaluator("heads", headNet(t, opts, c.logit, values), opts)
		if err != nil {
			t.Fatal(err)
		}
		want := c.want
		if want == nil {
			known := slices.DeleteFunc(slices.Clone(c.legal), func(a int) bool { return a >= A })
			want = softmax64(c.logit, known)
			for range len(c.legal) - len(known) {
				want = append(want, 0)
			}
		}
		prior, value := make([]float32, len(c.legal)), make([]float32, opts.Players)
		if err := ev.Evaluate(view, c.legal, prior, value); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range prior {
			if math.IsNaN(float64(prior[i])) || math.Abs(float64(prior[i])-want[i]) > 1e-6 {
				t.Fatalf("%s: prior %v for legal %v, want %v", name, prior, c.legal, want)
			}
		}
	}
}

// The leaf value of seat s is the value head's output for s (index 0 the decider, then
// clockwise) mapped from a rank reward in [-1, 1] to 0..1 by (v+1)/2 and clipped to 0..1; a
// value head with fewer outputs than the game has seats says nothing about the others, who
// get 0.5.
func TestSearchEvaluatorValuesAreTheValueHeadRotatedToSeatsAndMappedToZeroOne(t *testing.T) {
	opts := rules.DefaultOptions() // 4 players
	view, legal := turnMenuView(t, opts)
	d := view.CurrentPlayer()
	for name, c := range map[string]struct {
		head []float32 // relative to the decider
		want []float32 // relative to the decider
	}{
		"a head for every seat": {head: []float32{0.6, -0.2, 1.5, -3}, want: []float32{0.8, 0.4, 1, 0}},
		"a head for two seats":  {head: []float32{-0.5, 0}, want: []float32{0.25, 0.5, 0.5, 0.5}},
	} {
		ev, err := NewSearchEvaluator("heads", headNet(t, opts, func(int) float32 { return 0 }, c.head), opts)
		if err != nil {
			t.Fatal(err)
		}
		prior, value := make([]float32, len(legal)), make([]float32, opts.Players)
		if err := ev.Evaluate(view, legal, prior, value); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for r, w := range c.want {
			if got := value[(d+r)%opts.Players]; math.Abs(float64(got-w)) > 1e-6 {
				t.Fatalf("%s: decider %d, values %v; seat %d (decider+%d) %v, want %v", name, d, value, (d+r)%opts.Players, r, got, w)
			}
		}
	}
}
