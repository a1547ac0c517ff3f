package search

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// The search's strength, measured fast: positions with one clearly best move that it must
// find at a small budget, and short seeded matches it must win by a wide margin. A search that
// backs up the wrong seat's outcome, explores badly or plays a less visited move fails them.

var updateBestMoves = flag.Bool("update-best-moves", false, "rewrite testdata/best-moves.json (slow: a minute)")

const bestMovesFile = "testdata/best-moves.json"

// bestMove is one position of testdata/best-moves.json: the deciding seat's clearly best move
// by the oracle (see TestBestMovesOracle).
type bestMove struct {
	Name     string          `json:"name"`
	Best     string          `json:"best"`
	Value    float64         `json:"value"`  // the oracle's mean outcome of Best for the decider
	Second   float64         `json:"second"` // the oracle's best mean outcome of any other move
	Moves    int             `json:"moves"`  // legal moves in the position
	Position json.RawMessage `json:"position"`
}

// oracleValues scores every legal move of st for its decider from what the decider knows: the
// mean outcome (the search's own 0..1 scale) of k games played on from the move by valuers at
// every seat, each from its own determinization of the decider's view (the same k
// determinizations for every move) and with its own seeds.
func oracleValues(t *testing.T, st *rules.State, k int) ([]int, []float64) {
	t.Helper()
	o := st.Game().Options()
	d := st.CurrentPlayer()
	legal := st.LegalActions(nil)
	vals := make([]float64, len(legal))
	w := &worker{}
	var out [rules.MaxPlayers]float64
	var buf []int
	var view rules.State
	st.Redact(d, &view)
	g := st.Clone()
	for i, a := range legal {
		for r := 0; r < k; r++ {
			Determinize(&view, d, rand.New(rand.NewPCG(uint64(r), 99)), g)
			g.Apply(a)
			bs := make([]bots.Bot, o.Players)
			for s := range bs {
				var err error
				if bs[s], err = bots.New("valuer", o, uint64(1000*r+s)); err != nil {
					t.Fatal(err)
				}
			}
			for !g.IsTerminal() {
				buf = g.LegalActions(buf)
				g.Apply(bs[g.CurrentPlayer()].Act(g, buf))
			}
			w.score(g, &out)
			vals[i] += out[d] / float64(k)
		}
	}
	return legal, vals
}

