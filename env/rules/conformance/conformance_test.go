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

func TestConformance(t *testing.T) {
	games := gamesPerConfig(t)
	for _, players := range []int{3, 4, 5} {
		for _, v := range []rules.Variant{rules.Base, rules.Classic} {
			o := rules.Options{Players: players, Variant: v, Seed: uint64(100 * players)}
			t.Run(fmt.Sprintf("%dp-%s", players, v), func(t *testing.T) {
				t.Parallel()
				Run(t, o, games)
			})
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

func TestConformanceModules(t *testing.T) {
	games := gamesPerConfig(t)
	for _, o := range []rules.Options{
		{Players: 5, Modules: rules.Luxury, Seed: 11},
		{Players: 5, Modules: rules.Trucks, Seed: 12},
		{Players: 4, Modules: rules.PlayerLoans, Seed: 13},
		{Players: 3, Modules: rules.AllModules, Seed: 14},
		{Players: 4, Variant: rules.Classic, Modules: rules.PlayerLoans | rules.Luxury, Seed: 15},
	} {
		t.Run(fmt.Sprintf("%dp-%s-%s", o.Players, o.Variant, o.Modules), func(t *testing.T) {
			t.Parallel()
			Run(t, o, games)
		})
	}
}
