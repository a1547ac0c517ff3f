package web

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
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
			checkGolden(t, "board-"+tc.name+".svg", got)
		})
	}
}

// checkGolden compares a drawn board with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
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
		t.Fatalf("%v (run go test ./web -run Golden -update)", err)
	}
	if got+"\n" != string(want) {
		t.Errorf("board differs from %s (if the change is intended: go test ./web -run Golden -update)", path)
	}
}

// TestGoldenBoardWithChangesNamesAndOverflow draws a seat's view with what the last move
// changed outlined, names long enough to be cut (and a seat without one), more containers on
// an island than its area holds (the rest as "+n") and more ships at the island than a row holds.
func TestGoldenBoardWithChangesNamesAndOverflow(t *testing.T) {
	o := rules.DefaultOptions()
	o.Players = 4
	prev := goldenPosition(t, o, 11, 120)
	s := prev.Clone()
	s.ApplyMove(s.LegalMoves(nil)[0])
	for c := rules.Colour(0); c < rules.NumNormalColours; c++ {
		prev.Players[1].Island[c] += 30
		s.Players[1].Island[c] += 30
	}
	for i := range s.Players { // more ships at the island than one row holds
		s.Players[i].ShipAt = rules.ShipPos{Where: rules.AtIsland}
	}
	d := s.CurrentPlayer()
	v, pv := s.Clone(), prev.Clone()
	s.Redact(d, v)
	prev.Redact(d, pv)
	names := []string{"a very long name for a bot, cut to fit its panel · with a tail", "", "valuer", "ismcts:ms=200,rollout=valuer,workers=2"}
	got := BoardSVGChanges(v, d, names, v.LegalMoves(nil), pv)
	if !strings.Contains(got, "…") || !strings.Contains(got, ">+") {
		t.Errorf("no cut name or no +n overflow drawn")
	}
	checkGolden(t, "board-4p-changes-names-overflow.svg", got)
}

func TestFitCutsAtTheEstimatedWidth(t *testing.T) {
	ten := "abcdefghij"
	for _, tc := range []struct {
		s        string
		px, size int
		bold     bool
		want     string
	}{
		{ten, 57, 10, false, ten},                    // 10 characters of 5.6 px fit 57 px
		{ten + "k", 57, 10, false, "abcdefghi…"},     // one more: cut to 9 and the ellipsis
		{ten, 62, 10, true, ten},                     // bold characters are 6.2 px
		{ten + "k", 61, 10, true, "abcdefgh…"},       // 61 px hold 9 bold: cut to 8
		{"ab, · cdef", 39, 10, false, "ab…"},         // separators before the cut are dropped
		{ten, 11, 10, false, ten},                    // room for fewer than 2: left whole
		{"abc", 12, 10, false, "a…"},                 // room for exactly 2: one and the ellipsis
		{"ééééééééééé", 57, 10, false, "ééééééééé…"}, // counted in characters, not bytes
	} {
		if got := fit(tc.s, tc.px, tc.size, tc.bold); got != tc.want {
			t.Errorf("fit(%q, %d, %d, %v) = %q, want %q", tc.s, tc.px, tc.size, tc.bold, got, tc.want)
		}
	}
}

// TestGoldenBoardsThroughAGame draws every position of two seeded games with every module (one
// between the scripted bots, which deliver and bid, one of random moves, which reaches odd
// positions), for the decider (with its move targets) and for the whole game, each with what
// the last move changed outlined, and compares SHA-256 digests of the drawings (one per 25
// moves) with testdata/board-game-*.sha256: the auctions, delivery bids, ships, loans and
// change marks of whole games, where the SVG files above show single positions. After an
// intended change, rewrite them with go test ./web -run GoldenBoardsThroughAGame -args -update
// (and look at a few boards).
func TestGoldenBoardsThroughAGame(t *testing.T) {
	for _, name := range []string{"bots", "random"} {
		t.Run(name, func(t *testing.T) { checkGoldenGame(t, name) })
	}
}

