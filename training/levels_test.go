package training

import (
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
)

// Every level makes a bot for every option set: its first agent where default has a model
// for the options, its fallback elsewhere (docs/BOTS.md, "Levels").
func TestLevels_MakeTheirAgentOrTheirFallbackForEveryOptionSet(t *testing.T) {
	base := rules.DefaultOptions()
	short := base
	short.Length = rules.Short
	classic3 := base
	classic3.Players, classic3.Variant = 3, rules.Classic
	trucks5 := base
	trucks5.Players, trucks5.Modules = 5, rules.Trucks
	modules4 := base
	modules4.Modules = rules.AllModules
	for _, tc := range []struct {
		opts  rules.Options
		model bool // default has a model for these options
	}{{base, true}, {classic3, true}, {modules4, true}, {short, false}, {trucks5, false}} {
		for _, l := range bots.Levels {
			got, err := bots.AliasFor(l.Name, tc.opts)
			if err != nil {
				t.Fatalf("%s for %+v: %v", l.Name, tc.opts, err)
			}
			want := l.Targets[0]
			if !tc.model && len(l.Targets) > 1 {
				want = l.Targets[1]
			}
			if got != want {
				t.Errorf("%s for %+v is %q, want %q", l.Name, tc.opts, got, want)
			}
			b, err := bots.New(l.Name, tc.opts, 1)
			if err != nil {
				t.Fatalf("bots.New(%s, %+v): %v", l.Name, tc.opts, err)
			}
			switch {
			case want == bots.DefaultName:
				if _, ok := b.(*NetBot); !ok {
					t.Errorf("%s made a %T, want the trained network", l.Name, b)
				}
			case want[:min(len(want), 6)] == search.Name:
				s, ok := b.(*search.Bot)
				if !ok {
					t.Fatalf("%s made a %T, want the search", l.Name, b)
				}
				wantNet := ""
				if want == "ismcts:net=default,rollout=valuer" {
					wantNet = bots.DefaultName
				}
				if s.Config().Net != wantNet {
					t.Errorf("%s for %+v searches with net %q, want %q", l.Name, tc.opts, s.Config().Net, wantNet)
				}
			default:
				if b.Name() != want {
					t.Errorf("%s made %q, want %q", l.Name, b.Name(), want)
				}
			}
		}
	}
}

// A level stands for its agent, temperature included: hard@1 is default@1.
func TestLevels_TakeATemperatureWhereTheirAgentDoes(t *testing.T) {
	b, err := bots.New("hard@1", rules.DefaultOptions(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if nb, ok := b.(*NetBot); !ok || nb.Temperature != 1 {
		t.Errorf("hard@1 made %T %+v, want the network sampling at temperature 1", b, b)
	}
	if _, err := bots.New("medium@1", rules.DefaultOptions(), 1); err == nil {
		t.Error("medium@1 (the valuer) accepted a temperature")
	}
}
