package training

import (
	"math"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// TestAdviceGivesAnActionIdOutsideTheNetworkProbabilityZero: advice asked for a legal list
// that holds an id past the network's actions (a caller's mistake or a newer action layout)
// gives that id probability 0 and the network's actions their usual probabilities; it does
// not panic.
func TestAdviceGivesAnActionIdOutsideTheNetworkProbabilityZero(t *testing.T) {
	opts := rules.DefaultOptions()
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
	for i, p := range cfg.Params() {
		if p.Name == "policy_w" || p.Name == "policy_b" {
			clear(w.Tensors[i]) // equal logits: uniform over the legal actions
		}
	}
	f := &BotFile{Header: BotHeader{Name: "flat", EncodingVersion: encoding.Version, Actions: CurrentActionLayout(), Rules: opts}, Weights: w}
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
