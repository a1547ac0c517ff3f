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

// New keeps the settings it is given: the number of root-parallel trees, and any budget of at
// least one simulation or a positive time; no budget at all is refused.
func TestNew_KeepsWorkersAndAcceptsTheSmallestBudgets(t *testing.T) {
	opts := rules.DefaultOptions()
	for _, w := range []int{1, 2, 3} {
		cfg := DefaultConfig()
		cfg.Sims, cfg.Workers = 30, w
		b, err := New(cfg, opts, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.workers) != w || b.Config().Workers != w {
			t.Errorf("workers=%d: %d trees, Config().Workers %d", w, len(b.workers), b.Config().Workers)
		}
	}
	cfg := DefaultConfig()
	cfg.Workers = 0
	if b, err := New(cfg, opts, 1); err != nil || len(b.workers) != 1 {
		t.Errorf("workers=0: %v, want one tree", err)
	}
	one := DefaultConfig()
	one.Sims = 1
	if _, err := New(one, opts, 1); err != nil {
		t.Errorf("one simulation: %v", err)
	}
	timed := DefaultConfig()
	timed.Sims, timed.Time = 0, time.Millisecond
	if _, err := New(timed, opts, 1); err != nil {
		t.Errorf("1 ms and no simulation count: %v", err)
	}
	none := DefaultConfig()
	none.Sims, none.Time = 0, 0
	if _, err := New(none, opts, 1); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "no budget") {
		t.Errorf("no budget: %v", err)
	}
	none.Time = -time.Millisecond
	if _, err := New(none, opts, 1); !errors.Is(err, ErrSpec) {
		t.Errorf("a negative time and no simulations: %v", err)
	}
}

// A time budget is spent: one tree searches until its deadline, many simulations, not one.
func TestIsmcts_ATimeBudgetSearchesUntilItsDeadline(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	cfg := DefaultConfig()
	cfg.Sims, cfg.Time, cfg.Workers, cfg.Depth = 0, 30*time.Millisecond, 1, 10
	b, err := New(cfg, opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	b.Act(&view, st.LegalActions(nil))
	if s := b.LastStats(); s.Sims < 2 || s.Elapsed < 30*time.Millisecond {
		t.Errorf("ms=30 on one tree: %d simulations in %v", s.Sims, s.Elapsed)
	}
}

// The move played is the one with the most root visits summed over the trees, then the
// higher mean outcome, then the lower id: checked against the trees themselves after every
// search, at budgets where ties are common (one visit per move) and where they are not.
func TestIsmcts_PlaysTheMostVisitedThenTheBestMeanMove(t *testing.T) {
	opts := rules.Options{Players: 3, Length: rules.Short}
	ties, searched := 0, 0
	for _, seed := range []uint64{3, 5, 8} {
		st := hiddenBidPosition(t, opts, seed)
		var positions []*rules.State
		positions = append(positions, st)
		decisionsOf(t, opts, seed, func(s *rules.State, legal []int) {
			if len(legal) > 2 && s.Steps%23 == 0 {
				positions = append(positions, s.Clone())
			}
		})
		for _, p := range positions {
			seat := p.CurrentPlayer()
			var view rules.State
			p.Redact(seat, &view)
			legal := p.LegalActions(nil)
			for _, c := range []struct{ sims, workers int }{{2, 1}, {5, 1}, {6, 2}, {40, 2}} {
				cfg := DefaultConfig()
				cfg.Sims, cfg.Workers, cfg.Depth = c.sims, c.workers, 6
				b, err := New(cfg, opts, seed)
				if err != nil {
					t.Fatal(err)
				}
				got := b.Act(&view, legal)
				want, bestN, bestMean, tied := -1, -1, 0.0, false
				total := 0
				for _, a := range legal {
					n, v := 0, 0.0
					for _, w := range b.workers {
						if e := w.rootEdge(a, seat); e != nil {
							n += int(e.visits)
							v += e.value
						}
					}
					total += n
					mean := 0.0
					if n > 0 {
						mean = v / float64(n)
					}
					if n == bestN {
						tied = true
					}
					if n > bestN || n == bestN && mean > bestMean {
						want, bestN, bestMean = a, n, mean
					}
				}
				if got != want {
					t.Fatalf("seed %d step %d, %d simulations on %d trees: played %s, the most visited (then best mean) is %s",
						seed, p.Steps, c.sims, c.workers, p.ActionToMove(got), p.ActionToMove(want))
				}
				// Every simulation passes the root and adds one visit to one of its moves.
				if total != c.sims {
					t.Fatalf("seed %d step %d: %d simulations left %d root visits", seed, p.Steps, c.sims, total)
				}
				searched++
				if tied {
					ties++
				}
			}
		}
	}
	if searched < 40 || ties < 10 {
		t.Fatalf("%d searches, %d with tied visit counts: too few to mean much", searched, ties)
	}
}

// explore=N samples the first N turns' moves; from turn N on the bot plays exactly what it
// plays without explore, whatever its seed.
func TestExplore_EndsExactlyAtItsTurn(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(11)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	legal := st.LegalActions(nil)
	differs := 0
	for seed := uint64(1); seed <= 20; seed++ {
		for _, turn := range []int32{4, 5} {
			v := view
			v.Turn = turn
			b, _ := bots.New("ismcts:sims=30,depth=5,workers=1,explore=5", opts, seed)
			plain, _ := bots.New("ismcts:sims=30,depth=5,workers=1", opts, seed)
			a, want := b.Act(&v, legal), plain.Act(&v, legal)
			if turn == 5 && a != want {
				t.Fatalf("seed %d, turn 5 with explore=5: played %d, the most visited is %d", seed, a, want)
			}
			if turn == 4 && a != want {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Error("turn 4 with explore=5 never sampled another move than the most visited")
	}
}

// A time budget whose deadline has already passed still runs one simulation, so the bot
// always has a visited move to play.
func TestIsmcts_ALateDeadlineStillRunsOneSimulation(t *testing.T) {
	opts := rules.DefaultOptions()
	st := hiddenBidPosition(t, opts, 5)
	var view rules.State
	st.Redact(st.CurrentPlayer(), &view)
	cfg := DefaultConfig()
	cfg.Depth = 5
	w := &worker{cfg: &cfg, legal: make([]int, 0, 256)}
	w.search(&view, st.CurrentPlayer(), 0, time.Now().Add(-time.Second))
	if w.sims != 1 {
		t.Errorf("a passed deadline: %d simulations, want 1", w.sims)
	}
}
