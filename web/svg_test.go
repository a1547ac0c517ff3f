package web

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

var update = flag.Bool("update", false, "rewrite the golden board files in testdata/")

// goldenPosition plays steps random moves from seed and returns the position.
func goldenPosition(t *testing.T, o rules.Options, seed uint64, steps int) *rules.State {
	t.Helper()
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < steps && !s.IsTerminal(); i++ {
		l := s.LegalMoves(nil)
		s.ApplyMove(l[rng.IntN(len(l))])
	}
	return s
}

// TestGoldenBoards compares drawn boards with testdata/*.svg (regenerate with
// go test ./web -run GoldenBoards -update and look at the files in a browser): the decider's
// view with its move targets, for 3 players Classic, 4 players base and 5 players with every
// module.
func TestGoldenBoards(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		variant rules.Variant
		modules rules.Modules
		steps   int
	}{
		{"3p-classic", 3, rules.Classic, 0, 60},
		{"4p-base", 4, rules.Base, 0, 150},
		{"5p-all-modules", 5, rules.Base, rules.AllModules, 220},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := rules.DefaultOptions()
			o.Players, o.Variant, o.Modules = tc.players, tc.variant, tc.modules
			s := goldenPosition(t, o, 7, tc.steps)
			d := s.CurrentPlayer()
			v := s.Clone()
			s.Redact(d, v)
			got := BoardSVG(v, d, nil, v.LegalMoves(nil))
			if tc.variant == rules.Classic && strings.Contains(got, "Off-Shore Bank") {
				t.Error("a Classic board draws the Off-Shore Bank")
			}
			if c := strings.Count(got, `data-seat="p`); c != tc.players {
				t.Errorf("%d seat panels, want %d", c, tc.players)
			}
			path := filepath.Join("testdata", "board-"+tc.name+".svg")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./web -run GoldenBoards -update)", err)
			}
			if got+"\n" != string(want) {
				t.Errorf("board differs from %s (if the change is intended: go test ./web -run GoldenBoards -update)", path)
			}
		})
	}
}
