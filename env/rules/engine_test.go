package rules

import (
	"errors"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The rules package imports only the standard library (ARCHITECTURE, lesson 1).
func TestImportsOnlyStandardLibrary(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no Go files", err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if path == "github.com/container-rl/container/env/rules" {
				continue // the external example test imports the package itself
			}
			if path == "github.com/container-rl/container/internal/strictjson" {
				continue // itself standard library only (its own test checks)
			}
			if first := strings.Split(path, "/")[0]; strings.Contains(first, ".") {
				t.Errorf("%s imports %s, outside the standard library", f, path)
			}
		}
	}
	if _, err := os.Stat("doc.go"); err != nil {
		t.Fatal(err)
	}
}

// biasedPlayer picks uniformly among legal ids but rarely ends a turn early, so games reach
// every part of the rules.
func biasedPick(r *rand.Rand, ids []int) int {
	i := r.IntN(len(ids))
	if ids[i] == 0 && len(ids) > 1 && r.IntN(4) > 0 {
		i = 1 + r.IntN(len(ids)-1)
	}
	return ids[i]
}

// Random play with a bias against ending turns visits every decision phase of the base
// game and the Classic variant, and keeps the cash ledger and the containers conserved.
func TestRandomPlayVisitsEveryBasePhase(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	seen := map[Phase]bool{}
	for _, v := range []Variant{Base, Classic} {
		for n := 3; n <= 5; n++ {
			g, err := NewGame(Options{Players: n, Variant: v})
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(0); seed < uint64(games); seed++ {
				s := g.NewInitialStateSeed(seed)
				r := rand.New(rand.NewPCG(seed, 9))
				ids := make([]int, 0, 256)
				for !s.IsTerminal() {
					seen[s.machine.Phase] = true
					ids = s.LegalActions(ids)
					s.Apply(biasedPick(r, ids))
					checkInvariants(t, s)
				}
			}
		}
	}
	for p := PhaseTurn; p <= PhaseSeize+1; p++ { // every base phase: turn .. return-bid
		if p != PhaseInterestChoice && !seen[p] {
			t.Errorf("phase %s never reached", p)
		}
	}
}

// Options + seed + moves determine the game: replaying the history gives the same hash.
func TestSameSeedSameGame(t *testing.T) {
	o := Options{Players: 4}
	a := playRandom(t, o, 42, false)
	g, _ := NewGame(o)
	b := g.NewInitialStateSeed(42)
	for _, m := range a.History() {
		if err := b.ApplyMoveChecked(m); err != nil {
			t.Fatal(err)
		}
	}
	if a.Hash() != b.Hash() {
		t.Fatal("replay differs")
	}
	if c := g.NewInitialStateSeed(43); c.Hash() == g.NewInitialStateSeed(42).Hash() {
		t.Fatal("different seeds give the same setup")
	}
}

// Clone is deep: playing on the clone leaves the original alone.
func TestCloneIsIndependent(t *testing.T) {
	g, _ := NewGame(DefaultOptions())
	s := g.NewInitialStateSeed(5)
	c := s.Clone()
	if c.Hash() != s.Hash() {
		t.Fatal("clone differs")
	}
	h := s.Hash()
	c.Apply(c.LegalActions(nil)[1])
	if s.Hash() != h || len(s.History()) != 0 || len(c.History()) != 1 {
		t.Fatal("clone shares state with the original")
	}
	var d State
	d.CopyFrom(c)
	if d.Hash() != c.Hash() || len(d.History()) != 1 {
		t.Fatal("CopyFrom")
	}
}

