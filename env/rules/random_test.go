package rules

import (
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

var longFlag = flag.Bool("long", false, "the long random-game sweep (also CONTAINER_LONG=1)")

// long reports whether the long sweeps were asked for (-long or CONTAINER_LONG=1, a CI step of
// its own); go test ./... runs shorter ones.
func long() bool {
	return *longFlag || (os.Getenv("CONTAINER_LONG") != "" && os.Getenv("CONTAINER_LONG") != "0")
}

// playRandom plays one seeded random game, checking the per-step invariants, and returns the
// final state.
func playRandom(t *testing.T, o Options, seed uint64, check bool) *State {
	t.Helper()
	g, err := NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(seed)
	r := rand.New(rand.NewPCG(seed, 7))
	ids := make([]int, 0, 256)
	moves := make([]Move, 0, 256)
	turnStart, lastTurn := 0, s.Turn
	for !s.IsTerminal() {
		if int(s.Steps) > g.MaxGameLength() {
			t.Fatalf("seed %d: game longer than MaxGameLength %d", seed, g.MaxGameLength())
		}
		if s.Turn != lastTurn {
			if n := int(s.Steps) - turnStart; n > MaxStepsPerTurn {
				t.Fatalf("seed %d: turn %d took %d steps > MaxStepsPerTurn", seed, lastTurn, n)
			}
			turnStart, lastTurn = int(s.Steps), s.Turn
		}
		ids = s.LegalActions(ids)
		if len(ids) == 0 {
			t.Fatalf("seed %d step %d: no legal actions in phase %s", seed, s.Steps, s.machine.Phase)
		}
		if check {
			checkStep(t, s, ids, moves)
		}
		s.Apply(ids[r.IntN(len(ids))])
		if check {
			checkInvariants(t, s)
		}
	}
	return s
}

func checkStep(t *testing.T, s *State, ids []int, moves []Move) {
	t.Helper()
	if !slices.IsSorted(ids) {
		t.Fatalf("legal actions not sorted: %v", ids)
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			t.Fatalf("duplicate legal action %d", ids[i])
		}
	}
	for _, id := range ids {
		m := s.ActionToMove(id)
		back, ok := s.MoveToAction(m)
		if !ok || back != id {
			t.Fatalf("phase %s: id %d -> %v -> %d,%v", s.machine.Phase, id, m, back, ok)
		}
		pm, err := s.ParseMove(m.String())
		if err != nil || pm != m {
			t.Fatalf("notation %q -> %v, %v (want %v)", m.String(), pm, err, m)
		}
	}
	// The decider's redacted view has the same decision (as the decider may know it) and legal
	// actions (bots act on views).
	var view State
	s.Redact(s.CurrentPlayer(), &view)
	var want Decision
	s.DecisionFor(s.CurrentPlayer(), &want)
	if !slices.Equal(view.LegalActions(nil), ids) || view.Decision() != want {
		t.Fatalf("phase %s: the decider's view differs: %v vs %v", s.machine.Phase, view.LegalActions(nil), ids)
	}
	// The decider knows its own amount decision whole; every other seat's DecisionFor is its
	// view's decision, which knows nothing of the decider's sealed values or amount in progress.
	if full := s.Decision(); want.MinAmount != full.MinAmount || want.MaxAmount != full.MaxAmount || want.AmountBase != full.AmountBase {
		t.Fatalf("phase %s: the decider's amounts %d..%d (base %d), the state's %d..%d (base %d)", s.machine.Phase,
			want.MinAmount, want.MaxAmount, want.AmountBase, full.MinAmount, full.MaxAmount, full.AmountBase)
	}
	for seat := 0; seat < s.n(); seat++ {
		if seat == s.CurrentPlayer() {
			continue
		}
		s.Redact(seat, &view)
		s.DecisionFor(seat, &want)
		if view.Decision() != want {
			t.Fatalf("phase %s: seat %d's DecisionFor differs from its view's decision:\n%+v\n%+v", s.machine.Phase, seat, want, view.Decision())
		}
	}
	if d := s.Decision(); d.Decider != int(s.machine.Decider) || d.MinAmount > d.MaxAmount ||
		d.Counterpart < -1 || d.Counterpart >= s.n() {
		t.Fatalf("decision %+v", d)
	}
	moves = s.LegalMoves(moves)
	nid := 0
	for _, m := range moves {
		if _, ok := s.MoveToAction(m); ok {
			nid++
		} else if m.Kind != Amount || m.Amount <= MaxAmountID {
			t.Fatalf("legal move %v has no id", m)
		}
	}
	if nid != len(ids) {
		t.Fatalf("%d moves with ids, %d legal ids", nid, len(ids))
	}
	// An illegal id (a different one each step) is refused and changes nothing.
	h := s.Hash()
	for k := 0; k < NumDistinctActions(); k++ {
		id := (k + int(s.Steps)*37) % NumDistinctActions()
		if _, found := slices.BinarySearch(ids, id); found {
			continue
		}
		if err := s.ApplyChecked(id); !errors.Is(err, ErrIllegalAction) {
			t.Fatalf("illegal id %d (%v) accepted in phase %s: %v", id, s.ActionToMove(id), s.machine.Phase, err)
		}
		if s.Hash() != h {
			t.Fatalf("refused id %d changed the state", id)
		}
		break
	}
	for _, id := range []int{-1, NumDistinctActions()} {
		if err := s.ApplyChecked(id); !errors.Is(err, ErrIllegalAction) {
			t.Fatalf("out-of-range id %d accepted", id)
		}
	}
}

