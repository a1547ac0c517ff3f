package bots

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func TestSplitAgents_KeepsTheCommasOfParameterisedSpecs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"valuer,shipper", []string{"valuer", "shipper"}},
		{" valuer , ,random ", []string{"valuer", "random"}},
		{"ismcts:sims=800,rollout=valuer,valuer,valuer", []string{"ismcts:sims=800,rollout=valuer", "valuer", "valuer"}},
		{"ismcts,ismcts:ms=50,valuer", []string{"ismcts", "ismcts:ms=50", "valuer"}},
		{"ismcts:sims=400,net=runs/p4.bot,default@0.5", []string{"ismcts:sims=400,net=runs/p4.bot", "default@0.5"}},
		{"runs/a=b.bot,valuer", []string{"runs/a=b.bot", "valuer"}},
		{"", nil},
	} {
		if got := SplitAgents(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitAgents(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRegisterParams_SpecsReachTheFactoryAndBadOnesAreRefusedUpFront(t *testing.T) {
	var got []string
	check := func(p string) error {
		if strings.Contains(p, "bad") {
			return errors.New("unknown key \"bad\" (keys: n)")
		}
		return nil
	}
	err := RegisterParams("paramtest", "test bot", check, func(p string, _ rules.Options, seed uint64) (Bot, error) {
		got = append(got, p)
		return NewRandom(seed), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"paramtest", "paramtest:n=1,m=2"} {
		if err := Resolve(spec); err != nil {
			t.Errorf("Resolve(%q): %v", spec, err)
		}
		if _, err := New(spec, rules.DefaultOptions(), 1); err != nil {
			t.Errorf("New(%q): %v", spec, err)
		}
	}
	if want := []string{"", "n=1,m=2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("factory got params %q, want %q", got, want)
	}
	err = Resolve("paramtest:bad=1")
	if !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("Resolve with a bad key: %v, want ErrBadSpec naming the key", err)
	}
	if err := Resolve("valuer:n=1"); !errors.Is(err, ErrUnknownBot) {
		t.Errorf("parameters for a bot that takes none: %v, want ErrUnknownBot", err)
	}
	if err := RegisterParams("a:b", "x", nil, func(string, rules.Options, uint64) (Bot, error) { return nil, nil }); err == nil {
		t.Errorf("a name with a colon was accepted")
	}
	// A spec that names a file among its parameters is a spec, not a bot file.
	for spec, want := range map[string]bool{"paramtest:n=1,net=runs/x.bot": true, "paramtest": false, "runs/x.bot": false, "nosuch:net=a/b.bot": false} {
		if got := IsParamSpec(spec); got != want {
			t.Errorf("IsParamSpec(%q) = %v, want %v", spec, got, want)
		}
	}
}
