package training

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/models"
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

// TestDefaultHeadersAreThoseOfTheFullFiles: the headers read at start-up (without the weights)
// are the headers of the fully read and checked files, in the same order, so the description
// of the "default" bot says what DefaultBots would load.
func TestDefaultHeadersAreThoseOfTheFullFiles(t *testing.T) {
	hs, err := defaultHeaders()
	if err != nil {
		t.Fatal(err)
	}
	files, err := DefaultBots()
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != len(files) {
		t.Fatalf("%d headers, %d files", len(hs), len(files))
	}
	for i := range hs {
		if !reflect.DeepEqual(hs[i], files[i].Header) {
			t.Errorf("header %d differs from the full file's", i)
		}
	}
	if hs[0].Rules.Players != 4 || hs[0].Rules.Modules != 0 {
		t.Errorf("first header is for %s, want default.bot (base 4 players)", describeOptions(hs[0].Rules))
	}
	info, ok := bots.Lookup(bots.DefaultName)
	if !ok {
		t.Fatalf("%q is not registered", bots.DefaultName)
	}
	full := make([]BotHeader, len(files))
	for i, f := range files {
		full[i] = f.Header
	}
	if want := describeModels(full); !strings.HasSuffix(info.Description, want) {
		t.Errorf("description %q does not end with %q", info.Description, want)
	}
}

// TestReadHeaderRejectsBadInput: a header read stops with ErrCorrupt on a wrong magic, a
// truncated preamble or header, or a header that is not the expected JSON: an unknown key, a
// key spelt in other capitals, a key twice, or anything after the header's object.
func TestReadHeaderRejectsBadInput(t *testing.T) {
	good, err := models.ReadFile("default.bot")
	if err != nil {
		t.Fatal(err)
	}
	var h BotHeader
	if err := readHeader(bytes.NewReader(good), botMagic, &h); err != nil {
		t.Fatalf("the embedded default.bot: %v", err)
	}
	bad := map[string][]byte{
		"empty":           nil,
		"short preamble":  good[:10],
		"wrong magic":     append([]byte("NOTABOT!"), good[8:]...),
		"truncated JSON":  good[:40],
		"not JSON":        append(append([]byte{}, good[:12]...), bytes.Repeat([]byte("x"), 1<<12)...),
		"unknown field":   headerBytes(`{"no_such_field":1}`),
		"key in capitals": headerBytes(`{"NAME":"x"}`),
		"key twice":       headerBytes(`{"name":"x","name":"y"}`),
		"data after":      headerBytes(`{"name":"x"} {}`),
		"oversize header": append([]byte(botMagic), 0xff, 0xff, 0xff, 0xff),
	}
	for name, b := range bad {
		var h BotHeader
		if err := readHeader(bytes.NewReader(b), botMagic, &h); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

// headerBytes is a preamble and json as the header.
func headerBytes(json string) []byte {
	b := []byte(botMagic)
	n := len(json)
	b = append(b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	return append(b, json...)
}