func checkGoldenGame(t *testing.T, kind string) {
	const every = 25
	o := rules.DefaultOptions()
	o.Players, o.Modules, o.Length = 5, rules.AllModules, rules.Short
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"valuer", "", "a long name that the panel has to cut short", "ismcts:ms=200", "p5"}
	s := g.NewInitialStateSeed(3)
	rng := rand.New(rand.NewPCG(3, 3))
	players := make([]bots.Bot, o.Players)
	for i := range players {
		if players[i], err = bots.New([]string{"valuer", "shipper", "manufacturer"}[i%3], o, uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	h := sha256.New()
	first := 1
	view := s.Clone()
	var legalIDs []int
	for step := 1; !s.IsTerminal(); step++ {
		prev := s.Clone()
		if kind == "bots" {
			d := s.CurrentPlayer()
			s.Redact(d, view)
			legalIDs = s.LegalActions(legalIDs)
			s.Apply(players[d].Act(view, legalIDs))
		} else {
			l := s.LegalMoves(nil)
			s.ApplyMove(l[rng.IntN(len(l))])
		}
		if !s.IsTerminal() {
			for _, viewer := range []int{-1, s.CurrentPlayer()} {
				v, pv := s.Clone(), prev.Clone()
				var legal []rules.Move
				if viewer >= 0 {
					s.Redact(viewer, v)
					prev.Redact(viewer, pv)
					legal = v.LegalMoves(nil)
				}
				h.Write([]byte(BoardSVGChanges(v, viewer, names, legal, pv)))
			}
		}
		if step%every == 0 || s.IsTerminal() {
			lines = append(lines, fmt.Sprintf("moves %d-%d %x", first, step, h.Sum(nil)[:12]))
			h.Reset()
			first = step + 1
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "board-game-5p-all-modules-"+kind+".sha256")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./web -run GoldenBoardsThroughAGame -args -update)", err)
	}
	wl := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	for i, l := range lines {
		if i >= len(wl) || wl[i] != l {
			t.Fatalf("drawings of %q differ from testdata's %q", l, wl[min(i, len(wl)-1)])
		}
	}
	if len(lines) != len(wl) {
		t.Fatalf("%d digest lines, testdata has %d", len(lines), len(wl))
	}
}

// TestBoardSVGClickTargets checks the board offers the legal moves it can draw: every
// data-move on the board is a legal move, and the opening's sail and Bank moves are on it.
func TestBoardSVGClickTargets(t *testing.T) {
	for _, players := range []int{3, 4, 5} {
		o := rules.DefaultOptions()
		o.Players = players
		o.Modules = rules.AllModules
		g, _ := rules.NewGame(o)
		s := g.NewInitialStateSeed(1)
		rng := rand.New(rand.NewPCG(1, uint64(players)))
		seen := map[string]bool{}
		for step := 0; step < 400 && !s.IsTerminal(); step++ {
			d := s.CurrentPlayer()
			v := s.Clone()
			s.Redact(d, v)
			legal := v.LegalMoves(nil)
			svg := BoardSVG(v, d, nil, legal)
			legalSet := map[string]bool{}
			for _, m := range legal {
				legalSet[m.String()] = true
			}
			for _, part := range strings.Split(svg, `data-move="`)[1:] {
				mv := part[:strings.IndexByte(part, '"')]
				if !legalSet[strings.ReplaceAll(mv, "&#34;", `"`)] {
					t.Fatalf("%dp step %d: board offers %q, which is not legal", players, step, mv)
				}
				seen[strings.SplitN(mv, ":", 2)[0]] = true
			}
			s.ApplyMove(legal[rng.IntN(len(legal))])
		}
		for _, k := range []string{"sail", "bank", "pick", "place", "build", "colour"} {
			if !seen[k] {
				t.Errorf("%dp: no %s move was ever offered on the board", players, k)
			}
		}
	}
}
