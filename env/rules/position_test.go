package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestParseCounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Counts
	}{
		{"", Counts{}},
		{"-", Counts{}},
		{"wwg", Counts{White: 2, Green: 1}},
		{"2w g, 3o", Counts{White: 2, Green: 1, Gold: 3}},
		{"RBY", Counts{Red: 1, Blue: 1, Yellow: 1}},
		{"12b", Counts{Blue: 12}},
	} {
		got, err := ParseCounts(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseCounts(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		back, err := ParseCounts(got.Letters())
		if err != nil || back != got {
			t.Errorf("Letters round trip of %q: %q -> %v", tc.in, got.Letters(), back)
		}
	}
	for _, in := range []string{"x", "3", "w2", "300w"} {
		if _, err := ParseCounts(in); !errors.Is(err, ErrBadPosition) {
			t.Errorf("ParseCounts(%q) error %v, want ErrBadPosition", in, err)
		}
	}
}

func TestParseShipPos(t *testing.T) {
	for _, p := range []ShipPos{{Where: AtOcean}, {Where: AtIsland}, {Where: AtBank}, {Where: AtHarbor, Seat: 3}} {
		got, err := ParseShipPos(p.String())
		if err != nil || got != p {
			t.Errorf("%v: round trip gave %v, %v", p, got, err)
		}
	}
	if _, err := ParseShipPos("harbor 7"); err == nil {
		t.Error("harbor 7 accepted")
	}
}

// loadTestPosition reads a position from testdata/positions.
func loadTestPosition(t *testing.T, name string) *State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "positions", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadPosition(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestPositionFilesRoundTrip: every example position loads, validates, and writes back to
// JSON that loads to an identical State.
func TestPositionFilesRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "positions", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example positions: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := loadTestPosition(t, filepath.Base(f))
			out, err := s.MarshalPosition()
			if err != nil {
				t.Fatal(err)
			}
			s2, err := LoadPosition(out)
			if err != nil {
				t.Fatalf("reloading the written position: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(s.Players, s2.Players) || s.Bank != s2.Bank || s.Auctions != s2.Auctions ||
				s.Supply != s2.Supply || s.machine != s2.machine || s.Companies != s2.Companies ||
				s.FactorySupply != s2.FactorySupply || s.WarehouseSupply != s2.WarehouseSupply {
				t.Errorf("round trip changed the state:\n%s", out)
			}
			out2, _ := s2.MarshalPosition()
			if !bytes.Equal(out, out2) {
				t.Errorf("second write differs:\n%s\n---\n%s", out, out2)
			}
		})
	}
}

// TestPositionRulebookScoringExample: the rulebook scoring example (p. 19) as a position file.
func TestPositionRulebookScoringExample(t *testing.T) {
	s := loadTestPosition(t, "rulebook-final-scoring.json")
	sc := s.Scores()
	if sc[0].Total != 55 || sc[1].Total != 62 || sc[2].Total != 71 || !sc[2].Winner {
		t.Errorf("totals %d %d %d, want 55 62 71 with blue winning", sc[0].Total, sc[1].Total, sc[2].Total)
	}
	// Whites: 2 on Orange's ship, 3 on Orange's island, 2 in Purple's harbor, 2 on Blue's island.
	if s.Supply[White] != 11-2-3-2-2 {
		t.Errorf("computed white supply %d, want 2", s.Supply[White])
	}
	if s.FactorySupply != [NumNormalColours]uint8{1, 1, 2, 1, 2} || s.WarehouseSupply != 12-5 {
		t.Errorf("computed building supply: factories %v warehouses %d", s.FactorySupply, s.WarehouseSupply)
	}
}

