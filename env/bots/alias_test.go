package bots

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// unregister removes test registrations.
func unregister(names ...string) {
	regMu.Lock()
	defer regMu.Unlock()
	for _, n := range names {
		delete(registry, n)
		delete(aliases, n)
	}
}

func TestAlias_MakesItsFirstTargetAndFallsBackWhereItRefusesTheOptions(t *testing.T) {
	if err := Register("test-alias-three-only", "plays 3-player games only", func(o rules.Options, seed uint64) (Bot, error) {
		if o.Players != 3 {
			return nil, errors.New("only 3 players")
		}
		return NewRandom(seed), nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := RegisterAlias("test-alias", "three-only, else the valuer", "test-alias-three-only", "valuer"); err != nil {
		t.Fatal(err)
	}
	defer unregister("test-alias-three-only", "test-alias")

	o := rules.DefaultOptions()
	o.Players = 3
	b, err := New("test-alias", o, 5)
	if err != nil {
		t.Fatal(err)
	}
	if b.Name() != "random" {
		t.Errorf("3 players: made %q, want the first target (a random bot)", b.Name())
	}
	if got, err := AliasFor("test-alias", o); err != nil || got != "test-alias-three-only" {
		t.Errorf("AliasFor(3 players) = %q, %v; want test-alias-three-only", got, err)
	}
	o.Players = 4
	b, err = New("test-alias", o, 5)
	if err != nil {
		t.Fatal(err)
	}
	if b.Name() != "valuer" {
		t.Errorf("4 players: made %q, want the fallback valuer", b.Name())
	}
	if got, err := AliasFor("test-alias", o); err != nil || got != "valuer" {
		t.Errorf("AliasFor(4 players) = %q, %v; want valuer", got, err)
	}
	// The alias is an ordinary registered bot: listed, resolvable, made with the seed given.
	if err := Resolve("test-alias"); err != nil {
		t.Errorf("Resolve: %v", err)
	}
	if _, ok := Lookup("test-alias"); !ok {
		t.Error("Lookup does not find the alias")
	}
	fresh, _ := New("valuer", o, 5)
	if a, b := playWith(t, o, 3, b), playWith(t, o, 3, fresh); len(a) != len(b) {
		t.Errorf("the alias's valuer plays differently from a valuer made with the same seed")
	}
	if got := AliasTargets("test-alias"); strings.Join(got, ",") != "test-alias-three-only,valuer" {
		t.Errorf("AliasTargets = %v", got)
	}
	if AliasTargets("valuer") != nil {
		t.Error("a plain bot has alias targets")
	}
	if got, err := AliasFor("valuer", o); got != "valuer" || err != nil {
		t.Errorf("AliasFor(a plain bot) = %q, %v", got, err)
	}
}

func TestAlias_NoTargetPlaysTheOptions(t *testing.T) {
	if err := RegisterAlias("test-alias-none", "nothing that exists", "test-nobody", "test-nobody-either"); err != nil {
		t.Fatal(err)
	}
	defer unregister("test-alias-none")
	_, err := New("test-alias-none", rules.DefaultOptions(), 1)
	if !errors.Is(err, ErrNoAliasTarget) || !strings.Contains(err.Error(), "test-nobody-either") || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v, want one line wrapping ErrNoAliasTarget naming every target", err)
	}
}

func TestAlias_RefusesBadDefinitions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		targets []string
	}{
		{"test-alias-empty", nil},
		{"test-alias-blank", []string{" "}},
		{"test-alias-self", []string{"test-alias-self"}},
		{"test-alias-of-a-level", []string{"easy"}}, // an alias of an alias could loop
		{"valuer", []string{"shipper"}},             // the name is taken
		{"a/b", []string{"shipper"}},
	} {
		if err := RegisterAlias(tc.name, "bad", tc.targets...); err == nil {
			unregister(tc.name)
			t.Errorf("RegisterAlias(%q, %q) was accepted", tc.name, tc.targets)
		}
	}
}

func TestLevels_AreRegisteredWeakestFirstWithTheirNumbers(t *testing.T) {
	want := []string{"easy", "medium", "hard", "expert"}
	if len(Levels) != len(want) {
		t.Fatalf("%d levels, want %d", len(Levels), len(want))
	}
	for i, l := range Levels {
		if l.Name != want[i] {
			t.Errorf("level %d is %q, want %q", i, l.Name, want[i])
		}
		info, ok := Lookup(l.Name)
		if !ok {
			t.Fatalf("%s is not registered", l.Name)
		}
		if info.Description != l.Description || !strings.Contains(l.Description, "%") || !strings.HasPrefix(l.Description, fmt.Sprintf("level %d of 4", i+1)) {
			t.Errorf("%s: description %q does not say its level and measured strength", l.Name, info.Description)
		}
		if got := AliasTargets(l.Name); len(got) == 0 || got[0] != l.Targets[0] {
			t.Errorf("%s: alias targets %v, want %v", l.Name, got, l.Targets)
		}
		if got, ok := LevelOf(l.Name); !ok || got.Name != l.Name {
			t.Errorf("LevelOf(%q) = %v, %v", l.Name, got, ok)
		}
	}
	if _, ok := LevelOf("valuer"); ok {
		t.Error("LevelOf(valuer) found a level")
	}
	// The scripted levels play every option set; both are the scripted bots themselves.
	for _, name := range []string{"easy", "medium"} {
		o := rules.DefaultOptions()
		o.Players, o.Variant, o.Modules = 5, rules.Classic, rules.AllModules
		b, err := New(name, o, 1)
		if err != nil {
			t.Fatalf("%s, 5 players Classic all modules: %v", name, err)
		}
		if b.Name() != Levels[map[string]int{"easy": 0, "medium": 1}[name]].Targets[0] {
			t.Errorf("%s made %q", name, b.Name())
		}
	}
}
