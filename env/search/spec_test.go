package search

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

func TestParse_DefaultsAndRoundTrip(t *testing.T) {
	c, err := Parse("")
	if err != nil || c != DefaultConfig() {
		t.Fatalf("Parse(\"\") = %+v, %v; want the defaults", c, err)
	}
	for _, p := range []string{"sims=800,rollout=valuer", "ms=50,workers=1", "sims=400,net=default", "depth=40,c=1.2,rollout=random", "net=runs/x.bot,rollout=shipper", "sims=40,net=default,explore=12", "net=default,fpu=0.1", "net=default,fpu=0", "net=default,fpu=-1", "loans=any", "sims=50,loans=useful"} {
		c, err := Parse(p)
		if err != nil {
			t.Fatalf("Parse(%q): %v", p, err)
		}
		c2, err := Parse(c.String())
		if err != nil || c2 != c {
			t.Errorf("Parse(%q).String() = %q reads back as %+v, %v; want %+v", p, c.String(), c2, err, c)
		}
	}
	if c, _ := Parse("net=default"); c.C != DefaultNetC {
		t.Errorf("net without c: c = %v, want the PUCT default %v", c.C, DefaultNetC)
	}
	// With a net and rollouts the prior is lighter by default (2026-12-02, commit 151c8ff: better against
	// three valuers and against three plain ismcts than at 1.5); an explicit c still wins.
	if c, _ := Parse("net=default,rollout=valuer"); c.C != DefaultNetRolloutC || DefaultNetRolloutC != 0.5 {
		t.Errorf("net and rollout without c: c = %v, want %v", c.C, DefaultNetRolloutC)
	}
	if c, _ := Parse("net=default,rollout=valuer,c=1.5"); c.C != 1.5 {
		t.Errorf("net and rollout with c=1.5: c = %v", c.C)
	}
	if c, _ := Parse("rollout=valuer"); c.C != DefaultC {
		t.Errorf("rollout without a net: c = %v, want the UCT default %v", c.C, DefaultC)
	}
	if c, _ := Parse("net=default"); c.FPU != DefaultFPU {
		t.Errorf("net without fpu: fpu = %v, want the default %v", c.FPU, DefaultFPU)
	}
	if c, _ := Parse("ms=50"); c.Time != 50*time.Millisecond {
		t.Errorf("ms=50: Time = %v", c.Time)
	}
}

func TestParse_BadSpecsNameTheKeyAndWhatItAccepts(t *testing.T) {
	for _, c := range []struct{ params, want string }{
		{"sim=800", `unknown key "sim" (keys: sims, ms, workers, rollout, depth, c, fpu, net, value, leaf, mix, explore, loans)`},
		{"fpu=2", "fpu=2: want a first-play-urgency reduction from 0 to 1"},
		{"loans=some", "loans=some: want useful (a loan only where its cash opens a move) or any"},
		{"fpu=-0.5", "fpu=-0.5: want a first-play-urgency reduction"},
		{"fpu=NaN", "fpu=NaN: want a first-play-urgency reduction"},
		{"sims=0", "sims=0: want a whole number from 1 to"},
		{"sims=many", "sims=many: want a whole number"},
		{"sims=99999999999", "sims=99999999999: want a whole number"},
		{"ms=-5", "ms=-5: want a whole number from 1"},
		{"workers=0", "workers=0: want a whole number from 1 to 256"},
		{"depth=-1", "depth=-1"},
		{"explore=-1", "explore=-1: want a whole number from 0"},
		{"c=NaN", "c=NaN: want an exploration constant"},
		{"c=-1", "c=-1"},
		{"rollout=greedy", "rollout=greedy: want one of random, manufacturer, shipper, valuer"},
		{"sims", `"sims" is not key=value`},
		{"sims=", `"sims=" is not key=value`},
		{"sims=10,sims=20", `key "sims" given twice`},
		{"sims=10,ms=20", "sims and ms both given"},
	} {
		_, err := Parse(c.params)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) = %v; want one line with %q", c.params, err, c.want)
		}
	}
}