// TestValidateRejectsImpossiblePositions: each broken position fails with a message naming
// the problem.
func TestValidateRejectsImpossiblePositions(t *testing.T) {
	base := `{"options": {"players": 3%s}, "players": [%s, {"factories": "g"}, {"factories": "r"}]%s}`
	for _, tc := range []struct {
		name, opts, p0, rest, want string
	}{
		{"factory storage", "", `{"factories": "w", "factory_lots": {"1": "www"}}`, "", "factory district holds 3"},
		{"reserve tokens count", "", `{"factories": "w", "factory_lots": {"1": "w"}}`,
			`, "bank": {"cash_lots": [1,2,3]}, "auctions": [{"kind": "cash-lot", "target": 0, "bidder": 0, "from_factory": "gg"}]`, "reserve tokens"},
		{"harbor storage", "", `{"factories": "w", "harbor_lots": {"2": "w", "6": "g"}}`, "", "harbor district holds 2"},
		{"ship capacity", "", `{"factories": "w", "ship": "wwwggg"}`, "", "6 containers on the ship"},
		{"three loans", "", `{"factories": "w", "loans": 3}`, "", "at most 2"},
		{"unknown colour", "", `{"factories": "w", "ship": "wx"}`, "", "unknown colour letter"},
		{"gold without luxury", "", `{"factories": "w", "ship": "o"}`, "", "gold"},
		{"too many containers", "", `{"factories": "w", "island": "12w"}`, "", "white containers"},
		{"supply does not add up", "", `{"factories": "w"}`, `, "supply": {"white": 1}`, "white containers counted"},
		{"same-colour factories", "", `{"factories": "ww"}`, "", "same colour"},
		{"five factories", `, "factories_per_colour": 4`, `{"factories": "wgrby"}`, "", "5 factories"},
		{"no factory", "", `{"factories": ""}`, "", "0 factories"},
		{"six warehouses", "", `{"factories": "w", "warehouses": 6}`, "", "6 warehouses"},
		{"zero warehouses", "", `{"factories": "w", "warehouses": 0}`, "", "0 warehouses"},
		{"negative cash", "", `{"factories": "w", "cash": -1}`, "", "negative cash"},
		{"own harbor", "", `{"factories": "w", "ship_at": "harbor 0"}`, "", "own harbor"},
		{"harbor of a missing seat", "", `{"factories": "w", "ship_at": "harbor 4"}`, "", "not a seat"},
		{"player loan without module", "", `{"factories": "w", "loans": [{"lender": 1, "amount": 10}]}`, "", "player-loans"},
		{"auction on empty lot", "", `{"factories": "w"}`, `, "auctions": [{"kind": "container-lot", "target": 0, "bidder": 1, "cash": 2}]`, "empty lot"},
		{"classic auction", `, "variant": "classic"`, `{"factories": "w"}`, `, "auctions": [{"kind": "cash-lot", "target": 0, "bidder": 1, "from_harbor": "g"}]`, "Classic"},
		{"two lot auctions with 3 players", "", `{"factories": "w"}`,
			`, "bank": {"container_lots": ["w","",""], "cash_lots": [1,2,3]}, "auctions": [{"kind": "cash-lot", "target": 0, "bidder": 1, "from_factory": "g"}, {"kind": "container-lot", "target": 0, "bidder": 2, "cash": 1}]`, "one Bank lot auction"},
		{"truck auction without module", "", `{"factories": "w"}`, `, "auctions": [{"kind": "truck", "target": 0, "bidder": 1, "cash": 1}]`, "trucks module"},
		{"unknown field", "", `{"factories": "w", "hat": 1}`, "", `unknown key "hat" at players[0]`},
		{"bad option", `, "variant": "deluxe"`, `{"factories": "w"}`, "", "unknown rules variant"},
		{"active seat", "", `{"factories": "w"}`, `, "active": 3`, "active seat 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(strings.Replace(strings.Replace(strings.Replace(base, "%s", tc.opts, 1), "%s", tc.p0, 1), "%s", tc.rest, 1))
			_, err := LoadPosition(data)
			if !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want ErrBadPosition mentioning %q\n%s", err, tc.want, data)
			}
		})
	}
	// Defaults never deal a card twice, so a duplicate needs two explicit cards.
	dup := `{"options": {"players": 3}, "players": [{"factories": "w", "card": 4}, {"factories": "g", "card": 4}, {"factories": "r"}]}`
	if _, err := LoadPosition([]byte(dup)); !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), "duplicate scoring cards") {
		t.Errorf("duplicate cards: error %v", err)
	}
	// Default cards avoid cards given explicitly to later seats.
	later := `{"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r", "card": 0}]}`
	if s, err := LoadPosition([]byte(later)); err != nil || s.Players[0].Card == 0 || s.Players[1].Card == 0 {
		t.Errorf("default cards next to an explicit card 0: %v", err)
	}
	// The base position itself is fine.
	data := strings.Replace(strings.Replace(strings.Replace(base, "%s", "", 1), "%s", `{"factories": "w"}`, 1), "%s", "", 1)
	if _, err := LoadPosition([]byte(data)); err != nil {
		t.Fatalf("base position rejected: %v", err)
	}
}

