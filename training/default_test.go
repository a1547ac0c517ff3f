package training

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
)

// TestDefaultBotIsEmbeddedAndFitsTheCurrentEncoding fails when the observation encoding or
// the action space changes under the shipped bot: upgrade it by name (TestEveryShippedModelUpgradesByName,
// -upgrade-shipped) and retrain it (docs/TRAINING.md).
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

// TestDefaultBotRefusesOptionsItHasNoModelFor: made for options none of the embedded models was
// trained for, "default" is an error naming the options (never a bot that plays its first legal
// action every turn).
func TestDefaultBotRefusesOptionsItHasNoModelFor(t *testing.T) {
	files, err := DefaultBots()
	if err != nil {
		t.Fatal(err)
	}
	classicLoans := rules.DefaultOptions()
	classicLoans.Variant, classicLoans.Modules = rules.Classic, rules.PlayerLoans
	luxury := rules.DefaultOptions()
	luxury.Modules, luxury.Players = rules.Luxury, 3
	trucks := rules.DefaultOptions()
	trucks.Modules = rules.Trucks
	short := rules.DefaultOptions()
	short.Length = rules.Short
	extended := rules.DefaultOptions()
	extended.Length, extended.Players = rules.Extended, 5
	for name, o := range map[string]rules.Options{"classic + player loans": classicLoans, "luxury only 3p": luxury,
		"trucks only": trucks, "short": short, "extended 5p": extended} {
		b, err := bots.New(bots.DefaultName, o, 1)
		if err == nil {
			t.Errorf("%s: default made a %T for options it has no model for", name, b)
			continue
		}
		if !errors.Is(err, ErrIncompatible) {
			t.Errorf("%s: err = %v, want ErrIncompatible", name, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, "no model for "+describeOptions(o)) || !strings.Contains(msg, describeOptions(files[0].Header.Rules)) {
			t.Errorf("%s: error %q does not name the game's options and the models there are", name, msg)
		}
		// A tournament fails before its first game.
		_, err = eval.Run(context.Background(), eval.Config{Agents: []string{bots.DefaultName, "valuer"}, Games: 2, Options: o})
		if !errors.Is(err, eval.ErrConfig) || !errors.Is(err, ErrIncompatible) {
			t.Errorf("%s: tournament err = %v, want ErrConfig wrapping ErrIncompatible", name, err)
		}
	}
}

// TestDefaultBotHasAModelForEachPlayerCount: "default" picks the embedded model trained for
// the game: base rules, Classic, and base rules with all modules, each for 3, 4 and 5 players.
func TestDefaultBotHasAModelForEachPlayerCount(t *testing.T) {
	var sets []rules.Options
	for p := 3; p <= rules.MaxPlayers; p++ {
		o := rules.DefaultOptions()
		o.Players = p
		sets = append(sets, o)
	}
	for p := 3; p <= rules.MaxPlayers; p++ {
		modules := rules.DefaultOptions()
		modules.Modules, modules.Players = rules.AllModules, p
		classic := rules.DefaultOptions()
		classic.Variant, classic.Players = rules.Classic, p
		sets = append(sets, modules, classic)
	}
	for _, o := range sets {
		p := describeOptions(o)
		f, err := DefaultBotFor(o)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if !sameRulesOptions(f.Header.Rules, o) {
			t.Errorf("%s: got the model for %s", p, describeOptions(f.Header.Rules))
		}
		b, err := bots.New(bots.DefaultName, o, 1)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		nb := b.(*NetBot)
		if nb.File() != f {
			t.Errorf("%s: bot plays another file", p)
		}
		// It plays a real game with its network, not a fallback.
		g, _ := rules.NewGame(o)
		st := g.NewInitialStateSeed(3)
		var view rules.State
		var legal []int
		for i := 0; i < 200 && !st.IsTerminal(); i++ {
			legal = st.LegalActions(legal)
			st.Redact(st.CurrentPlayer(), &view)
			st.Apply(b.Act(&view, legal))
		}
		if nb.Err() != nil {
			t.Errorf("%s: %v", p, nb.Err())
		}
	}
}
