package conformance

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// The sweep has two sizes. By default (go test ./...) every configuration plays one game with
// every check at every step except the JSON position round trip, which is checked every
// quickPositionEvery steps, at every change of phase and at the end. The long sweep
// (-long or CONTAINER_LONG=1, a CI step of its own, docs/CI.md) plays two games per
// configuration with every check at every step. CONTAINER_CONFORMANCE_GAMES=N sets the games per configuration
// (thousands for a soak run) in either.

// quickPositionEvery is PositionEvery in the default sweep.
const quickPositionEvery = 8

var longFlag = flag.Bool("long", false, "the long conformance sweep (also CONTAINER_LONG=1)")

// long reports whether the long sweep was asked for.
func long() bool {
	return *longFlag || (os.Getenv("CONTAINER_LONG") != "" && os.Getenv("CONTAINER_LONG") != "0")
}

func TestMain(m *testing.M) {
	flag.Parse()
	if !long() {
		PositionEvery = quickPositionEvery
	}
	os.Exit(m.Run())
}

// gamesPerConfig is 1, or 2 in the long sweep; CONTAINER_CONFORMANCE_GAMES=N runs N games per
// configuration.
func gamesPerConfig(t *testing.T) int {
	if v := os.Getenv("CONTAINER_CONFORMANCE_GAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("CONTAINER_CONFORMANCE_GAMES=%q is not a positive number", v)
		}
		return n
	}
	if long() {
		return 2
	}
	return 1
}

// moduleSets is every combination of the More Containers modules, none first.
var moduleSets = []rules.Modules{
	0,
	rules.Trucks,
	rules.PlayerLoans,
	rules.Luxury,
	rules.Trucks | rules.PlayerLoans,
	rules.Trucks | rules.Luxury,
	rules.PlayerLoans | rules.Luxury,
	rules.AllModules,
}

// TestConformance runs every rules configuration the engine accepts: the base rules with all
// 8 module combinations and the Classic variant with the 4 combinations without trucks
// (Classic refuses the Truck Companies module), each with 3, 4 and 5 players.
func TestConformance(t *testing.T) {
	games := gamesPerConfig(t)
	var mu sync.Mutex
	seen := map[rules.Modules]*moduleEvents{rules.Trucks: {}, rules.PlayerLoans: {}, rules.Luxury: {}}
	ran := map[rules.Modules]int{}
	t.Cleanup(func() {
		// Runs after every parallel configuration: each module's rules were exercised.
		if t.Failed() {
			return
		}
		tr, pl, lx := seen[rules.Trucks], seen[rules.PlayerLoans], seen[rules.Luxury]
		t.Logf("trucks: %+v; player loans: %+v; luxury: %+v", *tr, *pl, *lx)
		// Only modules whose configurations ran (-run may select a few) are judged.
		if (ran[rules.Trucks] > 0 && (tr.truckAuctions == 0 || tr.companiesWon == 0)) ||
			(ran[rules.PlayerLoans] > 0 && (pl.playerLoans == 0 || pl.incentiveLoans == 0)) ||
			(ran[rules.Luxury] > 0 && lx.luxury == 0) {
			t.Errorf("a module was not exercised by random play: trucks %+v, player loans %+v, luxury %+v", *tr, *pl, *lx)
		}
	})
	for _, players := range []int{3, 4, 5} {
		for _, v := range []rules.Variant{rules.Base, rules.Classic} {
			for k, mods := range moduleSets {
				if v == rules.Classic && mods.Has(rules.Trucks) {
					continue
				}
				o := rules.Options{Players: players, Variant: v, Modules: mods, Seed: uint64(100*players + 10*int(v) + k)}
				name := fmt.Sprintf("%dp-%s-%s", players, v, mods)
				if mods == 0 {
					name += "none"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					ev := runCounting(t, o, games)
					// Already the first game of each configuration (the seeds are fixed, so
					// more games only add events) reaches its modules' events.
					if (mods.Has(rules.Trucks) && ev.companiesWon == 0) || (mods.Has(rules.PlayerLoans) && ev.playerLoans == 0) || (mods.Has(rules.Luxury) && ev.luxury == 0) {
						t.Errorf("a module of %q was not exercised: %+v", mods, ev)
					}
					mu.Lock()
					defer mu.Unlock()
					for _, m := range []rules.Modules{rules.Trucks, rules.PlayerLoans, rules.Luxury} {
						if mods.Has(m) {
							seen[m].add(ev)
							ran[m]++
						}
					}
				})
			}
		}
	}
}

