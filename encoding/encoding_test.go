package encoding

import (
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// configs are the rule sets the tests run on: base and Classic for every player count, and
// module combinations.
func configs() []rules.Options {
	var out []rules.Options
	for _, v := range []rules.Variant{rules.Base, rules.Classic} {
		for p := 3; p <= 5; p++ {
			out = append(out, rules.Options{Players: p, Variant: v})
		}
	}
	out = append(out,
		rules.Options{Players: 4, Modules: rules.Trucks},
		rules.Options{Players: 4, Modules: rules.PlayerLoans},
		rules.Options{Players: 4, Modules: rules.Luxury},
		rules.Options{Players: 5, Modules: rules.AllModules},
		rules.Options{Players: 3, Variant: rules.Classic, Modules: rules.PlayerLoans | rules.Luxury},
	)
	return out
}

func name(o rules.Options) string {
	m := o.Modules.String()
	if m == "" {
		m = "none"
	}
	return fmt.Sprintf("%s-%dp-%s", o.Variant, o.Players, strings.ReplaceAll(m, ",", "+"))
}

func newGame(t testing.TB, o rules.Options) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatalf("NewGame(%+v): %v", o, err)
	}
	return g
}

// randomPlay plays uniformly random legal actions from seed, calling visit before each move
// (and once at the end); visit returns false to stop.
func randomPlay(g *rules.Game, seed uint64, visit func(s *rules.State, step int) bool) *rules.State {
	s := g.NewInitialStateSeed(seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	var legal []int
	for step := 0; ; step++ {
		if !visit(s, step) || s.IsTerminal() {
			return s
		}
		legal = s.LegalActions(legal)
		s.Apply(legal[rng.IntN(len(legal))])
	}
}

func TestActionNamesAreUniqueAndCoverTheActionSpace(t *testing.T) {
	names := ActionNames()
	if len(names) != rules.NumDistinctActions() {
		t.Fatalf("%d names for %d actions", len(names), rules.NumDistinctActions())
	}
	seen := map[string]int{}
	for id, n := range names {
		if prev, dup := seen[n]; dup {
			t.Errorf("ids %d and %d are both named %q", prev, id, n)
		}
		seen[n] = id
		if got, ok := ActionID(n); !ok || got != id {
			t.Errorf("ActionID(%q) = %d, %v; want %d", n, got, ok, id)
		}
	}
	for _, want := range []string{"pick:factory:red:$2", "sail:harbor:+1", "$17", "+$100", "end", "place:$6", "pick:harbor:gold:$6"} {
		if _, ok := ActionID(want); !ok {
			t.Errorf("no action named %q", want)
		}
	}
	// Names of earlier builds still resolve: amounts were amount:N and amount:+100.
	for old, now := range map[string]string{"amount:17": "$17", "amount:0": "$0", "amount:+100": "+$100"} {
		a, okA := ActionID(old)
		b, okB := ActionID(now)
		if !okA || !okB || a != b {
			t.Errorf("ActionID(%q) = %d, %v; ActionID(%q) = %d, %v", old, a, okA, now, b, okB)
		}
	}
	if ActionName(-1) != "action(?)" || ActionName(len(names)) != "action(?)" {
		t.Error("out-of-range ids must be named action(?)")
	}
}

// genericName names a decoded Move the way ActionName does, with seats relative to decider.
func genericName(m rules.Move, decider, n int) string {
	rel := (int(m.Seat) - decider + n) % n
	switch m.Kind {
	case rules.RepayLoan:
		return fmt.Sprintf("repay:%d", m.Index)
	case rules.BuildFactory:
		return "build:factory:" + m.Colour.String()
	case rules.FactoryPurchase:
		return fmt.Sprintf("buy-factory:+%d", rel)
	case rules.Reprice:
		return "reprice:" + rules.District(m.Index).String()
	case rules.SailHarbor:
		return fmt.Sprintf("sail:harbor:+%d", rel)
	case rules.CallBankStart:
		if m.Index < rules.BankLots {
			return fmt.Sprintf("bank:start:container-lot:%d", m.Index+1)
		}
		return fmt.Sprintf("bank:start:cash-lot:%d", m.Index-rules.BankLots+1)
	case rules.CallBankRaise:
		return "bank:raise:" + rules.AuctionKind(m.Index).String()
	case rules.TruckStart:
		bid := "cash"
		if m.Index == 1 {
			bid = "containers"
		}
		return fmt.Sprintf("truck:start:+%d:%s", rel, bid)
	case rules.AcquireLuxury:
		return "luxury:" + rules.District(m.Index).String()
	case rules.Place:
		return fmt.Sprintf("place:$%d", m.Price)
	case rules.PickFactory:
		return fmt.Sprintf("pick:factory:%s:$%d", m.Colour, m.Price)
	case rules.PickHarbor:
		return fmt.Sprintf("pick:harbor:%s:$%d", m.Colour, m.Price)
	case rules.PickShip, rules.PickHolding, rules.PickIsland:
		where := map[rules.MoveKind]string{rules.PickShip: "ship", rules.PickHolding: "holding", rules.PickIsland: "island"}[m.Kind]
		return fmt.Sprintf("pick:%s:%s", where, m.Colour)
	case rules.PickColour:
		return "colour:" + m.Colour.String()
	case rules.Amount:
		return fmt.Sprintf("$%d", m.Amount)
	case rules.ChooseSeat:
		return fmt.Sprintf("seat:+%d", rel)
	case rules.PayInterest:
		return fmt.Sprintf("pay-interest:%d", m.Index)
	}
	first, _ := rules.KindBase(m.Kind)
	return actionNames[first] // kinds with one id
}

func TestActionNamesMatchTheEngineDecoding(t *testing.T) {
	g := newGame(t, rules.Options{Players: 5, Modules: rules.AllModules})
	s := g.NewInitialStateSeed(3)
	decider := s.CurrentPlayer()
	for id := 0; id < rules.NumDistinctActions(); id++ {
		m := s.ActionToMove(id)
		if got := genericName(m, decider, 5); got != ActionName(id) {
			t.Errorf("id %d: engine decodes %+v (%q), ActionName says %q", id, m, got, ActionName(id))
		}
	}
}

func TestSpecLayoutIsContiguousAndNamed(t *testing.T) {
	for _, o := range configs() {
		t.Run(name(o), func(t *testing.T) {
			s, err := NewSpec(o)
			if err != nil {
				t.Fatal(err)
			}
			off := 0
			for _, f := range s.Features {
				if f.Offset != off || f.Size != len(f.Labels) || f.Size == 0 {
					t.Fatalf("feature %s: offset %d (want %d), size %d, %d labels", f.Name, f.Offset, off, f.Size, len(f.Labels))
				}
				if !(f.Low <= f.High) {
					t.Errorf("feature %s: bounds [%g, %g]", f.Name, f.Low, f.High)
				}
				off += f.Size
			}
			if off != s.Size || s.Version != Version || s.NumActions != rules.NumDistinctActions() {
				t.Fatalf("size %d, features cover %d; version %q; %d actions", s.Size, off, s.Version, s.NumActions)
			}
			cols := s.Columns()
			if len(cols) != s.Size {
				t.Fatalf("%d columns for size %d", len(cols), s.Size)
			}
			seen := map[string]bool{}
			for _, c := range cols {
				if seen[c] {
					t.Errorf("column %q appears twice", c)
				}
				seen[c] = true
			}
			_, hasCompany := s.Feature("company.p0.owner")
			_, hasLenders := s.Feature("p0.loan_lenders")
			_, hasLuxury := s.Feature("turn.luxury_used")
			ship, _ := s.Feature("p0.ship")
			if hasCompany != o.Modules.Has(rules.Trucks) || hasLenders != o.Modules.Has(rules.PlayerLoans) || hasLuxury != o.Modules.Has(rules.Luxury) {
				t.Errorf("module features: trucks %v, player loans %v, luxury %v for modules %q", hasCompany, hasLenders, hasLuxury, o.Modules)
			}
			if wantColours := 5 + btoi(o.Modules.Has(rules.Luxury)); ship.Size != wantColours {
				t.Errorf("colour groups have %d entries, want %d", ship.Size, wantColours)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSpecLayoutIsTheSameForEveryPlayerCount(t *testing.T) {
	// Absent seats are zero, not missing: one network serves 3, 4 and 5 players.
	var sizes []int
	for p := 3; p <= 5; p++ {
		s, err := NewSpec(rules.Options{Players: p})
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, s.Size)
	}
	if sizes[0] != sizes[1] || sizes[1] != sizes[2] {
		t.Fatalf("observation sizes by player count: %v", sizes)
	}
}

func TestSpecCheckRefusesAnotherVersion(t *testing.T) {
	s, err := NewSpec(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(Version, s.Size); err != nil {
		t.Fatalf("own version refused: %v", err)
	}
	if err := s.Check("obs-v0", s.Size); !errors.Is(err, ErrVersion) {
		t.Errorf("other version: %v", err)
	}
	if err := s.Check(Version, s.Size+1); !errors.Is(err, ErrVersion) {
		t.Errorf("other size: %v", err)
	}
	if _, err := NewSpec(rules.Options{Players: 7}); err == nil {
		t.Error("invalid options accepted")
	}
}

// TestObservationsStayInBoundsAndMasksEqualLegalLists plays random games in every
// configuration and checks every seat's observation and the decider's mask at every step.
func TestObservationsStayInBoundsAndMasksEqualLegalLists(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	for _, o := range configs() {
		t.Run(name(o), func(t *testing.T) {
			g := newGame(t, o)
			e := NewEncoder(g)
			spec := e.Spec()
			low, high := spec.Bounds()
			cols := spec.Columns()
			obs := make([]float32, e.Size())
			mask := make([]float32, e.NumActions())
			bmask := make([]bool, e.NumActions())
			var legal []int
			for k := 0; k < games; k++ {
				randomPlay(g, uint64(k+1), func(s *rules.State, step int) bool {
					for seat := 0; seat < o.Players; seat++ {
						if err := e.Observe(s, seat, obs); err != nil {
							t.Fatal(err)
						}
						for i, v := range obs {
							if math.IsNaN(float64(v)) || v < low[i] || v > high[i] {
								t.Fatalf("step %d seat %d: %s = %g outside [%g, %g]", step, seat, cols[i], v, low[i], high[i])
							}
						}
					}
					n, err := e.Mask(s, mask)
					if err != nil {
						t.Fatal(err)
					}
					nb, _ := e.MaskBool(s, bmask)
					legal = s.LegalActions(legal)
					if s.IsTerminal() {
						legal = legal[:0]
					}
					if n != len(legal) || nb != n {
						t.Fatalf("step %d: mask counts %d/%d, legal list %d", step, n, nb, len(legal))
					}
					for id := range mask {
						want := slices.Contains(legal, id)
						if (mask[id] == 1) != want || bmask[id] != want {
							t.Fatalf("step %d: mask[%d] = %g/%v, legal %v", step, id, mask[id], bmask[id], want)
						}
					}
					return true
				})
			}
		})
	}
}

func TestObservationIsRotatedToTheObserver(t *testing.T) {
	g := newGame(t, rules.Options{Players: 4})
	e := NewEncoder(g)
	spec := e.Spec()
	off := func(name string) int {
		f, ok := spec.Feature(name)
		if !ok {
			t.Fatalf("no feature %s", name)
		}
		return f.Offset
	}
	s := g.NewInitialStateSeed(11)
	obs := make([]float32, e.Size())
	for seat := 0; seat < 4; seat++ {
		if err := e.Observe(s, seat, obs); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 4; k++ {
			p := &s.Players[(seat+k)%4]
			if got, want := obs[off(fmt.Sprintf("p%d.cash", k))], float32(p.Cash)/cashScale; got != want {
				t.Errorf("observer %d: p%d.cash = %g, want %g", seat, k, got, want)
			}
			card := obs[off(fmt.Sprintf("p%d.card", k)):][:rules.NumNormalColours]
			if k == 0 && card[p.Card] != 1 {
				t.Errorf("observer %d does not see its own card %d: %v", seat, p.Card, card)
			}
			if k != 0 && slices.Contains(card, 1) {
				t.Errorf("observer %d sees p%d's card: %v", seat, k, card)
			}
			for c := 0; c < rules.NumNormalColours; c++ {
				if got, want := obs[off(fmt.Sprintf("p%d.factories", k))+c] == 1, p.Factories&(1<<c) != 0; got != want {
					t.Errorf("observer %d: p%d factory %s = %v, want %v", seat, k, rules.Colour(c), got, want)
				}
			}
		}
		values, two, _ := rules.ScoringCardValues(int(s.Players[seat].Card))
		for c := 0; c < rules.NumNormalColours; c++ {
			if got := obs[off("own.card_values")+c]; got != float32(values[c])/10 {
				t.Errorf("observer %d: own.card_values[%s] = %g, want %d/10", seat, rules.Colour(c), got, values[c])
			}
		}
		if obs[off("own.two_value")+int(two)] != 1 {
			t.Errorf("observer %d: two-value colour %s not marked", seat, two)
		}
		// At the start every seat has $20, one container in its factory and no loans.
		if got := obs[off("p2.public_score")]; got != 0.2 {
			t.Errorf("observer %d: p2.public_score = %g, want 0.2", seat, got)
		}
		if obs[off("p4.present")] != 0 || obs[off("p3.present")] != 1 {
			t.Errorf("observer %d: seat presence wrong in a 4-player game", seat)
		}
		active := obs[off("turn.active"):][:5]
		if rel := (int(s.Active) - seat + 4) % 4; active[rel] != 1 {
			t.Errorf("observer %d: turn.active %v, want p%d", seat, active, rel)
		}
	}
}

func TestOracleSeesEveryCardAndTheObservationOnlyItsOwn(t *testing.T) {
	g := newGame(t, rules.Options{Players: 5})
	e := NewEncoder(g)
	f, _ := e.Spec().Feature("p2.card")
	s := g.NewInitialStateSeed(5)
	obs := make([]float32, e.Size())
	orc := make([]float32, e.Size())
	if err := e.Observe(s, 0, obs); err != nil {
		t.Fatal(err)
	}
	if err := e.EncodeOracle(s, 0, orc); err != nil {
		t.Fatal(err)
	}
	card := s.Players[2].Card
	if orc[f.Offset+int(card)] != 1 {
		t.Errorf("oracle misses seat 2's card %d", card)
	}
	if obs[f.Offset+int(card)] != 0 {
		t.Errorf("seat 0's observation shows seat 2's card")
	}
	// Changing the hidden card changes the oracle, so the no-leak checks can fail.
	c := s.Clone()
	c.Players[2].Card = (card + 1) % rules.NumNormalColours
	orc2 := make([]float32, e.Size())
	_ = e.EncodeOracle(c, 0, orc2)
	if slices.Equal(orc, orc2) {
		t.Error("oracle encoding ignores the scoring cards")
	}
	_ = e.Observe(c, 0, orc2)
	if !slices.Equal(obs, orc2) {
		t.Error("seat 0's observation changes with seat 2's hidden card")
	}
}

func TestBufferErrors(t *testing.T) {
	g := newGame(t, rules.DefaultOptions())
	e := NewEncoder(g)
	s := g.NewInitialStateSeed(1)
	if err := e.Observe(s, 0, make([]float32, e.Size()-1)); !errors.Is(err, ErrBufferSize) {
		t.Errorf("short observation buffer: %v", err)
	}
	if _, err := e.Mask(s, make([]float32, 3)); !errors.Is(err, ErrBufferSize) {
		t.Errorf("short mask buffer: %v", err)
	}
	if _, err := e.MaskBool(s, make([]bool, 3)); !errors.Is(err, ErrBufferSize) {
		t.Errorf("short bool mask buffer: %v", err)
	}
	if err := e.Observe(s, 4, make([]float32, e.Size())); !errors.Is(err, ErrSeat) {
		t.Error("observer seat 4 of a 4-player game accepted")
	}
}

func TestEncodingAllocatesNothing(t *testing.T) {
	g := newGame(t, rules.Options{Players: 4, Modules: rules.AllModules})
	e := NewEncoder(g)
	var s *rules.State
	randomPlay(g, 9, func(st *rules.State, step int) bool { s = st; return step < 40 })
	obs := make([]float32, e.Size())
	mask := make([]float32, e.NumActions())
	seat := s.CurrentPlayer()
	if a := testing.AllocsPerRun(100, func() { _ = e.Observe(s, seat, obs) }); a != 0 {
		t.Errorf("Observe allocates %g times per call", a)
	}
	if a := testing.AllocsPerRun(100, func() { _, _ = e.Mask(s, mask) }); a != 0 {
		t.Errorf("Mask allocates %g times per call", a)
	}
	if a := testing.AllocsPerRun(100, func() { _ = e.EncodeOracle(s, seat, obs) }); a != 0 {
		t.Errorf("EncodeOracle allocates %g times per call", a)
	}
}

// golden situations: options, seed, and the step at which the decider's view is dumped.
var goldens = []struct {
	file string
	opts rules.Options
	seed uint64
	step int
}{
	{"base-4p-start", rules.Options{Players: 4}, 1, 0},
	{"base-4p-step60", rules.Options{Players: 4}, 2, 60},
	{"classic-3p-step40", rules.Options{Players: 3, Variant: rules.Classic}, 3, 40},
	{"all-modules-5p-step80", rules.Options{Players: 5, Modules: rules.AllModules}, 4, 80},
}

// TestGoldenObservations compares the decider's observation in a few situations, one
// "column = value" line per entry, with testdata/*.golden (regenerate with -update).
func TestGoldenObservations(t *testing.T) {
	for _, gc := range goldens {
		t.Run(gc.file, func(t *testing.T) {
			g := newGame(t, gc.opts)
			e := NewEncoder(g)
			var s *rules.State
			randomPlay(g, gc.seed, func(st *rules.State, step int) bool { s = st; return step < gc.step })
			seat := s.CurrentPlayer()
			if seat < 0 {
				seat = 0
			}
			obs := make([]float32, e.Size())
			if err := e.Observe(s, seat, obs); err != nil {
				t.Fatal(err)
			}
			header := fmt.Sprintf("# %s, %s, seed %d, step %d, observer seat %d (phase %s)\n", Version, describeOptions(gc.opts), gc.seed, s.Steps, seat, s.Decision().Phase)
			checkGoldenObservation(t, gc.file, header, e, obs)
		})
	}
}

// TestGoldenObservationsOfRulebookPositions encodes the decider's view of the hand-written
// positions in env/rules/testdata/positions (the rulebook's final-scoring example, the
// luxury scoring examples, an opening and a 5-player position with both Bank auctions open),
// pinning the features of situations a person can read, with the feature names.
func TestGoldenObservationsOfRulebookPositions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "env", "rules", "testdata", "positions", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example positions found: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := rules.LoadPosition(data)
			if err != nil {
				t.Fatal(err)
			}
			seat := max(s.CurrentPlayer(), 0)
			e := NewEncoder(s.Game())
			obs := make([]float32, e.Size())
			if err := e.Observe(s, seat, obs); err != nil {
				t.Fatal(err)
			}
			header := fmt.Sprintf("# %s, position %s, %s, observer seat %d (phase %s)\n", Version, filepath.Base(f), describeOptions(s.Game().Options()), seat, s.Decision().Phase)
			checkGoldenObservation(t, "position-"+name, header, e, obs)
		})
	}
}

// checkGoldenObservation compares one "offset column value" line per feature (after header)
// with testdata/<file>.golden, or rewrites it with -update.
func checkGoldenObservation(t *testing.T, file, header string, e *Encoder, obs []float32) {
	t.Helper()
	var b strings.Builder
	b.WriteString(header)
	for i, c := range e.Spec().Columns() {
		fmt.Fprintf(&b, "%4d %-36s %g\n", i, c, obs[i])
	}
	path := filepath.Join("testdata", file+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./encoding -run Golden -update)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got  %s\n want %s\n(if the change is intended, bump Version and run with -update)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}

// benchStates returns an encoder for the default game and 64 positions of a random game.
func benchStates(b *testing.B) (*Encoder, []*rules.State) {
	g := newGame(b, rules.DefaultOptions())
	var states []*rules.State
	randomPlay(g, 1, func(s *rules.State, step int) bool {
		if step%10 == 0 && !s.IsTerminal() {
			states = append(states, s.Clone())
		}
		return len(states) < 64
	})
	return NewEncoder(g), states
}

func BenchmarkObserve(b *testing.B) {
	e, states := benchStates(b)
	obs := make([]float32, e.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		_ = e.Observe(s, s.CurrentPlayer(), obs)
	}
}

func BenchmarkMask(b *testing.B) {
	e, states := benchStates(b)
	mask := make([]float32, e.NumActions())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = e.Mask(states[i%len(states)], mask)
	}
}

func TestPoolEncodesLikeAnEncoderWithoutAllocating(t *testing.T) {
	g := newGame(t, rules.Options{Players: 3})
	p := NewPool(g, 2)
	e := NewEncoder(g)
	want := make([]float32, e.Size())
	wantMask := make([]float32, e.NumActions())
	randomPlay(g, 6, func(s *rules.State, step int) bool {
		obs, mask := p.Encode(step%2, s)
		seat := max(s.CurrentPlayer(), 0)
		_ = e.Observe(s, seat, want)
		_, _ = e.Mask(s, wantMask)
		if !slices.Equal(obs, want) || !slices.Equal(mask, wantMask) {
			t.Fatalf("step %d: pool and encoder disagree", step)
		}
		if step == 30 {
			if a := testing.AllocsPerRun(50, func() { p.Encode(1, s) }); a != 0 {
				t.Fatalf("Pool.Encode allocates %g times", a)
			}
		}
		return step < 200
	})
}

// layoutFingerprints pins the layout of each released Version: a hash of every column name
// and scale for the default game and for all modules. A layout change without a new Version
// fails here; add the new version's fingerprints when bumping it.
var layoutFingerprints = map[string][2]uint64{
	"obs-v1": {0xc54ae58882e60103, 0x4f9b3a14077b1024},
	"obs-v2": {0x5b35422defd7a470, 0xfdadbc3b05ba3b1e},
}

func layoutFingerprint(t *testing.T, o rules.Options) uint64 {
	t.Helper()
	s, err := NewSpec(o)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	for _, f := range s.Features {
		for _, l := range f.Labels {
			fmt.Fprintf(h, "%s.%s/%g;", f.Name, l, f.Scale)
		}
	}
	return h.Sum64()
}

func TestLayoutFingerprintMatchesTheVersion(t *testing.T) {
	want, ok := layoutFingerprints[Version]
	if !ok {
		t.Fatalf("no fingerprint recorded for %s", Version)
	}
	got := [2]uint64{layoutFingerprint(t, rules.DefaultOptions()), layoutFingerprint(t, rules.Options{Players: 4, Modules: rules.AllModules})}
	if got != want {
		t.Fatalf("the %s layout changed (fingerprints %#x, %#x; recorded %#x, %#x): bump encoding.Version and record the new fingerprints", Version, got[0], got[1], want[0], want[1])
	}
}

// With HideOpponentCash (CLARIFICATIONS.md, "Cash in hand") an observation does not change
// when an opponent's cash does, still shows the observer's own cash, and differs from the
// standard observation only in the opponents' cash and public-score features.
func TestHiddenCashObservationIgnoresOpponentsCashOnly(t *testing.T) {
	for _, o := range configs() {
		t.Run(name(o), func(t *testing.T) {
			g := newGame(t, o)
			hidden := NewEncoderWith(g, Options{HideOpponentCash: true})
			plain := NewEncoder(g)
			if hidden.Spec().Version != HiddenCashVersion || plain.Spec().Version != Version {
				t.Fatalf("versions %q / %q", hidden.Spec().Version, plain.Spec().Version)
			}
			allowed := map[int]bool{} // entries the two variants may disagree on
			for p := 1; p < o.Players; p++ {
				for _, f := range []string{"cash", "public_score"} {
					ft, ok := hidden.Spec().Feature(fmt.Sprintf("p%d.%s", p, f))
					if !ok {
						t.Fatalf("no feature p%d.%s", p, f)
					}
					for i := range ft.Size {
						allowed[ft.Offset+i] = true
					}
				}
			}
			ownCash, _ := hidden.Spec().Feature("p0.cash")
			obs := make([]float32, hidden.Size())
			ref := make([]float32, hidden.Size())
			alt := make([]float32, hidden.Size())
			differs, checked := 0, 0
			randomPlay(g, 17, func(s *rules.State, step int) bool {
				if s.IsTerminal() || step%7 != 0 {
					return step < 3000
				}
				obsr := s.CurrentPlayer()
				if err := hidden.Observe(s, obsr, obs); err != nil {
					t.Fatal(err)
				}
				_ = plain.Observe(s, obsr, ref)
				for i := range obs {
					if obs[i] != ref[i] && !allowed[i] {
						t.Fatalf("step %d: hidden and standard observations differ at %d, not an opponent's cash", step, i)
					}
					if obs[i] != ref[i] {
						differs++
					}
				}
				c := s.Clone()
				for p := range c.Players {
					if p != obsr {
						c.Players[p].Cash += 37
					}
				}
				_ = hidden.Observe(c, obsr, alt)
				if !slices.Equal(obs, alt) {
					t.Fatalf("step %d: the hidden-cash observation changes with an opponent's cash", step)
				}
				_ = plain.Observe(c, obsr, alt)
				if slices.Equal(ref, alt) {
					t.Fatalf("step %d: the standard observation ignores the opponents' cash", step)
				}
				c.Players[obsr].Cash += 37
				_ = hidden.Observe(c, obsr, alt)
				if alt[ownCash.Offset] == obs[ownCash.Offset] && s.Players[obsr].Cash < 900 {
					t.Fatalf("step %d: the observer's own cash is hidden too", step)
				}
				checked++
				return step < 3000
			})
			if checked == 0 || differs == 0 {
				t.Fatalf("checked %d positions, %d differing entries: the test saw nothing", checked, differs)
			}
		})
	}
}

func TestOptionsForVersionRoundTripsAndRefusesUnknownVersions(t *testing.T) {
	for _, v := range Versions() {
		o, err := OptionsForVersion(v)
		if err != nil || o.Version() != v {
			t.Errorf("OptionsForVersion(%q) = %+v, %v", v, o, err)
		}
	}
	if _, err := OptionsForVersion("obs-v0"); !errors.Is(err, ErrVersion) {
		t.Errorf("obs-v0: err = %v, want ErrVersion", err)
	}
	s, err := NewSpecWith(rules.DefaultOptions(), Options{HideOpponentCash: true})
	if err != nil || s.Check(HiddenCashVersion, s.Size) != nil || !errors.Is(s.Check(Version, s.Size), ErrVersion) {
		t.Errorf("hidden-cash spec: %v; it must accept only %q", err, HiddenCashVersion)
	}
}