// Every whole-number setting accepts its bounds and refuses one past them; c accepts 0 and
// 100 and refuses just outside; the name spells fpu exactly.
func TestParse_BoundsOfEverySetting(t *testing.T) {
	for _, k := range []struct {
		key    string
		lo, hi int
	}{{"sims", 1, MaxSims}, {"ms", 1, int(MaxTime.Milliseconds())}, {"workers", 1, MaxWorkers}, {"depth", 0, MaxDepth}} {
		for v, ok := range map[int]bool{k.lo: true, k.hi: true, k.lo - 1: false, k.hi + 1: false} {
			_, err := Parse(fmt.Sprintf("%s=%d", k.key, v))
			if (err == nil) != ok {
				t.Errorf("%s=%d: error %v, want accepted=%v", k.key, v, err, ok)
			}
		}
	}
	for v, ok := range map[string]bool{"0": true, "100": true, "-0.001": false, "100.001": false} {
		if _, err := Parse("c=" + v); (err == nil) != ok {
			t.Errorf("c=%s: error %v, want accepted=%v", v, err, ok)
		}
	}
	withNet(t, peakedNet{})
	b, err := bots.New("ismcts:net=x,fpu=0.25", rules.DefaultOptions(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Name(), "fpu=0.25,") {
		t.Errorf("name %q does not spell fpu=0.25", b.Name())
	}
}

// leaf= picks how a net's search scores its leaves; the spec says it back and refuses what
// cannot work.
func TestParse_LeafAndMix(t *testing.T) {
	for spec, want := range map[string]struct {
		leaf       string
		mix, c     float64
		rolloutSet bool
	}{
		"net=default":                          {LeafValue, DefaultMix, DefaultNetC, false},
		"net=default,leaf=value":               {LeafValue, DefaultMix, DefaultNetC, false},
		"net=default,rollout=valuer":           {LeafRollout, DefaultMix, DefaultNetRolloutC, true},
		"net=default,leaf=rollout":             {LeafRollout, DefaultMix, DefaultNetRolloutC, true},
		"net=default,leaf=mix":                 {LeafMix, DefaultMix, DefaultNetRolloutC, false},
		"net=default,leaf=mix,mix=0.25":        {LeafMix, 0.25, DefaultNetRolloutC, false},
		"net=x.bot,leaf=mix,depth=40,c=1":      {LeafMix, DefaultMix, 1, false},
		"leaf=rollout":                         {"", DefaultMix, DefaultC, false},
		"net=default,leaf=MIX,rollout=shipper": {LeafMix, DefaultMix, DefaultNetRolloutC, false},
	} {
		c, err := Parse(spec)
		if err != nil {
			t.Fatalf("Parse(%q): %v", spec, err)
		}
		if c.Leaf != want.leaf || c.Mix != want.mix || c.C != want.c || c.rolloutSet != want.rolloutSet {
			t.Errorf("Parse(%q) = leaf %q mix %v c %v rolloutSet %v; want %+v", spec, c.Leaf, c.Mix, c.C, c.rolloutSet, want)
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Errorf("Parse(%q).String() = %q reads back as %+v, %v; want %+v", spec, c.String(), back, err, c)
		}
	}
	for spec, want := range map[string]string{
		"leaf=value":                            "needs a value head",
		"leaf=mix":                              "needs a value head",
		"net=default,leaf=greedy":               "want value",
		"net=default,mix=0.5":                   "add leaf=mix",
		"net=default,leaf=mix,mix=2":            "from 0 to 1",
		"net=default,leaf=value,rollout=valuer": "drop one",
	} {
		_, err := Parse(spec)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want an error saying %q", spec, err, want)
		}
	}
	c, _ := Parse("net=default,leaf=mix,mix=0.3")
	if !strings.Contains(c.String(), "leaf=mix,mix=0.3") || !strings.Contains(c.String(), "rollout=valuer") {
		t.Errorf("String() = %q, want the mix and its rollout spelled out", c.String())
	}
}

// value= names a second network for the leaves; the spec says it back and refuses it where
// no leaf would read it.
func TestParse_ValueNetwork(t *testing.T) {
	for spec, leaf := range map[string]string{
		"net=default,value=v.bot":                  LeafValue,
		"net=default,value=v.bot,leaf=value":       LeafValue,
		"net=p.bot,value=default,leaf=mix,depth=8": LeafMix,
	} {
		c, err := Parse(spec)
		if err != nil {
			t.Fatalf("Parse(%q): %v", spec, err)
		}
		if c.Value == "" || c.Leaf != leaf {
			t.Errorf("Parse(%q) = value %q leaf %q; want a value net and leaf %s", spec, c.Value, c.Leaf, leaf)
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Errorf("Parse(%q).String() = %q reads back as %+v, %v; want %+v", spec, c.String(), back, err, c)
		}
	}
	for spec, want := range map[string]string{
		"value=v.bot":                            "add net=default",
		"net=default,value=v.bot,rollout=valuer": "rollouts alone score the leaves",
		"net=default,value=v.bot,leaf=rollout":   "rollouts alone score the leaves",
		"net=default,value=v.bot,value=w.bot":    "given twice",
		"net=default,value=":                     "not key=value",
	} {
		_, err := Parse(spec)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): %v, want one line saying %q", spec, err, want)
		}
	}
}
