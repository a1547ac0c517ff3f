package conformance

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// gamesPerConfig is 2 by default; CONTAINER_CONFORMANCE_GAMES=N runs N games per
// configuration (thousands for a soak run).
func gamesPerConfig(t *testing.T) int {
	if v := os.Getenv("CONTAINER_CONFORMANCE_GAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("CONTAINER_CONFORMANCE_GAMES=%q is not a positive number", v)
		}
		return n
	}
	if testing.Short() {
		return 1
	}
	return 2
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
					Run(t, o, games)
				})
			}
		}
	}
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
