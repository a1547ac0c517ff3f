package encoding

import (
	"errors"
	"flag"
	"fmt"
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

// layoutFingerprints pins the layout of each released Version: a hash of every column name
// and scale for the default game and for all modules. A layout change without a new Version
// fails here; add the new version's fingerprints when bumping it.
var layoutFingerprints = map[string][2]uint64{
	"obs-v1": {0xc54ae58882e60103, 0x4f9b3a14077b1024},
	"obs-v2": {0x5b35422defd7a470, 0xfdadbc3b05ba3b1e},
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
