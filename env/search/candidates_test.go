package search

import (
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// The search considers every legal move except that a long run of amounts is thinned: $0-8
// over the lowest, every $4 up to $24 over it, every $10 beyond, and always the highest. The
// moves that are not amounts are all kept. Checked at every amount decision of played games
// against the rule computed here from the legal moves.
func TestCandidates_ThinAmountsExactlyAsDocumented(t *testing.T) {
	w := newTestWorker()
	w.cfg.AnyLoan = true // loans are another rule (loan_test.go); keep them all here
	long := 0
	for seed := uint64(1); seed <= 4; seed++ {
		decisionsOf(t, rules.Options{Players: 3 + int(seed)%3, Length: rules.Short}, seed, func(st *rules.State, legal []int) {
			var want, amounts []int
			for _, a := range legal {
				if a >= amountBase && a < amountBase+amount {
					amounts = append(amounts, a)
				}
			}
			for _, a := range legal {
				if len(amounts) == 0 || a < amountBase || a >= amountBase+amount {
					want = append(want, a)
					continue
				}
				off := a - amounts[0]
				if off <= 8 || off <= 24 && off%4 == 0 || off%10 == 0 || a == amounts[len(amounts)-1] {
					want = append(want, a)
				}
			}
			if len(amounts) > 30 {
				long++
			}
			if got := w.candidates(st); !slices.Equal(got, want) {
				t.Fatalf("seed %d step %d (%s, %d amounts from %d): candidates %v, want %v", seed, st.Steps, st.Phase(), len(amounts), amounts[0]-amountBase, got, want)
			}
		})
	}
	if long < 5 {
		t.Fatalf("only %d decisions with more than 30 amounts: the thinning is hardly exercised", long)
	}
}
