package training

import (
	"testing"

	"github.com/container-rl/container/env/rules"
)

// TestSamplePositionsAreSpreadThroughGames: the positions `container measure` times the
// network on are taken up to 300 random moves into random games, not only first decisions:
// of 24 positions most are past the start, each comes with its legal actions, and the same
// seed gives the same positions.
func TestSamplePositionsAreSpreadThroughGames(t *testing.T) {
	g, err := rules.NewGame(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	const n = 24
	views, legal := samplePositions(g, n, 5)
	again, _ := samplePositions(g, n, 5)
	started := 0
	for i, v := range views {
		if len(legal[i]) == 0 {
			t.Fatalf("position %d has no legal actions", i)
		}
		if v.Steps > 0 {
			started++
		}
		if v.Hash() != again[i].Hash() {
			t.Errorf("position %d differs between two calls with the same seed", i)
		}
	}
	if started < n/2 {
		t.Errorf("%d of %d positions are past the first decision, want most", started, n)
	}
}
