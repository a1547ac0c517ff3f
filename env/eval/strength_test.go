package eval

import (
	"context"
	"flag"
	"testing"

	"github.com/container-rl/container/env/rules"
)

var long = flag.Bool("long", false, "measure bot strength over 1000-game tournaments")

func strengthGames() int {
	if *long {
		return 1000
	}
	return 48
}

// Every scripted bot beats random in 4-player games: against three random bots its seat wins
// far more than its 25% share (the lower end of the 95% interval is above 50%).
func TestStrength_EveryScriptedBotBeatsRandom(t *testing.T) {
	for _, name := range []string{"manufacturer", "shipper", "valuer"} {
		cfg := Config{Agents: []string{name, "random", "random", "random"}, Games: strengthGames(),
			Options: rules.DefaultOptions(), Seed: 1}
		r, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := Summarize(r).Agents[0]
		t.Logf("%s vs 3 random: %.1f%% [%.1f%%, %.1f%%] over %d games", name, 100*s.Rate.Rate, 100*s.Lo, 100*s.Hi, s.Games)
		if s.Lo <= 0.5 {
			t.Errorf("%s wins %.1f%% [%.1f%%, %.1f%%] against random, want far above 25%%", name, 100*s.Rate.Rate, 100*s.Lo, 100*s.Hi)
		}
	}
}

// The valuer is the strongest scripted bot: in a mixed table it wins more than any other
// agent, with non-overlapping intervals.
func TestStrength_ValuerIsTheStrongestScriptedBot(t *testing.T) {
	cfg := Config{Agents: []string{"valuer", "shipper", "manufacturer", "random"}, Games: strengthGames(),
		Options: rules.DefaultOptions(), Seed: 1}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum := Summarize(r)
	v := sum.Agents[0]
	for _, a := range sum.Agents[1:] {
		t.Logf("%s %.1f%% [%.1f%%, %.1f%%]", a.Name, 100*a.Rate.Rate, 100*a.Lo, 100*a.Hi)
		if a.Hi >= v.Lo {
			t.Errorf("valuer %.1f%% [%.1f%%, %.1f%%] does not clearly beat %s %.1f%% [%.1f%%, %.1f%%]",
				100*v.Rate.Rate, 100*v.Lo, 100*v.Hi, a.Name, 100*a.Rate.Rate, 100*a.Lo, 100*a.Hi)
		}
	}
	rt := DefaultRatingModel.Rate(r)
	if rt[0].Name != "valuer" {
		t.Errorf("rating order starts with %s, want valuer", rt[0].Name)
	}
}
