package rules

import (
	"fmt"
	"testing"
)

// Every seize location has its name, and the value just past the table (a corrupt file, a
// caller's arithmetic) is written "seize(?)" instead of panicking.
func TestSeizeLocationNamesEndAtTheLastLocation(t *testing.T) {
	want := []string{"island", "ship", "holding", "harbor", "factory", "nothing", "anywhere"}
	for l := SeizeLocation(0); l < NumSeizeLocations; l++ {
		if got := l.String(); got != want[l] {
			t.Errorf("SeizeLocation(%d) = %q, want %q", l, got, want[l])
		}
	}
	noPanic(t, "SeizeLocation.String past the table", func() {
		if got := NumSeizeLocations.String(); got != "seize(?)" {
			t.Errorf("NumSeizeLocations.String() = %q, want seize(?)", got)
		}
	})
}

// SetSealed writes the sealed values of every seat 0..MaxPlayers-1, the first and the last
// included (a search fills in each opponent's hidden bid).
func TestSetSealedWritesTheFirstAndTheLastSeat(t *testing.T) {
	for _, seat := range []int{0, MaxPlayers - 1} {
		t.Run(fmt.Sprint("seat ", seat), func(t *testing.T) {
			s := newTestState(t, Options{Players: 5, Modules: PlayerLoans})
			s.SetSealed(seat, Sealed{Bid: 7, Runoff: 8, Incentive: 9})
			d := s.Decision()
			if d.Delivery.Bids[seat] != 7 || d.Delivery.Runoff[seat] != 8 || d.Loan.Incentives[seat] != 9 {
				t.Errorf("seat %d: bids %v runoff %v incentives %v", seat, d.Delivery.Bids, d.Delivery.Runoff, d.Loan.Incentives)
			}
		})
	}
}
