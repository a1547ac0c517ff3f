package bots

import (
	"flag"
	"fmt"
	"sort"
	"testing"

	"github.com/container-rl/container/env/rules"
)

var long = flag.Bool("long", false, "play thousands of games in the bot tests")

// optionSets is every legal combination of variant, modules and player count (Classic has no
// Truck Companies), with the short length so games stay quick.
func optionSets() []rules.Options {
	var out []rules.Options
	for _, v := range []rules.Variant{rules.Base, rules.Classic} {
		for m := rules.Modules(0); m <= rules.AllModules; m++ {
			if v == rules.Classic && m.Has(rules.Trucks) {
				continue
			}
			for p := 3; p <= rules.MaxPlayers; p++ {
				out = append(out, rules.Options{Players: p, Variant: v, Modules: m, Length: rules.Short})
			}
		}
	}
	return out
}

// playGame plays one game with the named bots (cycled over the seats), failing on a bot that
// returns an illegal action, and returns the final state.
func playGame(t testing.TB, o rules.Options, seed uint64, names []string) *rules.State {
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(seed)
	bs := make([]Bot, o.Players)
	for s := range bs {
		if bs[s], err = New(names[s%len(names)], o, seed*31+uint64(s)); err != nil {
			t.Fatal(err)
		}
	}
	var view rules.State
	legal := make([]int, 0, 256)
	for steps := 0; !st.IsTerminal(); steps++ {
		if steps > g.MaxGameLength() {
			t.Fatalf("%v seed %d: game longer than %d decisions", o, seed, g.MaxGameLength())
		}
		seat := st.CurrentPlayer()
		legal = st.LegalActions(legal)
		st.Redact(seat, &view)
		a := bs[seat].Act(&view, legal)
		if i := sort.SearchInts(legal, a); i == len(legal) || legal[i] != a {
			t.Fatalf("%v seed %d step %d: %s (seat %d) played illegal %d in phase %s", o, seed, steps, bs[seat].Name(), seat, a, st.Decision().Phase)
		}
		st.Apply(a)
	}
	return st
}

// Every bot finishes games on every option combination without an illegal move, in self-play
// and mixed with the others (use -long for many games per combination).
func TestBots_FinishEveryOptionCombinationLegally(t *testing.T) {
	games := 1
	if *long {
		games = 40
	}
	lineups := [][]string{
		{"manufacturer"}, {"shipper"}, {"valuer"},
		{"valuer", "shipper", "manufacturer", "random", "valuer"},
	}
	for _, o := range optionSets() {
		for li, names := range lineups {
			t.Run(fmt.Sprintf("%dp-%s-%s-%d", o.Players, o.Variant, o.Modules, li), func(t *testing.T) {
				for i := 0; i < games; i++ {
					st := playGame(t, o, uint64(1000*li+i), names)
					if len(st.Scores()) != o.Players {
						t.Fatalf("scores for %d seats", len(st.Scores()))
					}
				}
			})
		}
	}
}

// Scripted self-play ends the normal way (two colours out), not by the turn limit: the bots
// keep the economy moving.
func TestBots_ScriptedGamesEndByTheSupply(t *testing.T) {
	games := 10
	if *long {
		games = 500
	}
	o := rules.DefaultOptions()
	limit := 0
	for i := 0; i < games; i++ {
		st := playGame(t, o, uint64(i), []string{"valuer", "shipper", "manufacturer", "valuer"})
		if st.Ended == rules.EndTurnLimit {
			limit++
		}
	}
	if limit > games/10 {
		t.Errorf("%d of %d scripted games hit the turn limit", limit, games)
	}
}

func BenchmarkValuerAct(b *testing.B) {
	o := rules.DefaultOptions()
	g, _ := rules.NewGame(o)
	st := g.NewInitialStateSeed(1)
	bot := NewValuer(1)
	var view rules.State
	legal := st.LegalActions(nil)
	st.Redact(st.CurrentPlayer(), &view)
	b.ReportAllocs()
	for b.Loop() {
		bot.Act(&view, legal)
	}
}
