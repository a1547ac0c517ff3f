package eval

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

func smallConfig(agents ...string) Config {
	o := rules.DefaultOptions()
	o.Players = 4
	o.TurnLimit = 120 // random seats can stall a game; keep the test fast
	return Config{Agents: agents, Games: 12, Options: o, Seed: 42}
}

func TestRun_SameResultWhateverTheWorkerCount(t *testing.T) {
	var results []*Result
	for _, w := range []int{1, 2, 5} {
		cfg := smallConfig("valuer", "shipper", "manufacturer", "random")
		cfg.Workers = w
		r, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	for i := 1; i < len(results); i++ {
		if !reflect.DeepEqual(results[0].Games, results[i].Games) {
			t.Fatalf("worker counts 1 and %d give different games", []int{1, 2, 5}[i])
		}
	}
	cfg := smallConfig("valuer", "shipper", "manufacturer", "random")
	cfg.Seed = 43
	other, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(results[0].Games, other.Games) {
		t.Errorf("seeds 42 and 43 give the same games")
	}
}

func TestRun_SeatsRotateOverTheGames(t *testing.T) {
	cfg := smallConfig("valuer", "random", "shipper")
	cfg.Games = 9
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Games) != 9 || r.Interrupted {
		t.Fatalf("%d games, interrupted %v", len(r.Games), r.Interrupted)
	}
	count := [3][4]int{}
	for i, g := range r.Games {
		if g.Index != i || len(g.Scores) != 4 {
			t.Fatalf("game %d: index %d, %d scores", i, g.Index, len(g.Scores))
		}
		for s, a := range g.Agents {
			count[a][s]++
		}
	}
	for a := range count {
		for s := range count[a] {
			if count[a][s] != 3 {
				t.Errorf("agent %d seat %d: %d games, want 3", a, s, count[a][s])
			}
		}
	}
}

// illegal always answers an action id no decision allows.
type illegal struct{}

func (illegal) Name() string                                     { return "illegal" }
func (illegal) Act(*rules.State, []int) int                      { return -1 }
func (illegal) Seed(uint64)                                      {}
func newIllegal(string, rules.Options, uint64) (bots.Bot, error) { return illegal{}, nil }

func TestRun_IllegalActionIsAnError(t *testing.T) {
	cfg := smallConfig("x")
	cfg.NewBot = newIllegal
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrIllegalBotAction) {
		t.Fatalf("err = %v, want ErrIllegalBotAction", err)
	}
}

func TestRun_BadConfig(t *testing.T) {
	cases := map[string]func(*Config){
		"no agents":     func(c *Config) { c.Agents = nil },
		"no games":      func(c *Config) { c.Games = 0 },
		"unknown bot":   func(c *Config) { c.Agents = []string{"nobody"} },
		"bad options":   func(c *Config) { c.Options.Players = 2 },
		"negative work": func(c *Config) { c.Workers = -1 },
	}
	for name, f := range cases {
		cfg := smallConfig("random")
		f(&cfg)
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: err = %v, want ErrConfig", name, err)
		}
	}
}

func TestRun_CancelledContextReturnsTheGamesSoFar(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := smallConfig("valuer", "random")
	cfg.Games = 200
	cfg.Workers = 1
	cfg.Progress = func(done, _ int) {
		if done == 3 {
			cancel()
		}
	}
	r, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted || len(r.Games) < 3 || len(r.Games) >= 200 {
		t.Fatalf("interrupted %v with %d games", r.Interrupted, len(r.Games))
	}
}

func TestRun_KeepRecordsReplay(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer", "random")
	cfg.Games = 2
	cfg.KeepRecords = true
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.Games {
		st, err := g.Record.Verify()
		if err != nil {
			t.Fatalf("game %d: %v", g.Index, err)
		}
		if !reflect.DeepEqual(st.Scores(), g.Scores) {
			t.Errorf("game %d: replayed scores differ", g.Index)
		}
	}
}

func BenchmarkTournament_ScriptedBots(b *testing.B) {
	cfg := smallConfig("valuer", "shipper", "manufacturer", "valuer")
	cfg.Options.TurnLimit = 0
	cfg.Games = 1
	cfg.Workers = 1
	for i := 0; b.Loop(); i++ {
		cfg.Seed = uint64(i)
		if _, err := Run(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// A tournament of a single game runs; zero games is a configuration error.
func TestRunPlaysOneGameAndRefusesNone(t *testing.T) {
	cfg := smallConfig("random")
	cfg.Games = 1
	r, err := Run(context.Background(), cfg)
	if err != nil || len(r.Games) != 1 {
		t.Fatalf("one game: %v", err)
	}
	cfg.Games = 0
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Fatal("zero games accepted")
	}
}

// A game's Turns counts the turns played: a game stopped by a turn limit of 5 reports 5.
func TestGameResultCountsTheTurnsPlayed(t *testing.T) {
	cfg := smallConfig("random")
	cfg.Games = 2
	cfg.Options.TurnLimit = 5
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.Games {
		if g.EndReason != rules.EndTurnLimit || g.Turns != 5 {
			t.Fatalf("game %d: ended %v after %d turns, want the turn limit after 5", g.Index, g.EndReason, g.Turns)
		}
	}
}