func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	cf := s.CashFlow()
	if cf.InPlay != cf.Start+cf.FromSupply-cf.ToSupply {
		t.Fatalf("step %d: cash in play %d != start %d + from supply %d - to supply %d (last move %v)",
			s.Steps, cf.InPlay, cf.Start, cf.FromSupply, cf.ToSupply, s.history[len(s.history)-1])
	}
	for i := 0; i < s.n(); i++ {
		p := &s.Players[i]
		if p.Cash < 0 {
			t.Fatalf("step %d: seat %d cash %d (last move %v)", s.Steps, i, p.Cash, s.history[len(s.history)-1])
		}
		if s.machine.Phase != PhasePlace && s.machine.Phase != PhaseReturnBid && s.machine.Phase != PhaseRearrange {
			if s.factorySpace(i) < 0 || s.harborSpace(i) < 0 {
				t.Fatalf("step %d: seat %d over storage (last move %v)", s.Steps, i, s.history[len(s.history)-1])
			}
		}
		if p.Ship.Total() > ShipCapacity {
			t.Fatalf("ship over capacity")
		}
	}
	// Containers are conserved.
	var tot Counts
	tot.Add(&s.Supply)
	tot.Add(&s.Removed)
	for l := range s.Bank.ContainerLots {
		tot.Add(&s.Bank.ContainerLots[l])
	}
	for k := range s.Auctions {
		tot.Add(&s.Auctions[k].FromFactory)
		tot.Add(&s.Auctions[k].FromHarbor)
	}
	m := &s.machine
	tot.Add(&m.Pending)
	if s.machine.Phase == PhaseBuyHarbor {
		for c := range tot {
			tot[c] -= m.Pending[c] // bought containers are on the ship already
		}
	}
	tot.Add(&m.ReturnFactory)
	tot.Add(&m.ReturnHarbor)
	tot.Add(&m.Seized)
	tot.Add(&m.Pay)
	for i := 0; i < s.n(); i++ {
		p := &s.Players[i]
		for l := range p.FactoryLots {
			tot.Add(&p.FactoryLots[l])
		}
		for l := range p.HarborLots {
			tot.Add(&p.HarborLots[l])
		}
		tot.Add(&p.Ship)
		tot.Add(&p.Holding)
		tot.Add(&p.Island)
	}
	normal, gold := s.game.opts.containersPerColour()
	for c := 0; c < NumColours; c++ {
		want := normal
		if c == int(Gold) {
			want = gold
		}
		if int(tot[c]) != want {
			t.Fatalf("step %d: colour %v total %d, want %d (last move %v, phase %s)", s.Steps, Colour(c), tot[c], want, s.history[len(s.history)-1], s.machine.Phase)
		}
	}
}

// TestRandomGames plays seeded random games of every configuration with the per-step checks:
// 5 a configuration, 20 in the long sweep (the conformance suite checks more at every step of
// every configuration besides).
func TestRandomGames(t *testing.T) {
	games := 5
	switch {
	case long():
		games = 20
	case testing.Short():
		games = 4
	}
	for _, o := range randomConfigs() {
		for seed := uint64(0); seed < uint64(games); seed++ {
			s := playRandom(t, o, seed, true)
			if s.Ended == NotEnded {
				t.Fatalf("not ended")
			}
		}
	}
}

// randomConfigs lists the configurations random play covers: base and Classic for 3-5
// players, and the modules alone and together.
func randomConfigs() []Options {
	var out []Options
	for n := 3; n <= 5; n++ {
		for _, v := range []Variant{Base, Classic} {
			out = append(out, Options{Players: n, Variant: v})
		}
		for _, m := range []Modules{Trucks, PlayerLoans, Luxury, AllModules} {
			out = append(out, Options{Players: n, Modules: m})
		}
		out = append(out, Options{Players: n, Variant: Classic, Modules: PlayerLoans | Luxury})
	}
	return out
}
