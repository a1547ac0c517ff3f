package encoding_test

import (
	"fmt"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// Encode the first decider's view of a new game and read two named features.
func ExampleEncoder_Observe() {
	g, err := rules.NewGame(rules.Options{Players: 4})
	if err != nil {
		panic(err)
	}
	s := g.NewInitialStateSeed(1)
	enc := encoding.NewEncoder(g)
	obs := make([]float32, enc.Size())
	if err := enc.Observe(s, s.CurrentPlayer(), obs); err != nil {
		panic(err)
	}
	cash, _ := enc.Spec().Feature("p0.cash")
	present, _ := enc.Spec().Feature("p4.present")
	fmt.Println(enc.Spec().Version, obs[cash.Offset]*cash.Scale, obs[present.Offset])
	fmt.Println(encoding.ActionName(0), encoding.ActionName(enc.NumActions()-1))
	// Output:
	// obs-v2 20 0
	// end +$100
}