// moduleEvents counts, over the games of a configuration, the module events random play
// reached: truck auctions started and companies won, player loans taken (at least one
// outstanding at some step) with an incentive above $0, Acquire Luxury chosen.
type moduleEvents struct {
	truckAuctions, companiesWon, playerLoans, incentiveLoans, luxury int
}

func (e *moduleEvents) add(o moduleEvents) {
	e.truckAuctions += o.truckAuctions
	e.companiesWon += o.companiesWon
	e.playerLoans += o.playerLoans
	e.incentiveLoans += o.incentiveLoans
	e.luxury += o.luxury
}

// runCounting is Run that also counts the module events, so the matrix proves the module
// rules were exercised, not only allowed.
func runCounting(t *testing.T, opts rules.Options, games int) moduleEvents {
	t.Helper()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	var ev moduleEvents
	var lent [rules.MaxPlayers][rules.MaxLoans]rules.Loan
	for i := 0; i < games; i++ {
		seed := opts.Seed + uint64(i)
		lent = [rules.MaxPlayers][rules.MaxLoans]rules.Loan{}
		owned := 0
		err := PlayGame(g, seed, func(s *rules.State, id int) {
			switch s.ActionToMove(id).Kind {
			case rules.TruckStart:
				ev.truckAuctions++
			case rules.AcquireLuxury:
				ev.luxury++
			}
			n := 0
			for j := 0; j < opts.Players; j++ {
				if s.Companies[j].Owner >= 0 {
					n++
				}
				p := &s.Players[j]
				for l := 0; l < int(p.NumLoans); l++ {
					if ln := p.Loans[l]; ln.Lender >= 0 && lent[j][l] != ln {
						ev.playerLoans++
						if ln.Amount > 10 {
							ev.incentiveLoans++
						}
					}
				}
				for l := 0; l < rules.MaxLoans; l++ {
					lent[j][l] = rules.Loan{}
					if l < int(p.NumLoans) {
						lent[j][l] = p.Loans[l]
					}
				}
			}
			owned = max(owned, n)
		})
		if err != nil {
			t.Fatalf("conformance: %d players %s %q seed %d: %v", opts.Players, opts.Variant, opts.Modules, seed, err)
		}
		ev.companiesWon += owned
	}
	t.Logf("module events over %d games: %+v", games, ev)
	return ev
}

// TestConformanceClassicRefusesTrucks: the one combination the matrix skips is refused.
func TestConformanceClassicRefusesTrucks(t *testing.T) {
	for _, mods := range moduleSets {
		_, err := rules.NewGame(rules.Options{Players: 4, Variant: rules.Classic, Modules: mods})
		if got, want := err != nil, mods.Has(rules.Trucks); got != want {
			t.Errorf("classic with %q: error %v, want an error %v", mods, err, want)
		}
	}
}

func TestConformanceLengthsAndOverrides(t *testing.T) {
	games := gamesPerConfig(t)
	for _, o := range []rules.Options{
		{Players: 3, Length: rules.Short, Seed: 7},
		{Players: 5, Length: rules.Extended, Seed: 8},
		{Players: 4, ContainersPerColour: 5, Warehouses: 8, FactoriesPerColour: 2, TurnLimit: 40, Seed: 9},
	} {
		t.Run(fmt.Sprintf("%dp-%s-%d", o.Players, o.Length, o.ContainersPerColour), func(t *testing.T) {
			t.Parallel()
			Run(t, o, games)
		})
	}
}
