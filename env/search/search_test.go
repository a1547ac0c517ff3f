package search

import (
	"errors"
	"math/rand/v2"
	"slices"
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
		{"sim=800", `unknown key "sim" (keys: sims, ms, workers, rollout, depth, c, fpu, net, leaf, mix, explore, loans)`},
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

func TestRegistry_IsmctsSpecsInAgentLists(t *testing.T) {
	opts := rules.DefaultOptions()
	for _, spec := range bots.SplitAgents("ismcts,ismcts:sims=20,rollout=random,depth=10,ismcts:ms=5,workers=1") {
		if err := bots.Resolve(spec); err != nil {
			t.Fatalf("Resolve(%q): %v", spec, err)
		}
		b, err := bots.New(spec, opts, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		if !strings.HasPrefix(b.Name(), "ismcts:") {
			t.Errorf("New(%q).Name() = %q", spec, b.Name())
		}
	}
	err := bots.Resolve("ismcts:sims=10,budget=5")
	if !errors.Is(err, bots.ErrBadSpec) || !strings.Contains(err.Error(), `"budget"`) {
		t.Errorf("Resolve with an unknown key: %v", err)
	}
	if _, err := bots.New("ismcts:rollout=ismcts", opts, 1); err == nil || !strings.Contains(err.Error(), "rollout=ismcts") {
		t.Errorf("New with a bad rollout: %v", err)
	}
	if _, err := bots.New("ismcts@0.5", opts, 1); !errors.Is(err, bots.ErrBadSpec) {
		t.Errorf("a temperature on ismcts: %v, want ErrBadSpec", err)
	}
}

// hiddenBidPosition plays valuers from seed until a seat must bid in a delivery auction in
// which another seat has already made its sealed bid.
func hiddenBidPosition(t *testing.T, opts rules.Options, seed uint64) *rules.State {
	t.Helper()
	var found *rules.State
	decisionsOf(t, opts, seed, func(st *rules.State, _ []int) {
		d := st.CurrentPlayer()
		if dec := st.Decision(); found == nil && dec.Phase == rules.PhaseDeliveryBid && dec.Delivery.HasBid&^(1<<d) != 0 {
			found = st.Clone()
		}
	})
	if found == nil {
		t.Fatalf("seed %d: no delivery auction with a sealed bid before the end", seed)
	}
	return found
}

// The search never reads hidden information: two true positions that differ only in what
// the searching seat cannot see (the other seats' scoring cards, another seat's sealed
// delivery bid) give the same redacted view, and the bot, seeded alike, plays the same move
// from both; the determinizations it samples do not follow the truth.
func TestIsmcts_SameMoveWhateverTheHiddenInformation(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 3)
	seat := st.CurrentPlayer()
	other := st.Clone()
	// Swap two opponents' cards and change every sealed bid of the others.
	var opp []int
	for i := 0; i < opts.Players; i++ {
		if i != seat {
			opp = append(opp, i)
		}
	}
	other.Players[opp[0]].Card, other.Players[opp[1]].Card = other.Players[opp[1]].Card, other.Players[opp[0]].Card
	changed := false
	for _, i := range opp {
		if a := other.Decision().Delivery; a.HasBid&(1<<i) != 0 {
			sealed := rules.Sealed{Bid: (a.Bids[i] + 3) % (other.Players[i].Cash + 1), Runoff: a.Runoff[i], Incentive: other.Decision().Loan.Incentives[i]}
			other.SetSealed(i, sealed)
			changed = changed || sealed.Bid != st.Decision().Delivery.Bids[i]
		}
	}
	if !changed {
		t.Fatal("test position: no sealed bid could be changed")
	}
	if st.Hash() == other.Hash() {
		t.Fatal("the two true positions are equal")
	}
	var v1, v2 rules.State
	st.Redact(seat, &v1)
	other.Redact(seat, &v2)
	if v1.Hash() != v2.Hash() {
		t.Fatal("the redacted views differ: the test changed something the seat may see")
	}
	legal := st.LegalActions(nil)
	if l2 := other.LegalActions(nil); !slices.Equal(legal, l2) {
		t.Fatalf("legal actions differ: %v vs %v", legal, l2)
	}
	play := func(view *rules.State) (int, Stats) {
		cfg := DefaultConfig()
		cfg.Sims, cfg.Depth = 64, 30
		b, err := New(cfg, opts, 7)
		if err != nil {
			t.Fatal(err)
		}
		return b.Act(view, legal), b.LastStats()
	}
	a1, s1 := play(&v1)
	a2, s2 := play(&v2)
	if a1 != a2 || s1.Nodes != s2.Nodes {
		t.Errorf("moves %d vs %d (nodes %d vs %d) from positions that differ only in hidden information", a1, a2, s1.Nodes, s2.Nodes)
	}
	// The determinizations are sampled: over many draws the opponents' cards and sealed bids
	// take several values, not only the true ones.
	rng := rand.New(rand.NewPCG(1, 2))
	var d rules.State
	cards, bids := map[uint8]bool{}, map[int32]bool{}
	for k := 0; k < 200; k++ {
		Determinize(&v1, seat, rng, &d)
		cards[d.Players[opp[0]].Card] = true
		for _, i := range opp {
			if a := d.Decision().Delivery; a.HasBid&(1<<i) != 0 {
				bids[a.Bids[i]] = true
			}
		}
	}
	if len(cards) < 3 || len(bids) < 2 {
		t.Errorf("determinizations hardly vary: %d card values, %d bid values", len(cards), len(bids))
	}
}

// A determinization is a full, valid position that keeps everything the seat sees.
func TestDeterminize_KeepsTheViewAndDealsDistinctCards(t *testing.T) {
	for _, opts := range []rules.Options{rules.DefaultOptions(), {Players: 5, Variant: rules.Classic}, {Players: 3, Modules: rules.AllModules}} {
		st := hiddenBidPosition(t, opts, 11)
		seat := st.CurrentPlayer()
		var view, d rules.State
		st.Redact(seat, &view)
		rng := rand.New(rand.NewPCG(5, 6))
		for k := 0; k < 50; k++ {
			Determinize(&view, seat, rng, &d)
			if err := d.Validate(); err != nil {
				t.Fatalf("%v: determinization invalid: %v", opts, err)
			}
			seen := map[uint8]bool{}
			for i := 0; i < opts.Players; i++ {
				c := d.Players[i].Card
				if int(c) >= rules.NumScoringCards || seen[c] {
					t.Fatalf("%v: seat %d card %d (cards so far %v)", opts, i, c, seen)
				}
				seen[c] = true
			}
			if d.Players[seat].Card != st.Players[seat].Card {
				t.Fatalf("own card changed")
			}
			var back rules.State
			d.Redact(seat, &back)
			if back.Hash() != view.Hash() {
				t.Fatalf("%v: the determinization's view differs from the seat's view", opts)
			}
			for i := 0; i < opts.Players; i++ {
				if a := d.Decision().Delivery; a.HasBid&(1<<i) != 0 && (a.Bids[i] < 0 || a.Bids[i] > d.Players[i].Cash) {
					t.Fatalf("seat %d bid %d with $%d", i, a.Bids[i], d.Players[i].Cash)
				}
			}
		}
	}
}

// With a simulation budget the bot is deterministic for a seed: a fresh bot, a reseeded one
// and one that searched elsewhere first play the same move, whatever the scheduling of its
// workers.
func TestIsmcts_DeterministicForASeed(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	legal := st.LegalActions(nil)
	b, err := bots.New("ismcts:sims=60,depth=20,workers=3", opts, 9)
	if err != nil {
		t.Fatal(err)
	}
	first := b.Act(&view, legal)
	nodes := b.(*Bot).LastStats().Nodes
	for k := 0; k < 3; k++ {
		b.(bots.Seeder).Seed(9)
		if a := b.Act(&view, legal); a != first || b.(*Bot).LastStats().Nodes != nodes {
			t.Fatalf("run %d: move %d, want %d", k, a, first)
		}
	}
	// A bot that has searched other positions before plays the same move: the move depends on
	// the seed and the view only.
	b2, _ := bots.New("ismcts:sims=60,depth=20,workers=3", opts, 9)
	other := hiddenBidPosition(t, opts, 8)
	var ov rules.State
	other.Redact(other.CurrentPlayer(), &ov)
	b2.Act(&ov, other.LegalActions(nil))
	if a := b2.Act(&view, legal); a != first {
		t.Errorf("after another search: move %d, want %d", a, first)
	}
	if s := b.(*Bot).LastStats().Sims; s != 60 {
		t.Errorf("ran %d simulations, want 60", s)
	}
}

// optionSets is every legal combination of variant, modules and player count.
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

// The search plays every option set legally to the end, including the decisions of seats
// that are not active (bids, loan offers, seizures, returned containers): every seat is an
// ismcts bot with a small budget.
func TestIsmcts_PlaysEveryOptionSetLegally(t *testing.T) {
	sets := optionSets()
	if testing.Short() {
		sets = sets[:0]
		for _, o := range optionSets() {
			if o.Players == 4 {
				sets = append(sets, o)
			}
		}
	}
	for i, o := range sets {
		g, err := rules.NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		st := g.NewInitialStateSeed(uint64(i))
		bs := make([]bots.Bot, o.Players)
		for s := range bs {
			if bs[s], err = bots.New("ismcts:sims=6,depth=8,rollout=random,workers=2", o, uint64(s)); err != nil {
				t.Fatal(err)
			}
		}
		var view rules.State
		legal := make([]int, 0, 256)
		phases := map[rules.Phase]bool{}
		for steps := 0; !st.IsTerminal(); steps++ {
			if steps > g.MaxGameLength() {
				t.Fatalf("%v: game longer than %d", o, g.MaxGameLength())
			}
			d := st.CurrentPlayer()
			legal = st.LegalActions(legal)
			st.Redact(d, &view)
			a := bs[d].Act(&view, legal)
			if _, ok := slices.BinarySearch(legal, a); !ok {
				t.Fatalf("%v step %d: illegal %d in phase %s", o, steps, a, st.Decision().Phase)
			}
			if d != int(st.Active) {
				phases[st.Phase()] = true
			}
			st.Apply(a)
		}
		if len(phases) == 0 {
			t.Errorf("%v: no decision by a non-active seat", o)
		}
	}
}

func TestIsmcts_TimeBudgetStopsInTime(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	b, err := bots.New("ismcts:ms=20", opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.Act(&view, st.LegalActions(nil))
	s := b.(*Bot).LastStats()
	if s.Sims < 2 || s.Elapsed > 2*time.Second {
		t.Errorf("ms=20: %d simulations in %v", s.Sims, s.Elapsed)
	}
}

func TestIsmcts_NetWithoutNetSupportIsAClearError(t *testing.T) {
	if netFactory != nil {
		t.Skip("a net factory is registered")
	}
	_, err := bots.New("ismcts:net=default", rules.DefaultOptions(), 1)
	if !errors.Is(err, ErrNoNets) {
		t.Errorf("net=default without the training package: %v, want ErrNoNets", err)
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