// Setup follows the rulebook: supply, Bank, factories, cards, cash.
func TestSetupFollowsRulebook(t *testing.T) {
	for n := 3; n <= 5; n++ {
		g, _ := NewGame(Options{Players: n})
		s := g.NewInitialStateSeed(uint64(n))
		want := [3]int{11, 14, 17}[n-3]
		var bank Counts
		bank.Add(&s.Bank.ContainerLots[0])
		bank.Add(&s.Bank.ContainerLots[1])
		if s.Bank.ContainerLots[0].Total() != 2 || s.Bank.ContainerLots[1].Total() != 1 || bank.distinct() != 3 {
			t.Fatalf("bank lots %v", s.Bank.ContainerLots)
		}
		cards, factories := map[uint8]bool{}, uint8(0)
		for i := 0; i < n; i++ {
			p := &s.Players[i]
			if p.Cash != 20 || p.numFactories() != 1 || p.Warehouses != 1 || p.FactoryLots[1].Total() != 1 {
				t.Fatalf("seat %d: %+v", i, p)
			}
			if factories&p.Factories != 0 || cards[p.Card] {
				t.Fatal("factory colours or cards repeat")
			}
			factories |= p.Factories
			cards[p.Card] = true
		}
		total := 0
		for c := 0; c < NumNormalColours; c++ {
			total += int(s.Supply[c])
		}
		if total != 5*want-3-n {
			t.Fatalf("supply %v", s.Supply)
		}
		if int(s.WarehouseSupply) != 3*n || s.Bank.CashLots != [3]int32{1, 2, 3} {
			t.Fatal("warehouses or cash lots")
		}
		wantPhase(t, s, PhaseTurn, int(s.FirstPlayer))
	}
	g, _ := NewGame(Options{Players: 4, Variant: Classic})
	s := g.NewInitialStateSeed(1)
	if s.Bank.CashLots != [3]int32{} || s.Bank.ContainerLots[0].Total() != 0 {
		t.Fatal("classic has no Bank")
	}
}

// The notation round-trips every action id and refuses garbage with a clear error.
func TestNotationRoundTripAndErrors(t *testing.T) {
	g, _ := NewGame(Options{Players: 5})
	s := g.NewInitialStateSeed(1)
	for id := 0; id < NumDistinctActions(); id++ {
		m := s.ActionToMove(id)
		if back, ok := s.MoveToAction(m); !ok || back != id {
			t.Fatalf("id %d -> %v -> %d", id, m, back)
		}
		p, err := s.ParseMove(m.String())
		if err != nil || p != m {
			t.Fatalf("%q -> %v %v", m.String(), p, err)
		}
	}
	for _, bad := range []string{"", "sail:p6", "pick:factory:red:$5", "place:$9", "bank:start:cash-lot:4", "build:factory:pink", "fly"} {
		if _, err := s.ParseMove(bad); !errors.Is(err, ErrBadNotation) || !strings.HasPrefix(err.Error(), "rules: ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if m, err := s.ParseMove("$150"); err != nil || m.Amount != 150 {
		t.Fatal("large amounts parse")
	}
	if _, ok := s.MoveToAction(Move{Kind: Amount, Amount: 150}); ok {
		t.Fatal("amount above MaxAmountID has an id")
	}
}

// MaxGameLength bounds every game: a game that never triggers the end stops at the turn limit.
func TestTurnLimitEndsGame(t *testing.T) {
	g, _ := NewGame(Options{Players: 3, TurnLimit: 5})
	s := g.NewInitialStateSeed(1)
	for !s.IsTerminal() {
		s.Apply(0) // end every turn
	}
	if s.Ended != EndTurnLimit || s.Turn != 4 || int(s.Steps) > g.MaxGameLength() {
		t.Fatalf("ended %v turn %d steps %d", s.Ended, s.Turn, s.Steps)
	}
}

// Random play with every module visits the module phases (luxury, player loans, interest
// choice between lenders) and keeps the invariants.
func TestRandomPlayVisitsEveryModulePhase(t *testing.T) {
	games := 80
	if testing.Short() {
		games = 25
	}
	seen := map[Phase]int{}
	for n := 3; n <= 5; n++ {
		g, err := NewGame(Options{Players: n, Modules: AllModules})
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < uint64(games); seed++ {
			s := g.NewInitialStateSeed(seed)
			r := rand.New(rand.NewPCG(seed, 11))
			ids := make([]int, 0, 256)
			for !s.IsTerminal() {
				seen[s.machine.Phase]++
				ids = s.LegalActions(ids)
				s.Apply(biasedPick(r, ids))
				checkInvariants(t, s)
			}
		}
	}
	for p := PhaseTurn; p < PhaseTerminal; p++ {
		if seen[p] == 0 {
			t.Errorf("phase %s never reached", p)
		}
	}
	t.Logf("phases: %v", seen)
}

// Counts.Total adds every colour, also for counts too large for a byte-wise sum.
func TestCountsTotal(t *testing.T) {
	for _, c := range []Counts{{}, {1, 2, 3, 4, 5, 6}, {255, 255, 255, 255, 255, 255}, {60, 60, 60, 60, 60, 60}} {
		want := 0
		for _, n := range c {
			want += int(n)
		}
		if got := c.Total(); got != want {
			t.Errorf("%v: %d, want %d", c, got, want)
		}
	}
}
