package search

import (
	"errors"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

func TestRegistry_IsmctsSpecsInAgentLists(t *testing.T) {
	opts := rules.DefaultOptions()
	for _, spec := range bots.SplitAgents("ismcts,ismcts:sims=20,rollout=random,depth=10,ismcts:ms=5,workers=1") {
		if err := bots.Resolve(spec); err != nil {
			t.Fatalf("Resolve(%q): %v", spec, err)
		}
		b, err := bots.New(spec, opts, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		if !strings.HasPrefix(b.Name(), "ismcts:") {
			t.Errorf("New(%q).Name() = %q", spec, b.Name())
		}
	}
	err := bots.Resolve("ismcts:sims=10,budget=5")
	if !errors.Is(err, bots.ErrBadSpec) || !strings.Contains(err.Error(), `"budget"`) {
		t.Errorf("Resolve with an unknown key: %v", err)
	}
	if _, err := bots.New("ismcts:rollout=ismcts", opts, 1); err == nil || !strings.Contains(err.Error(), "rollout=ismcts") {
		t.Errorf("New with a bad rollout: %v", err)
	}
	if _, err := bots.New("ismcts@0.5", opts, 1); !errors.Is(err, bots.ErrBadSpec) {
		t.Errorf("a temperature on ismcts: %v, want ErrBadSpec", err)
	}
}
