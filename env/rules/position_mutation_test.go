package rules

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"
)

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