func BenchmarkMarshalPosition(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "positions", "midgame-5p-auctions.json"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := LoadPosition(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.MarshalPosition(); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleLoadPosition() {
	s, err := LoadPosition([]byte(`{
		"options": {"players": 3},
		"players": [
			{"cash": 12, "card": 1, "factories": "b", "island": "wwgrby", "ship": "ry"},
			{"factories": "g", "factory_lots": {"2": "gg"}},
			{"factories": "w", "loans": 1}
		]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, sc := range s.Scores() {
		fmt.Printf("p%d %s\n", i+1, sc)
	}
	// Output:
	// p1 cash $12 + island $26 + leftover $6 + loans $0 = $44 (discarded 2 white, all colours) rank 1 WINNER
	// p2 cash $20 + island $0 + leftover $0 + loans $0 = $20 rank 2
	// p3 cash $20 + island $0 + leftover $0 + loans -$11 = $9 rank 3
}

// The machine mutation harness: positions reached in random games of every
// variant, module set and player count are written with MarshalPosition, one machine field
// (or the active seat) is replaced by another value, and every mutant that loads must be
// playable: legal moves listed, each legal action applied, legal moves listed again, with no
// panic and no dead end (a non-terminal position without legal actions).

// mutationConfigs is every option set: 3-5 players x base/classic x module sets (Classic has
// no Truck Companies).
func mutationConfigs() []Options {
	var out []Options
	for n := 3; n <= MaxPlayers; n++ {
		for v := Base; v <= Classic; v++ {
			for m := Modules(0); m <= AllModules; m++ {
				o := Options{Players: n, Variant: v, Modules: m}
				if o.Validate() == nil {
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// samplePositions plays random games of o and returns up to perPhase positions of each phase
// (the first ones met, then a spread), as MarshalPosition output.
func samplePositions(t testing.TB, o Options, games, perPhase int, seed uint64) [][]byte {
	g, err := NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	seen := map[Phase]int{}
	r := rand.New(rand.NewPCG(seed, 11))
	ids := make([]int, 0, 256)
	for k := 0; k < games; k++ {
		s := g.NewInitialStateSeed(seed + uint64(k))
		for {
			ph := s.machine.Phase
			if seen[ph] < perPhase && (seen[ph] == 0 || r.IntN(8) == 0) {
				seen[ph]++
				b, err := s.MarshalPosition()
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, b)
			}
			if s.IsTerminal() {
				break
			}
			ids = s.LegalActions(ids)
			s.Apply(ids[r.IntN(len(ids))])
		}
	}
	return out
}

// machineMutation replaces one value of a position's JSON: Path is "machine.FIELD",
// "machine.FIELD[i]" or a top-level field.
type machineMutation struct {
	Path  string
	Value any
}

func (m machineMutation) String() string {
	v, _ := json.Marshal(m.Value)
	return m.Path + "=" + string(v)
}

var (
	mutInts   = []any{-129, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 13, 23, 24, 31, 32, 99, 100, 127, 128, 255, 256, 2147483647, -2147483648}
	mutCounts = []any{"", "w", "g", "o", "wg", "oo", "wwwww", "5y", "12b", "wgrbyo"}
	mutBools  = []any{false, true}
)

// machineMutations lists the single-value replacements tried on a position's machine (and
// its active seat, turn-end flag and step count).
func machineMutations(pos []byte) []machineMutation {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(pos, &top); err != nil {
		panic(err)
	}
	var mach map[string]json.RawMessage
	if err := json.Unmarshal(top["machine"], &mach); err != nil {
		panic(err)
	}
	keys := make([]string, 0, len(mach))
	for k := range mach {
		keys = append(keys, k)
	}
	// Omitted (omitempty) fields of the machine are mutated too.
	for _, k := range []string{"luxury_used", "loans_blocked", "loan_rejected", "lux_first", "free", "hidden",
		"interest_due", "unpaid_loans", "loan_resume", "loan_return_phase", "loan_return_decider", "offers",
		"has_incentive", "incentive_revealed", "loan_tied", "amount_base"} {
		if _, ok := mach[k]; !ok {
			keys = append(keys, k)
			mach[k] = json.RawMessage("0")
		}
	}
	sort.Strings(keys)
	var out []machineMutation
	for _, k := range keys {
		raw := strings.TrimSpace(string(mach[k]))
		path := "machine." + k
		switch {
		case strings.HasPrefix(raw, "["):
			var arr []json.RawMessage
			if err := json.Unmarshal(mach[k], &arr); err != nil {
				panic(err)
			}
			for i, e := range arr {
				p := fmt.Sprintf("%s[%d]", path, i)
				if strings.HasPrefix(strings.TrimSpace(string(e)), "\"") {
					for _, v := range mutCounts {
						out = append(out, machineMutation{p, v})
					}
				} else {
					for _, v := range mutInts {
						out = append(out, machineMutation{p, v})
					}
				}
			}
		case strings.HasPrefix(raw, "\""):
			for _, v := range mutCounts {
				out = append(out, machineMutation{path, v})
			}
		case raw == "true" || raw == "false" || k == "free" || k == "hidden" || k == "luxury_used" ||
			k == "loans_blocked" || k == "incentive_revealed":
			for _, v := range mutBools {
				out = append(out, machineMutation{path, v})
			}
		default:
			for _, v := range mutInts {
				out = append(out, machineMutation{path, v})
			}
		}
	}
	for _, v := range []any{-1, 0, 1, 2, 3, 4, 5} {
		out = append(out, machineMutation{"active", v})
	}
	out = append(out, machineMutation{"end_triggered", true}, machineMutation{"end_triggered", false})
	return out
}

// applyMutation returns pos with mu applied.
func applyMutation(pos []byte, mu machineMutation) []byte {
	var top map[string]any
	if err := json.Unmarshal(pos, &top); err != nil {
		panic(err)
	}
	path := mu.Path
	obj := top
	if rest, ok := strings.CutPrefix(path, "machine."); ok {
		obj = top["machine"].(map[string]any)
		path = rest
	}
	if name, idx, ok := strings.Cut(path, "["); ok {
		var i int
		fmt.Sscanf(idx, "%d]", &i)
		obj[name].([]any)[i] = mu.Value
	} else {
		obj[path] = mu.Value
	}
	b, err := json.Marshal(top)
	if err != nil {
		panic(err)
	}
	return b
}

// exercisePosition loads pos and, if it loads, checks that it is playable: every reader the
// commands use works, each legal action applies, and the result has legal actions again
// unless the game is over. It returns whether pos loaded and the first problem found (a
// panic included).
func exercisePosition(pos []byte) (loaded bool, problem error) {
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Errorf("panic: %v", r)
		}
	}()
	s, err := LoadPosition(pos)
	if err != nil {
		return false, nil
	}
	if err := checkPlayable(s); err != nil {
		return true, err
	}
	ids := s.LegalActions(nil)
	for _, id := range ids {
		c := s.Clone()
		if err := c.ApplyChecked(id); err != nil {
			return true, fmt.Errorf("legal action %d (%s) refused: %v", id, s.ActionToMove(id), err)
		}
		if err := checkPlayable(c); err != nil {
			return true, fmt.Errorf("after %s: %v", s.ActionToMove(id), err)
		}
		if err := c.Validate(); err != nil {
			return true, fmt.Errorf("after %s: the engine produced an invalid position: %v", s.ActionToMove(id), err)
		}
	}
	return true, nil
}

// maxAmountRange bounds the amounts a legal position may offer (a generous multiple of the
// cash a real game sees), so listing them stays cheap.
const maxAmountRange = 1 << 21

// checkPlayable lists s's legal moves the ways the commands do and reports a dead end.
func checkPlayable(s *State) error {
	d := s.Decision()
	_ = s.Render(d.Decider)
	_ = s.Hash()
	_ = s.Scores()
	var view State
	s.Redact(s.CurrentPlayer(), &view)
	if d.MaxAmount-d.MinAmount > maxAmountRange {
		return fmt.Errorf("amount range $%d..$%d is too large to list", d.MinAmount, d.MaxAmount)
	}
	ids := s.LegalActions(nil)
	moves := s.LegalMoves(nil)
	if s.IsTerminal() {
		return nil
	}
	if len(ids) == 0 || len(moves) == 0 {
		return fmt.Errorf("no legal actions in a non-terminal state (phase %s, decider p%d)", s.machine.Phase, s.machine.Decider+1)
	}
	for _, id := range ids {
		m := s.ActionToMove(id)
		_ = m.String()
		if back, ok := s.MoveToAction(m); !ok || back != id {
			return fmt.Errorf("action %d -> %v -> %d, %v", id, m, back, ok)
		}
	}
	return nil
}

// TestPositionMachineMutations runs the harness over a sample of positions and mutations
// (all of them with CONTAINER_MUTATION_FULL=1; about a minute).
func TestPositionMachineMutations(t *testing.T) {
	full := os.Getenv("CONTAINER_MUTATION_FULL") != ""
	games, perPhase, keep := 1, 1, 6
	if testing.Short() {
		keep = 2
	}
	if full {
		games, perPhase, keep = 1, 1, 250
	}
	r := rand.New(rand.NewPCG(18, 7))
	var tried, loaded, failed int
	for ci, o := range mutationConfigs() {
		for _, pos := range samplePositions(t, o, games, perPhase, uint64(100+ci)) {
			if l, err := exercisePosition(pos); !l || err != nil {
				t.Fatalf("unmutated %v position does not play: loaded %v, %v\n%s", o, l, err, pos)
			}
			muts := machineMutations(pos)
			r.Shuffle(len(muts), func(i, j int) { muts[i], muts[j] = muts[j], muts[i] })
			muts = muts[:min(keep, len(muts))]
			for _, mu := range muts {
				mp := applyMutation(pos, mu)
				tried++
				l, err := exercisePosition(mp)
				if l {
					loaded++
				}
				if err != nil {
					failed++
					if failed <= 40 {
						t.Errorf("%dp %s modules %q phase %s, %s: %v", o.Players, o.Variant, o.Modules, phaseOf(pos), mu, err)
					}
					if dir := os.Getenv("CONTAINER_MUTATION_SAVE"); dir != "" {
						os.WriteFile(fmt.Sprintf("%s/m%05d.json", dir, failed), mp, 0o644)
					}
				}
			}
		}
	}
	t.Logf("%d mutants, %d loaded, %d failed", tried, loaded, failed)
}

func phaseOf(pos []byte) string {
	var p struct {
		Machine struct {
			Phase Phase `json:"phase"`
		} `json:"machine"`
	}
	json.Unmarshal(pos, &p)
	return p.Machine.Phase.String()
}

// The position format keeps the press count, so a loaded position is observed like the
// original; a count below zero or above the steps is refused.
func TestPositionKeepsAmountPresses(t *testing.T) {
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(1)
	s.Steps, s.Presses = 40, 3
	b, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"presses": 3`)) && !bytes.Contains(b, []byte(`"presses":3`)) {
		t.Fatalf("position lacks the press count: %s", b)
	}
	r, err := LoadPosition(b)
	if err != nil {
		t.Fatal(err)
	}
	if r.Steps != 40 || r.Presses != 3 || r.PublicSteps() != 37 {
		t.Fatalf("loaded steps %d presses %d", r.Steps, r.Presses)
	}
	for _, bad := range []int32{-1, 41} {
		s.Presses = bad
		if err := s.Validate(); err == nil {
			t.Errorf("presses %d of 40 steps accepted", bad)
		}
	}
}
