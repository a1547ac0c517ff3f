package training

import (
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// TestDefaultBotIsEmbeddedAndFitsTheCurrentEncoding fails when the observation encoding or
// the action space changes under the shipped bot: retrain it (docs/TRAINING.md).
func TestDefaultBotIsEmbeddedAndFitsTheCurrentEncoding(t *testing.T) {
	f, err := DefaultBot()
	if err != nil {
		t.Fatal(err)
	}
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.CheckCompatible(encoding.Version, encoding.NewEncoder(g).Size(), CurrentActionLayout(), opts); err != nil {
		t.Fatalf("the embedded default bot no longer fits this build: %v", err)
	}
	b, err := bots.New(bots.DefaultName, opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*NetBot); !ok {
		t.Fatalf("bot %q is a %T, want the trained network", bots.DefaultName, b)
	}
}
