package rules_test

import (
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// A game is options + seed + moves: set it up, list the first decision's moves in notation,
// apply one by its text.
func Example() {
	g, err := rules.NewGame(rules.Options{Players: 3, Seed: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := g.NewInitialState()
	d := s.Decision()
	fmt.Println("phase", d.Phase, "decider", d.Decider)
	var names []string
	for _, m := range s.LegalMoves(nil) {
		names = append(names, m.String())
	}
	fmt.Println(strings.Join(names, " "))
	m, _ := s.ParseMove("build:warehouse")
	if err := s.ApplyMoveChecked(m); err != nil {
		fmt.Println(err)
	}
	fmt.Println(s.Players[d.Decider].Warehouses, s.Players[d.Decider].Cash)
	fmt.Println(s.ApplyMoveChecked(rules.Move{Kind: rules.Yes}))
	// Output:
	// phase turn decider 1
	// end loan build:factory:white build:factory:green build:factory:red build:factory:yellow build:warehouse produce buy-factory:p3 buy-factory:p1 reprice:factory sail:bank sail:harbor:p3 sail:harbor:p1 bank:start:container-lot:1 bank:start:container-lot:2 bank:start:cash-lot:1 bank:start:cash-lot:2 bank:start:cash-lot:3
	// 2 16
	// rules: illegal action: move yes in phase turn of seat p2
}
