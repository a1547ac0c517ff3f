package training

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func testBot(t testing.TB) *BotFile {
	t.Helper()
	cfg := NetConfig{ObsDim: 12, NumActions: rules.NumDistinctActions(), ValueDim: 4, Width: 8, Depth: 2, Norm: NormLayer}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &BotFile{Header: BotHeader{Name: "test", EncodingVersion: "obs-test", Actions: CurrentActionLayout(),
		Rules: rules.DefaultOptions()}, Weights: w}
}

func encodeBot(t testing.TB, b *BotFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBotFileRoundTripGivesIdenticalProbabilities(t *testing.T) {
	b := testBot(t)
	got, err := ReadBot(bytes.NewReader(encodeBot(t, b)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range b.Weights.Tensors {
		if !slices.Equal(b.Weights.Tensors[i], got.Weights.Tensors[i]) {
			t.Fatalf("tensor %d differs after the round trip", i)
		}
	}
	cfg := b.Weights.Config
	obs, mask := randomBatch(cfg, 9, 2)
	probs := func(w *Weights) []float32 {
		n, err := NewNet(w)
		if err != nil {
			t.Fatal(err)
		}
		l := make([]float32, 9*cfg.NumActions)
		n.Forward(&Workspace{}, 9, obs, mask, l, nil)
		for r := range 9 {
			SoftmaxRow(l[r*cfg.NumActions:(r+1)*cfg.NumActions], 1)
		}
		return l
	}
	if !slices.Equal(probs(b.Weights), probs(got.Weights)) {
		t.Fatal("action probabilities differ after export and load")
	}
	if got.Header.Name != "test" || got.Header.EncodingVersion != "obs-test" {
		t.Fatalf("header lost: %+v", got.Header)
	}
}

func TestBotFileVersionMismatchIsAClearError(t *testing.T) {
	b := testBot(t)
	opts := rules.DefaultOptions()
	if err := b.CheckCompatible("obs-test", 12, CurrentActionLayout(), opts); err != nil {
		t.Fatalf("compatible bot refused: %v", err)
	}
	seeded := opts
	seeded.Seed = 99
	if err := b.CheckCompatible("obs-test", 12, CurrentActionLayout(), seeded); err != nil {
		t.Fatalf("seed must not matter: %v", err)
	}
	other := opts
	other.Players = 5
	classic := opts
	classic.Variant = rules.Classic
	layout := CurrentActionLayout()
	layout.Kinds[3].Count++
	for name, err := range map[string]error{
		"encoding version": b.CheckCompatible("obs-v999", 12, CurrentActionLayout(), opts),
		"observation size": b.CheckCompatible("obs-test", 13, CurrentActionLayout(), opts),
		"players":          b.CheckCompatible("obs-test", 12, CurrentActionLayout(), other),
		"variant":          b.CheckCompatible("obs-test", 12, CurrentActionLayout(), classic),
		"action layout":    b.CheckCompatible("obs-test", 12, layout, opts),
	} {
		if !errors.Is(err, ErrIncompatible) {
			t.Errorf("%s mismatch: got %v, want ErrIncompatible", name, err)
		}
	}
}

func TestBotFileCorruptInputsAreErrors(t *testing.T) {
	data := encodeBot(t, testBot(t))
	for cut := 0; cut < len(data); cut += 1 + cut/7 {
		if _, err := ReadBot(bytes.NewReader(data[:cut])); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated at %d: got %v, want ErrCorrupt", cut, err)
		}
	}
	for i := 0; i < len(data); i += 1 + i/5 {
		bad := slices.Clone(data)
		bad[i] ^= 0x40
		if _, err := ReadBot(bytes.NewReader(bad)); err == nil {
			t.Fatalf("flipped byte %d accepted", i)
		}
	}
	if _, err := ReadBot(bytes.NewReader(append(slices.Clone(data), 0))); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("trailing byte: got %v", err)
	}
}

func FuzzReadBot(f *testing.F) {
	data := encodeBot(f, testBot(f))
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte(botMagic + "\xff\xff\xff\x00{}"))
	f.Add([]byte(botMagic + "\x10\x00\x00\x00{\"tensors\":[{}]}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		b, err := ReadBot(bytes.NewReader(in))
		if err != nil {
			return
		}
		// Whatever loads must be usable.
		if _, err := NewNet(b.Weights); err != nil {
			t.Fatalf("loaded bot has unusable weights: %v", err)
		}
	})
}

