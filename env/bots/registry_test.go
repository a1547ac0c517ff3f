package bots

import (
	"errors"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func TestRegistry_ListsRandomAndTheScriptedBots(t *testing.T) {
	want := map[string]bool{"random": false, "manufacturer": false, "shipper": false, "valuer": false}
	for _, i := range List() {
		if _, ok := want[i.Name]; ok {
			want[i.Name] = true
			if i.Description == "" {
				t.Errorf("%s has no description", i.Name)
			}
		}
	}
	for n, found := range want {
		if !found {
			t.Errorf("%s is not registered", n)
		}
		b, err := New(n, rules.DefaultOptions(), 1)
		if err != nil {
			t.Fatalf("New(%q): %v", n, err)
		}
		if b.Name() != n {
			t.Errorf("New(%q).Name() = %q", n, b.Name())
		}
		if _, ok := b.(Seeder); !ok {
			t.Errorf("%s does not implement Seeder", n)
		}
	}
}

func TestRegistry_Errors(t *testing.T) {
	if _, err := New("nobody", rules.DefaultOptions(), 1); !errors.Is(err, ErrUnknownBot) {
		t.Errorf("unknown name: err = %v, want ErrUnknownBot", err)
	}
	if err := Resolve(DefaultName); err == nil {
		if _, ok := Lookup(DefaultName); !ok {
			t.Errorf("Resolve(default) succeeded with no default registered")
		}
	} else if !strings.Contains(err.Error(), "training package") {
		t.Errorf("Resolve(default) error %q does not say where the default bot comes from", err)
	}
	if err := Register("random", "again", func(rules.Options, uint64) (Bot, error) { return NewRandom(0), nil }); !errors.Is(err, ErrDuplicateBot) {
		t.Errorf("duplicate: err = %v, want ErrDuplicateBot", err)
	}
	if err := Register("a/b", "bad", func(rules.Options, uint64) (Bot, error) { return NewRandom(0), nil }); err == nil {
		t.Errorf("a name with a slash was accepted")
	}
}

// A registered bot's factory gets the game's options from New, so a bot that cannot play them
// can refuse up front.
func TestRegistry_FactoryGetsTheGameOptions(t *testing.T) {
	var got rules.Options
	refuse := errors.New("not for 5 players")
	if err := Register("test-options-probe", "records its options", func(o rules.Options, seed uint64) (Bot, error) {
		got = o
		if o.Players == 5 {
			return nil, refuse
		}
		return NewRandom(seed), nil
	}); err != nil {
		t.Fatal(err)
	}
	defer func() { regMu.Lock(); delete(registry, "test-options-probe"); regMu.Unlock() }()
	o := rules.DefaultOptions()
	o.Players, o.Variant = 3, rules.Classic
	if _, err := New("test-options-probe", o, 1); err != nil {
		t.Fatal(err)
	}
	if got != o {
		t.Errorf("factory got %+v, want %+v", got, o)
	}
	o.Players = 5
	if _, err := New("test-options-probe", o, 1); !errors.Is(err, refuse) || !strings.Contains(err.Error(), "test-options-probe") {
		t.Errorf("refusal not passed on with the bot's name: %v", err)
	}
}

func TestRegistry_FileLoaderHook(t *testing.T) {
	regMu.RLock()
	old := fileLoader
	regMu.RUnlock()
	defer RegisterFileLoader(old)

	RegisterFileLoader(nil)
	if _, err := New("models/x.bot", rules.DefaultOptions(), 1); !errors.Is(err, ErrUnknownBot) {
		t.Errorf("file without loader: err = %v, want ErrUnknownBot", err)
	}
	var gotPath string
	var gotSeed uint64
	RegisterFileLoader(func(path string, _ rules.Options, seed uint64) (Bot, error) {
		gotPath, gotSeed = path, seed
		return NewRandom(seed), nil
	})
	if _, err := New("models/x.bot", rules.DefaultOptions(), 7); err != nil {
		t.Fatal(err)
	}
	if gotPath != "models/x.bot" || gotSeed != 7 {
		t.Errorf("loader got (%q, %d), want (models/x.bot, 7)", gotPath, gotSeed)
	}
	RegisterFileLoader(func(string, rules.Options, uint64) (Bot, error) { return nil, errors.New("corrupt") })
	if _, err := New("x.bot", rules.DefaultOptions(), 1); err == nil || !strings.Contains(err.Error(), "x.bot") {
		t.Errorf("loader error not reported with the path: %v", err)
	}
}

// A reseeded bot plays exactly as a fresh one made with that seed, whatever it played before.
func TestSeed_ReseededBotPlaysLikeAFreshOne(t *testing.T) {
	o := rules.DefaultOptions()
	for _, name := range []string{"random", "manufacturer", "shipper", "valuer"} {
		used, _ := New(name, o, 99)
		playWith(t, o, 5, used) // leave state behind
		used.(Seeder).Seed(7)
		fresh, _ := New(name, o, 7)
		a := playWith(t, o, 11, used)
		b := playWith(t, o, 11, fresh)
		if len(a) != len(b) {
			t.Fatalf("%s: reseeded game has %d moves, fresh %d", name, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: move %d differs", name, i)
			}
		}
	}
}

// playWith plays a game with b in every seat and returns its moves.
func playWith(t *testing.T, o rules.Options, seed uint64, b Bot) []rules.Move {
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(seed)
	var view rules.State
	var legal []int
	for !st.IsTerminal() {
		legal = st.LegalActions(legal)
		st.Redact(st.CurrentPlayer(), &view)
		st.Apply(b.Act(&view, legal))
	}
	return append([]rules.Move(nil), st.History()...)
}

func TestRegistry_TemperatureSpecs(t *testing.T) {
	for spec, want := range map[string]struct {
		name string
		temp float64
		ok   bool
	}{
		"default@0.5":          {"default", 0.5, true},
		"runs/p4.bot@1":        {"runs/p4.bot", 1, true},
		"default@0":            {"default", 0, true},
		"valuer":               {"valuer", 0, false},
		"path/with@sign.bot@2": {"path/with@sign.bot", 2, true},
		"runs/model@v2.bot":    {"runs/model@v2.bot", 0, false},
	} {
		name, temp, ok, err := SplitTemperature(spec)
		if err != nil || name != want.name || temp != want.temp || ok != want.ok {
			t.Errorf("SplitTemperature(%q) = %q, %v, %v, %v; want %q, %v, %v", spec, name, temp, ok, err, want.name, want.temp, want.ok)
		}
	}
	for _, bad := range []string{"default@", "default@x", "default@-1", "default@NaN", "default@1000", "@1"} {
		if _, _, _, err := SplitTemperature(bad); !errors.Is(err, ErrBadSpec) {
			t.Errorf("SplitTemperature(%q): err = %v, want ErrBadSpec", bad, err)
		}
		if err := Resolve(bad); !errors.Is(err, ErrBadSpec) {
			t.Errorf("Resolve(%q): err = %v, want ErrBadSpec", bad, err)
		}
	}
	// Scripted bots play by their own rules: a temperature is refused, not ignored.
	if _, err := New("valuer@1", rules.DefaultOptions(), 1); !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), "trained bots only") {
		t.Errorf("valuer@1: err = %v, want ErrBadSpec naming trained bots", err)
	}
	if err := Resolve("nobody@1"); !errors.Is(err, ErrUnknownBot) {
		t.Errorf("nobody@1: err = %v, want ErrUnknownBot", err)
	}
	if err := Register("a@b", "x", func(rules.Options, uint64) (Bot, error) { return nil, nil }); err == nil {
		t.Error("a name with @ was registered")
	}
}
