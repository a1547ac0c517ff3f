package training

import (
	"math"
	"slices"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// TestAdviceOfAFlatNetIsUniformOverEveryLegalAction: a network whose policy logits are all
// equal advises probability 1/n for each of the n legal actions, action 0 ("end") included,
// and its value outputs (relative to the decider: 1, 2, 3, 4) come back in absolute seats.
func TestAdviceOfAFlatNetIsUniformOverEveryLegalAction(t *testing.T) {
	opts := rules.DefaultOptions()
	g, cfg, w := linearNet(t, opts)
	for i, p := range cfg.Params() {
		switch p.Name {
		case "policy_w", "policy_b", "value_w":
			clear(w.Tensors[i])
		case "value_b":
			for k := range w.Tensors[i] {
				w.Tensors[i][k] = float32(k + 1)
			}
		}
	}
	f := linearBotFile("flat", opts, w)
	nb, err := NewNetBot("flat", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(4)
	var view rules.State
	checked := 0
	for step := 0; step < 60 && !s.IsTerminal(); step++ {
		legal := s.LegalActions(nil)
		s.Redact(s.CurrentPlayer(), &view)
		a, err := nb.Advise(&view, legal)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range a.Probs {
			if math.Abs(p-1/float64(len(legal))) > 1e-5 {
				t.Fatalf("step %d: action %d has probability %g of %d legal, want %g", step, legal[i], p, len(legal), 1/float64(len(legal)))
			}
		}
		d := s.CurrentPlayer()
		for rel := range opts.Players {
			if got := a.Values[(d+rel)%opts.Players]; math.Abs(got-float64(rel+1)) > 1e-5 {
				t.Fatalf("step %d: seat %d (decider %d) has value %g, want %d", step, (d+rel)%opts.Players, d, got, rel+1)
			}
		}
		if slices.Contains(legal, 0) {
			checked++
		}
		s.Apply(legal[step%len(legal)])
	}
	if checked == 0 {
		t.Fatal("action 0 was never legal")
	}
}

// TestAdviceGivesAnActionIdOutsideTheNetworkProbabilityZero: advice asked for a legal list
// that holds an id past the network's actions (a caller's mistake or a newer action layout)
// gives that id probability 0 and the network's actions their usual probabilities; it does
// not panic.
func TestAdviceGivesAnActionIdOutsideTheNetworkProbabilityZero(t *testing.T) {
	opts := rules.DefaultOptions()
	g, cfg, w := linearNet(t, opts)
	for i, p := range cfg.Params() {
		if p.Name == "policy_w" || p.Name == "policy_b" {
			clear(w.Tensors[i]) // equal logits: uniform over the legal actions
		}
	}
	f := linearBotFile("flat", opts, w)
	nb, err := NewNetBot("flat", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(2)
	var view rules.State
	s.Redact(s.CurrentPlayer(), &view)
	legal := append(s.LegalActions(nil), cfg.NumActions)
	a, err := nb.Advise(&view, legal)
	if err != nil {
		t.Fatal(err)
	}
	n := len(legal) - 1
	for i, p := range a.Probs {
		want := 1 / float64(n)
		if i == n {
			want = 0
		}
		if math.Abs(p-want) > 1e-5 {
			t.Errorf("action %d: probability %g, want %g", legal[i], p, want)
		}
	}
}

// linearNet returns the game of opts and a network without hidden layers (width 1, depth 0,
// no normalisation) for its encoding, with seeded weights that a test then sets by hand.
func linearNet(t *testing.T, opts rules.Options) (*rules.Game, NetConfig, *Weights) {
	t.Helper()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	enc := encoding.NewEncoder(g)
	cfg := NetConfig{ObsDim: enc.Size(), NumActions: enc.NumActions(), ValueDim: opts.Players, Width: 1, Depth: 0, Norm: NormNone}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return g, cfg, w
}

// linearBotFile wraps weights made by linearNet as a bot file of the current layout.
func linearBotFile(name string, opts rules.Options, w *Weights) *BotFile {
	return &BotFile{Header: BotHeader{Name: name, EncodingVersion: encoding.Version, Actions: CurrentActionLayout(), Rules: opts}, Weights: w}
}