// A bot trained before the +$100 amount id (action layout actions-v1: 240 ids, no "version"
// in its header) is refused with one line naming both layouts, never read with shifted ids.
func TestBotFileOldActionLayoutIsRefusedNamingVersions(t *testing.T) {
	b := testBot(t)
	old := CurrentActionLayout()
	old.Version = ""
	old.NumActions--
	old.Kinds = old.Kinds[:len(old.Kinds)-1]
	b.Header.Actions = old
	err := b.CheckCompatible("obs-test", 12, CurrentActionLayout(), rules.DefaultOptions())
	if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "actions-v1 (240 ids)") ||
		!strings.Contains(err.Error(), rules.ActionLayoutVersion+" (241 ids)") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("old layout: %v", err)
	}
}

// Edge cases of the bot file checks (botfile.go; the mutation records in docs/results/ name the bug each one catches).

// A bot refused for the game's rules options says, in one line, both option sets (modules
// "none" when there are none) and exactly the options that differ, in both directions of a
// module mismatch.
func TestIncompatibleBotErrorNamesExactlyTheOptionsThatDiffer(t *testing.T) {
	four := rules.DefaultOptions()
	five := four
	five.Players = 5
	trucks := four
	trucks.Modules = rules.Trucks
	classicSupply := four
	classicSupply.Variant, classicSupply.Length, classicSupply.Warehouses = rules.Classic, rules.Short, 3
	for _, c := range []struct {
		trained, game rules.Options
		want          string
	}{
		{four, five, "trained for rules options {players 4, base, standard, modules none, supply 0/0/0/0}, " +
			"this game uses {players 5, base, standard, modules none, supply 0/0/0/0} (this game has players 5, not 4)"},
		{four, trucks, "trained for rules options {players 4, base, standard, modules none, supply 0/0/0/0}, " +
			"this game uses {players 4, base, standard, modules trucks, supply 0/0/0/0} (this game has modules trucks, not none)"},
		{trucks, four, "trained for rules options {players 4, base, standard, modules trucks, supply 0/0/0/0}, " +
			"this game uses {players 4, base, standard, modules none, supply 0/0/0/0} (this game has modules none, not trucks)"},
		{four, classicSupply, "trained for rules options {players 4, base, standard, modules none, supply 0/0/0/0}, " +
			"this game uses {players 4, classic, short, modules none, supply 0/0/3/0} " +
			"(this game has rules classic, not base; length short, not standard; supply 0/0/3/0, not 0/0/0/0)"},
	} {
		b := testBot(t)
		b.Header.Rules = c.trained
		err := b.CheckCompatible("obs-test", 12, CurrentActionLayout(), c.game)
		if !errors.Is(err, ErrIncompatible) || err.Error() != ErrIncompatible.Error()+": "+c.want {
			t.Errorf("trained %+v, game %+v:\n got %v\nwant %s: %s", c.trained, c.game, err, ErrIncompatible, c.want)
		}
	}
}

// TestReadBotFileNamesTheNewPlaceOfAMovedModel: a shipped or retired model asked for where it
// was kept before package models (training/X.bot), read or played by path (an agent spec),
// fails with the path it has now.
func TestReadBotFileNamesTheNewPlaceOfAMovedModel(t *testing.T) {
	dir := t.TempDir()
	for path, want := range map[string]string{
		filepath.Join("..", "training", "default.bot"):           filepath.Join("..", "models", "default.bot"),
		filepath.Join("training", "retired", "default-3p.bot"):   filepath.Join("models", "retired", "default-3p.bot"),
		filepath.Join(dir, "training", "default-classic-5p.bot"): filepath.Join(dir, "models", "default-classic-5p.bot"),
	} {
		_, err := ReadBotFile(path)
		if err == nil || !strings.Contains(err.Error(), "moved from training/ to models/: use "+want) {
			t.Errorf("%s: err = %v, want one naming %s", path, err, want)
		}
	}
	if _, err := LoadBotForGame(filepath.Join("..", "training", "retired", "default.bot"), rules.DefaultOptions(), 1); err == nil ||
		!strings.Contains(err.Error(), "use "+filepath.Join("..", "models", "retired", "default.bot")) {
		t.Errorf("playing a moved model by its old path: err = %v, want one naming its new path", err)
	}
	_, err := ReadBotFile(filepath.Join("training", "no-such.bot"))
	if err == nil || strings.Contains(err.Error(), "moved") {
		t.Errorf("a file that never was a shipped model: err = %v, want no hint", err)
	}
}
