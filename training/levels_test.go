package training

import (
	"strings"
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
	// want[i] is the target each level plays for tc's options: 0 its first, 1 its fallback and
	// so on (expert's first agent needs the 4-player value network, its second default).
	for _, tc := range []struct {
		opts rules.Options
		want map[string]int
	}{
		{base, map[string]int{"hard": 0, "expert": 0}},
		{classic3, map[string]int{"hard": 0, "expert": 1}},
		{modules4, map[string]int{"hard": 0, "expert": 1}},
		{short, map[string]int{"hard": 1, "expert": 2}},
		{trucks5, map[string]int{"hard": 1, "expert": 2}},
	} {
		for _, l := range bots.Levels {
			got, err := bots.AliasFor(l.Name, tc.opts)
			if err != nil {
				t.Fatalf("%s for %+v: %v", l.Name, tc.opts, err)
			}
			want := l.Targets[tc.want[l.Name]]
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
			case strings.HasPrefix(want, search.Name):
				s, ok := b.(*search.Bot)
				if !ok {
					t.Fatalf("%s made a %T, want the search", l.Name, b)
				}
				wantCfg, err := search.Parse(strings.TrimPrefix(strings.TrimPrefix(want, search.Name), ":"))
				if err != nil {
					t.Fatal(err)
				}
				if got := s.Config(); got.Net != wantCfg.Net || got.Value != wantCfg.Value || got.Leaf != wantCfg.Leaf {
					t.Errorf("%s for %+v searches with net %q, value %q, leaf %q; want %q, %q, %q",
						l.Name, tc.opts, got.Net, got.Value, got.Leaf, wantCfg.Net, wantCfg.Value, wantCfg.Leaf)
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
