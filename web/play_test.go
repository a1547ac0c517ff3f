package web

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// TestPlayWholeGameAgainstBots plays whole 3-, 4- and 5-player games through the HTTP API
// (the human picks random legal moves from the answers) and checks every answer for leaks of
// hidden information and for delivery auctions that name their cargo, then the final scores
// and the downloaded record.
func TestPlayWholeGameAgainstBots(t *testing.T) {
	asks, bids, ran := 0, 0, 0 // delivery questions and bid lines whose cargo words were checked
	for _, tc := range []struct {
		players int
		modules string
		bots    []string
	}{
		{3, "", []string{"valuer", "shipper"}},
		{4, "all", []string{"random"}},
		{5, "player-loans", []string{"manufacturer"}},
	} {
		t.Run(fmt.Sprintf("%dp-%s", tc.players, tc.modules), func(t *testing.T) {
			c := newTestServer(t, Config{})
			rng := rand.New(rand.NewPCG(uint64(tc.players), 9))
			var st GameState
			c.ok("POST", "/api/games", "", NewGameRequest{Players: tc.players, Seat: 1, Opponents: tc.bots, Modules: tc.modules,
				Length: "short", TurnLimit: 40, Seed: seedPtr(uint64(tc.players) + 3)}, &st)
			if st.Token == "" || len(st.Token) < 32 {
				t.Fatalf("token %q is not 128 bits of hex", st.Token)
			}
			token := st.Token
			p := c.srv.games[st.ID]
			log := append([]LogLine{}, st.Log...)
			moves := 0
			for !st.Over {
				checkNoLeak(t, p, st)
				a, b := checkCargoWords(t, p, st)
				asks, bids = asks+a, bids+b
				if !st.YourMove {
					t.Fatalf("not over and not the human's move: %+v", st)
				}
				mv := chooseMove(rng, st)
				var next GameState
				c.ok("POST", "/api/games/"+st.ID+"/move", token, MoveRequest{Move: mv, Since: len(log)}, &next)
				if next.LogFrom != len(log) {
					t.Fatalf("log from %d, client has %d lines", next.LogFrom, len(log))
				}
				log = append(log, next.Log...)
				st = next
				moves++
				if moves > 20000 {
					t.Fatal("the game does not end")
				}
			}
			checkNoLeak(t, p, st)
			_, b := checkCargoWords(t, p, st)
			bids += b
			ran++
			if len(log) != st.LogLen {
				t.Fatalf("client log has %d lines, server %d", len(log), st.LogLen)
			}
			// The scores shown are those of the downloaded record's final position.
			code, rec := c.do("GET", "/api/games/"+st.ID+"/record", token, nil)
			if code != http.StatusOK {
				t.Fatalf("record: %d %s", code, rec)
			}
			_, final, err := rules.LoadRecord(rec)
			if err != nil {
				t.Fatal(err)
			}
			want := final.Scores()
			for i, s := range st.Scores {
				if s.Score != want[i] {
					t.Fatalf("seat %d: shown %+v, record scores %+v", i, s.Score, want[i])
				}
			}
			// Every revealed round shows up as a "sealed bids revealed" line after its bids.
			for i, l := range log {
				if strings.HasPrefix(l.Text, "sealed bids revealed") && i == 0 {
					t.Fatal("a reveal line before any bid")
				}
			}
			// Moves after the end are refused.
			c.wantStatus(http.StatusConflict, "POST", "/api/games/"+st.ID+"/move", token, MoveRequest{Move: "end"})
		})
	}
	if ran == 3 && (asks == 0 || bids == 0) { // every game played (not one picked with -run)
		t.Errorf("%d delivery questions and %d delivery bid lines: the cargo words went unchecked", asks, bids)
	}
}

// TestDefaultFallsBack checks "default" plays as the valuer, and says so, where the trained
// bot has no model (short games), as in container play.
func TestDefaultFallsBack(t *testing.T) {
	c := newTestServer(t, Config{})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Length: "short", Seed: seedPtr(1)}, &st)
	if !strings.HasPrefix(st.Names[1], "valuer (default has no model") {
		t.Fatalf("names %q", st.Names)
	}
}

// TestUndo checks undo takes back the human's last move within the turn and nothing else.
func TestUndo(t *testing.T) {
	c := newTestServer(t, Config{})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Seat: 0, Opponents: []string{"random"}, Seed: seedPtr(8)}, &st)
	for !st.YourMove || st.Phase != "turn" {
		c.ok("POST", "/api/games/"+st.ID+"/move", st.Token, MoveRequest{Move: st.Moves[0].Text}, &st)
	}
	tok := c.srv.games[st.ID].token
	before := st.SVG
	var after, undone GameState
	c.ok("POST", "/api/games/"+st.ID+"/move", tok, MoveRequest{Move: "produce"}, &after)
	if !after.CanUndo || after.SVG == before {
		t.Fatalf("after produce: can undo %v", after.CanUndo)
	}
	c.ok("POST", "/api/games/"+st.ID+"/undo", tok, nil, &undone)
	if undone.SVG != before || undone.Steps != st.Steps {
		t.Fatalf("undo did not restore the position (steps %d, want %d)", undone.Steps, st.Steps)
	}
	// Ending the turn hands over to the bots: nothing of the human's is left to undo.
	c.ok("POST", "/api/games/"+st.ID+"/move", tok, MoveRequest{Move: "end"}, &after)
	if after.CanUndo {
		t.Fatal("undo offered after the bots moved")
	}
}
