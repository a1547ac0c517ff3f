package encoding

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// counterpartPhases are the decisions whose Decision.Counterpart names another seat (the
// seller, the harbor owner, the deliverer, the winning bidder, the seat that outbid the
// decider, the defaulter, the borrower): rules.State.Decision.
var counterpartPhases = []rules.Phase{
	rules.PhaseBuyFactory, rules.PhaseBuyHarbor, rules.PhaseDeliveryBid, rules.PhaseRunoffBid,
	rules.PhaseDeliveryTie, rules.PhaseDeliveryAccept, rules.PhaseSeize, rules.PhaseReturnBid,
	rules.PhaseLoanOffer, rules.PhaseIncentiveBid, rules.PhaseLoanTie, rules.PhaseLoanAccept,
	rules.PhaseLenderChoice,
}

// counterpartSituation is the first decision of one phase met in seeded random play.
type counterpartSituation struct {
	opts  rules.Options
	seed  uint64
	step  int
	state *rules.State
}

// findCounterpartSituations plays seeded random games (5 players with every module, then 4
// and 3 players) until every counterpart phase has been met, keeping the first of each.
func findCounterpartSituations(t *testing.T) map[rules.Phase]counterpartSituation {
	t.Helper()
	found := map[rules.Phase]counterpartSituation{}
	want := map[rules.Phase]bool{}
	for _, p := range counterpartPhases {
		want[p] = true
	}
	configs := []rules.Options{
		{Players: 5, Modules: rules.AllModules},
		{Players: 4, Modules: rules.AllModules},
		{Players: 3, Modules: rules.AllModules},
		{Players: 4},
	}
	for seed := uint64(1); seed <= 60 && len(found) < len(want); seed++ {
		for _, o := range configs {
			g := newGame(t, o)
			randomPlay(g, seed, func(s *rules.State, step int) bool {
				p := s.Decision().Phase
				if _, seen := found[p]; want[p] && !seen {
					found[p] = counterpartSituation{opts: o, seed: seed, step: step, state: s.Clone()}
				}
				return len(found) < len(want)
			})
		}
	}
	return found
}

// In every decision with a counterpart, the decision.counterpart one-hot marks exactly the
// counterpart's seat relative to the observer (p0 = the observer, p1 the next seat
// clockwise...), never "none"; the decision features of the first such situation of each
// phase are pinned in testdata/counterpart-phases.golden (regenerate with -update).
func TestCounterpartOneHotMarksTheCounterpartSeatInEveryPhase(t *testing.T) {
	found := findCounterpartSituations(t)
	var b strings.Builder
	for _, p := range counterpartPhases {
		sit, ok := found[p]
		if !ok {
			t.Errorf("phase %s never met in seeded random play: add a situation for it", p)
			continue
		}
		s := sit.state
		d := s.Decision()
		n := sit.opts.Players
		if d.Counterpart < 0 || d.Counterpart >= n {
			t.Errorf("phase %s: counterpart %d is not a seat", p, d.Counterpart)
			continue
		}
		e := NewEncoder(s.Game())
		cols := e.Spec().Columns()
		obs := make([]float32, e.Size())
		fmt.Fprintf(&b, "# %s: %s, seed %d, step %d, decider %d, counterpart %d\n", p, describeOptions(sit.opts), sit.seed, sit.step, d.Decider, d.Counterpart)
		// Every seat's view: the mark moves with the observer.
		for observer := 0; observer < n; observer++ {
			if err := e.Observe(s, observer, obs); err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("decision.counterpart.p%d", (d.Counterpart-observer+n)%n)
			marked := []string{}
			for i, c := range cols {
				if strings.HasPrefix(c, "decision.counterpart.") && obs[i] != 0 {
					marked = append(marked, fmt.Sprintf("%s=%g", c, obs[i]))
				}
			}
			if len(marked) != 1 || marked[0] != want+"=1" {
				t.Errorf("phase %s, observer %d, counterpart seat %d: marked %v, want only %s=1", p, observer, d.Counterpart, marked, want)
			}
			if observer != d.Decider {
				continue
			}
			for i, c := range cols {
				if strings.HasPrefix(c, "decision.") {
					fmt.Fprintf(&b, "%4d %-36s %g\n", i, c, obs[i])
				}
			}
		}
	}
	path := filepath.Join("testdata", "counterpart-phases.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./encoding -run TestCounterpart -update)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got  %s\n want %s\n(if the change is intended, run go test ./encoding -run TestCounterpart -update)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}