// TestBestMovesOracle regenerates testdata/best-moves.json with -update-best-moves: from
// seeded 3-player short games of valuers, the decisions of the last 40 steps whose best move,
// by the oracle, beats every other move by at least 0.25 (a quarter of
// the whole outcome scale: a win against a loss is 0.5 or more) and that a search of 2,000
// simulations plays too; at most two positions a game and three with the same best move.
func TestBestMovesOracle(t *testing.T) {
	if !*updateBestMoves {
		t.Skip("only with -update-best-moves")
	}
	o := rules.Options{Players: 3, Length: rules.Short}
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	var found []bestMove
	same := map[string]int{} // positions kept per best move: at most 3 of each
	for seed := uint64(1); seed <= 100 && len(found) < 14; seed++ {
		st := g.NewInitialStateSeed(seed)
		bs := make([]bots.Bot, o.Players)
		for s := range bs {
			bs[s], _ = bots.New("valuer", o, seed*7+uint64(s))
		}
		var hist []*rules.State
		var legal []int
		for !st.IsTerminal() {
			legal = st.LegalActions(legal)
			if len(legal) > 1 {
				hist = append(hist, st.Clone())
			}
			st.Apply(bs[st.CurrentPlayer()].Act(st, legal))
		}
		perGame := 0
		for i := max(0, len(hist)-40); i < len(hist) && perGame < 2; i++ {
			p := hist[i]
			ids, vals := oracleValues(t, p, 48)
			order := make([]int, len(ids))
			for j := range order {
				order[j] = j
			}
			slices.SortFunc(order, func(a, b int) int {
				switch {
				case vals[a] > vals[b]:
					return -1
				case vals[a] < vals[b]:
					return 1
				}
				return 0
			})
			if vals[order[0]]-vals[order[1]] < 0.25 || same[p.ActionToMove(ids[order[0]]).String()] >= 3 {
				continue
			}
			// The search's tree models the other seats by their own search, not as valuers, so
			// a move the valuers' continuation favours is not always the search's: keep the
			// positions where a search of 2,000 simulations agrees with the oracle.
			var view rules.State
			p.Redact(p.CurrentPlayer(), &view)
			cfg := DefaultConfig()
			cfg.Sims, cfg.Workers = 200, 1
			big, err := New(cfg, o, 11)
			if err != nil {
				t.Fatal(err)
			}
			if a := big.Act(&view, p.LegalActions(nil)); a != ids[order[0]] {
				t.Logf("seed %d step %d: the oracle's %s, the big search's %s", seed, p.Steps, p.ActionToMove(ids[order[0]]), p.ActionToMove(a))
				continue
			}
			pos, err := p.MarshalPosition()
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, bestMove{
				Name: fmt.Sprintf("seed %d step %d %s", seed, p.Steps, p.Phase()), Best: p.ActionToMove(ids[order[0]]).String(),
				Value: vals[order[0]], Second: vals[order[1]], Moves: len(ids), Position: pos,
			})
			perGame++
			same[found[len(found)-1].Best]++
			t.Logf("%s: %s %.3f vs %.3f (%d moves)", found[len(found)-1].Name, found[len(found)-1].Best, vals[order[0]], vals[order[1]], len(ids))
		}
	}
	b, err := json.MarshalIndent(found, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(bestMovesFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bestMovesFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// On every position of testdata/best-moves.json the search, from the decider's redacted view
// and with a budget of 200 simulations, plays the clearly best move in all but at most two. The positions are late
// in 3-player short games (Call Bank, sail to the island, when to stop buying, which
// container to pick up), where the oracle's margin is at least a quarter of the outcome scale.
func TestIsmcts_FindsTheClearlyBestMove(t *testing.T) {
	b, err := os.ReadFile(bestMovesFile)
	if err != nil {
		t.Fatal(err)
	}
	var cases []bestMove
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 8 {
		t.Fatalf("%s holds %d positions, want at least 8", bestMovesFile, len(cases))
	}
	var missed []string
	for _, c := range cases {
		st, err := rules.LoadPosition(c.Position)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		seat := st.CurrentPlayer()
		var view rules.State
		st.Redact(seat, &view)
		cfg := DefaultConfig()
		cfg.Sims, cfg.Workers = 200, 1
		bot, err := New(cfg, st.Game().Options(), 3)
		if err != nil {
			t.Fatal(err)
		}
		got := st.ActionToMove(bot.Act(&view, st.LegalActions(nil))).String()
		if got != c.Best {
			missed = append(missed, fmt.Sprintf("%s: played %s, the clearly best move is %s (%.2f against at most %.2f)", c.Name, got, c.Best, c.Value, c.Second))
		}
	}
	// A sound search misses 0 to 2 of them, depending on its seed (measured with seeds 3-5 at
	// 200 and 300 simulations); one that reasons wrongly misses many.
	if len(missed) > 2 {
		t.Errorf("missed %d of %d clearly best moves:\n%s", len(missed), len(cases), strings.Join(missed, "\n"))
	}
}

// A small seeded match: ismcts at 40 simulations (valuer rollouts cut at 20 decisions) against
// two valuers, 12 short 3-player games with the seats rotated. A sound search wins 12 of 12
// (parity is 4); one that backs up another seat's outcome won 4 when this was written. The
// margin asked, 8, is generous for the sound search and far above what a broken one wins.
func TestIsmcts_BeatsTwoValuersInShortGames(t *testing.T) {
	o := rules.Options{Players: 3, Length: rules.Short}
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	const games = 12
	wins := 0
	var view rules.State
	legal := make([]int, 0, 256)
	for k := 0; k < games; k++ {
		st := g.NewInitialStateSeed(uint64(500 + k))
		me := k % o.Players
		bs := make([]bots.Bot, o.Players)
		for s := range bs {
			spec := "valuer"
			if s == me {
				spec = "ismcts:sims=40,depth=20,workers=1"
			}
			if bs[s], err = bots.New(spec, o, uint64(10*k+s)); err != nil {
				t.Fatal(err)
			}
		}
		for !st.IsTerminal() {
			d := st.CurrentPlayer()
			legal = st.LegalActions(legal)
			st.Redact(d, &view)
			st.Apply(bs[d].Act(&view, legal))
		}
		if st.Ended == rules.EndTurnLimit {
			t.Fatalf("game %d reached the turn limit", k)
		}
		if st.Scores()[me].Winner {
			wins++
		}
	}
	t.Logf("%d of %d", wins, games)
	if wins < 8 {
		t.Errorf("ismcts won %d of %d short games against two valuers; a sound search wins at least 8 (12 when this was written)", wins, games)
	}
}
