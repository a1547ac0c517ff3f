package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// client drives a Server through its http.Handler, as a browser would.
type client struct {
	t   *testing.T
	srv *Server
}

func newTestServer(t *testing.T, cfg Config) *client {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &client{t: t, srv: s}
}

// do sends a request and returns the status and body.
func (c *client) do(method, path, token string, body any) (int, []byte) {
	c.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		r = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, path, r)
	req.Host = "127.0.0.1:8080" // the served address (httptest's is example.com)
	if body != nil || method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set(TokenHeader, token)
	}
	w := httptest.NewRecorder()
	c.srv.ServeHTTP(w, req)
	res := w.Result()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 500 {
		c.t.Fatalf("%s %s: status %d (never 5xx): %s", method, path, res.StatusCode, out)
	}
	return res.StatusCode, out
}

// ok sends a request that must succeed and decodes its answer into v.
func (c *client) ok(method, path, token string, body, v any) {
	c.t.Helper()
	code, out := c.do(method, path, token, body)
	if code != http.StatusOK {
		c.t.Fatalf("%s %s: status %d: %s", method, path, code, out)
	}
	if v != nil {
		if err := json.Unmarshal(out, v); err != nil {
			c.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// wantStatus checks a request fails with status code and a one-line error message.
func (c *client) wantStatus(code int, method, path, token string, body any) string {
	c.t.Helper()
	got, out := c.do(method, path, token, body)
	if got != code {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, got, code, out)
	}
	var e struct{ Error string }
	if err := json.Unmarshal(out, &e); err != nil || e.Error == "" || strings.Contains(e.Error, "\n") {
		c.t.Fatalf("%s %s: want a one-line JSON error, got %q", method, path, out)
	}
	return e.Error
}

func seedPtr(v uint64) *uint64 { return &v }

// chooseMove picks a legal move for the human from a state answer.
func chooseMove(rng *rand.Rand, st GameState) string {
	n := len(st.Moves)
	if st.Amount != nil {
		n++
	}
	k := rng.IntN(n)
	if k < len(st.Moves) {
		return st.Moves[k].Text
	}
	a := st.Amount
	return fmt.Sprintf("$%d", a.Min+rng.IntN(min(a.Max-a.Min, 4)+1))
}

// perturbHidden changes what seat may not see: the other seats' scoring cards and their
// unrevealed delivery bids, runoff additions and incentive bids.
func perturbHidden(s *rules.State, seat int) {
	n := s.Game().Options().Players
	d := s.Decision()
	for i := 0; i < n; i++ {
		if i == seat {
			continue
		}
		s.Players[i].Card = uint8((int(s.Players[i].Card) + 1) % rules.NumScoringCards)
		v := rules.Sealed{Bid: d.Delivery.Bids[i], Runoff: d.Delivery.Runoff[i], Incentive: d.Loan.Incentives[i]}
		if !d.Delivery.Revealed {
			v.Bid += 7
		}
		if !d.Delivery.RunoffRevealed {
			v.Runoff += 5
		}
		if !d.Loan.IncentiveRevealed {
			v.Incentive += 3
		}
		s.SetSealed(i, v)
	}
}

// checkNoLeak checks one answer of a play session against the session: changing what the
// human may not see changes nothing in the answer, only the human's own scoring card is
// drawn, and other seats' sealed bids read "sealed bid" in the log until revealed.
func checkNoLeak(t *testing.T, p *playSession, st GameState) {
	t.Helper()
	if !p.g.State().IsTerminal() {
		saved := p.g.State().Clone()
		perturbHidden(p.g.State(), p.g.Human())
		again := p.stateFor(st.LogFrom)
		p.g.State().CopyFrom(saved)
		st2 := st
		st2.Token = ""
		a, _ := json.Marshal(st2)
		b, _ := json.Marshal(again)
		if !bytes.Equal(a, b) {
			t.Fatalf("step %d: the answer changes when hidden information changes:\n%s\n%s", st.Steps, a, b)
		}
		// The legal moves offered (from the human's view) are the rules' legal moves.
		if st.YourMove {
			v := p.g.State().Clone()
			p.g.State().Redact(p.g.Human(), v)
			a, b := fmt.Sprint(v.LegalMoves(nil)), fmt.Sprint(p.g.State().LegalMoves(nil))
			if a != b {
				t.Fatalf("step %d: legal moves of the view %s differ from the position's %s", st.Steps, a, b)
			}
		}
		if c := strings.Count(st.SVG, "Card "); c != 1 {
			t.Fatalf("step %d: %d scoring cards drawn, want only the human's", st.Steps, c)
		}
	}
	for _, l := range st.Log {
		if l.Step >= 0 && l.Seat != p.g.Human() && play.SealedPhase(phaseOf(l.Phase)) && (strings.HasPrefix(l.Text, "$") || strings.Contains(l.Words, "$")) {
			t.Fatalf("log line %+v shows another seat's sealed bid", l)
		}
	}
}

func phaseOf(name string) rules.Phase { return rules.Phase(phaseIndex(name)) }

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

// TestSessionToken checks a game is driven only with its own token.
func TestSessionToken(t *testing.T) {
	c := newTestServer(t, Config{})
	var a, b GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}, Seed: seedPtr(1)}, &a)
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}, Seed: seedPtr(1)}, &b)
	if a.Token == b.Token || a.ID == b.ID {
		t.Fatal("two games share an id or a token")
	}
	c.wantStatus(http.StatusUnauthorized, "GET", "/api/games/"+a.ID, "", nil)
	c.wantStatus(http.StatusForbidden, "GET", "/api/games/"+a.ID, b.Token, nil)
	c.wantStatus(http.StatusForbidden, "POST", "/api/games/"+a.ID+"/move", b.Token, MoveRequest{Move: "end"})
	c.wantStatus(http.StatusNotFound, "GET", "/api/games/nosuchgame", a.Token, nil)
	c.ok("GET", "/api/games/"+a.ID, a.Token, nil, nil)
	c.ok("DELETE", "/api/games/"+a.ID, a.Token, nil, nil)
	c.wantStatus(http.StatusNotFound, "GET", "/api/games/"+a.ID, a.Token, nil)
}

// TestBadRequests checks bad input gets a 4xx with a one-line message (the client fails the
// test on any 5xx).
func TestBadRequests(t *testing.T) {
	c := newTestServer(t, Config{})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}, Seed: seedPtr(2)}, &st)
	tok := st.Token
	huge := `{"players": 3, "modules": "` + strings.Repeat("x", 100<<10) + `"}`
	cases := []struct {
		code         int
		method, path string
		token        string
		body         any
		want         string
	}{
		{413, "POST", "/api/games", "", huge, "larger than"},
		{400, "POST", "/api/games", "", `{"players": 3`, "truncated JSON"},
		{400, "POST", "/api/games", "", `{"players": 3, "colour": "red"}`, "unknown key"},
		{400, "POST", "/api/games", "", `{"players": 3} {"players": 4}`, "after the JSON"},
		{400, "POST", "/api/games", "", ``, "empty"},
		{400, "POST", "/api/games", "", NewGameRequest{Players: 9}, "players"},
		{400, "POST", "/api/games", "", NewGameRequest{Players: 3, Seat: 3}, "seat"},
		{400, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"nobody"}}, "unknown bot"},
		{400, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"a", "b", "c"}}, "opponents"},
		{404, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"../../etc/passwd.bot"}}, "data directory"},
		{400, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random@x"}}, "temperature"},
		{400, "POST", "/api/games", "", NewGameRequest{Players: 3, Variant: "modern"}, "variant"},
		{400, "POST", "/api/games", "", NewGameRequest{Players: 3, TurnLimit: -1}, "turn limit"},
		{400, "POST", "/api/games/" + st.ID + "/move", tok, MoveRequest{Move: "fly:moon"}, "notation"},
		{400, "POST", "/api/games/" + st.ID + "/move", tok, MoveRequest{Move: "$5"}, "not a legal move"},
		{409, "POST", "/api/games/" + st.ID + "/undo", tok, nil, "nothing to undo"},
		{409, "GET", "/api/games/" + st.ID + "/record", tok, nil, "once the game is over"},
		{400, "POST", "/api/games/" + st.ID + "/ask", tok, GameAskRequest{Bot: "nobody"}, "unknown bot"},
		{404, "GET", "/api/nothing", "", nil, "no API endpoint"},
		{405, "POST", "/index.html", "", nil, "not allowed"},
		{404, "GET", "/api/replays/abc/step/1", "x", nil, "no replay"},
		{400, "POST", "/api/replays", "", OpenReplayRequest{}, "exactly one"},
		{400, "POST", "/api/replays", "", `{"record": {"format": "container-game/1", "options": {"players": 2}}}`, "uploaded record"},
		{400, "POST", "/api/replays", "", `{"record": "CTNRgarbage"}`, "uploaded record"},
		{404, "POST", "/api/replays", "", OpenReplayRequest{Path: "x.json"}, "--data"},
	}
	for _, tc := range cases {
		code, out := c.do(tc.method, tc.path, tc.token, tc.body)
		if code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s %s %v: status %d %s; want %d and %q", tc.method, tc.path, tc.body, code, out, tc.code, tc.want)
		}
	}
	req := httptest.NewRequest("POST", "/api/games", strings.NewReader(`players=3`))
	req.Host = "localhost"
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	c.srv.ServeHTTP(w, req)
	if w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("form body: status %d, want 415", w.Code)
	}
}

// writeRecord plays a seeded game between bots and writes its JSON record to path.
func writeRecord(t testing.TB, path string, players int, seed uint64) *rules.Record {
	t.Helper()
	o := rules.DefaultOptions()
	o.Players = players
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(seed)
	view := g.NewInitialStateSeed(seed)
	bs := make([]bots.Bot, players)
	for i := range bs {
		if bs[i], err = bots.New([]string{"valuer", "shipper", "manufacturer"}[i%3], o, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	var legal []int
	for !s.IsTerminal() {
		d := s.CurrentPlayer()
		s.Redact(d, view)
		legal = s.LegalActions(legal)
		s.Apply(bs[d].Act(view, legal))
	}
	rec := rules.NewRecord(s, seed)
	b, err := rec.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	if path != "" {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return rec
}

// TestDataPathsConfined checks paths are confined to --data: "..", absolute paths and
// symbolic links leading out are refused; files inside open.
func TestDataPathsConfined(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	outside := filepath.Join(root, "outside")
	for _, d := range []string{data, outside, filepath.Join(data, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeRecord(t, filepath.Join(data, "sub", "game.json"), 3, 4)
	writeRecord(t, filepath.Join(outside, "secret.json"), 3, 5)
	if err := os.WriteFile(filepath.Join(outside, "x.bot"), []byte("not a bot"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(data, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(data, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(data, "sub", "game.json"), filepath.Join(data, "inside-link.json")); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	for _, tc := range []struct {
		path string
		code int
	}{
		{"../outside/secret.json", 400},
		{"sub/../../outside/secret.json", 400},
		{"..", 400},
		{filepath.Join(outside, "secret.json"), 400},
		{"/etc/passwd", 400},
		{"link.json", 403},
		{"linkdir/secret.json", 403},
		{"missing.json", 404},
		{"sub", 400},
	} {
		msg := c.wantStatus(tc.code, "POST", "/api/replays", "", OpenReplayRequest{Path: tc.path})
		if strings.Contains(msg, "moves") {
			t.Errorf("%s: the answer %q reads like the file was opened", tc.path, msg)
		}
	}
	var info ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "sub/game.json"}, &info)
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "inside-link.json"}, &info)
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "sub/./game.json"}, &info)
	var files FileList
	c.ok("GET", "/api/files", "", nil, &files)
	if strings.Join(files.Records, ",") != "inside-link.json,sub/game.json" && strings.Join(files.Records, ",") != "sub/game.json" {
		t.Errorf("listed records %v", files.Records)
	}
	for _, r := range files.Records {
		if strings.Contains(r, "secret") {
			t.Errorf("listing shows %s from outside the data directory", r)
		}
	}
	// Bot files too.
	c.wantStatus(http.StatusForbidden, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"linkdir/x.bot"}})
	c.wantStatus(http.StatusBadRequest, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"../outside/x.bot"}})
}

// TestSessionLimitAndExpiry checks the session cap (429) and that idle sessions expire.
func TestSessionLimitAndExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newTestServer(t, Config{MaxSessions: 2, Expiry: time.Hour, Now: func() time.Time { return now }})
	var a, b GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}}, &a)
	now = now.Add(40 * time.Minute)
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}}, &b)
	c.wantStatus(http.StatusTooManyRequests, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}})
	c.wantStatus(http.StatusTooManyRequests, "POST", "/api/replays", "", OpenReplayRequest{Path: "x"})
	now = now.Add(30 * time.Minute) // a idle 70 min, b 30 min
	c.srv.expire()
	c.wantStatus(http.StatusNotFound, "GET", "/api/games/"+a.ID, a.Token, nil)
	c.ok("GET", "/api/games/"+b.ID, b.Token, nil, nil) // touching b keeps it
	now = now.Add(59 * time.Minute)
	c.srv.expire()
	c.ok("GET", "/api/games/"+b.ID, b.Token, nil, nil)
	if g, r := c.srv.Sessions(); g != 1 || r != 0 {
		t.Fatalf("%d games, %d replays left; want 1, 0", g, r)
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

// TestReplayRecord opens a record, checks every step's board against the position replayed
// independently, and the viewer rules (a seat's view; the whole game for finished games).
func TestReplayRecord(t *testing.T) {
	data := t.TempDir()
	rec := writeRecord(t, filepath.Join(data, "g.json"), 4, 6)
	// A cut-short record: the first 50 moves.
	short := *rec
	short.Moves = rec.Moves[:50]
	st, err := short.Replay(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rules.NewRecord(st, rec.Seed).MarshalRecord()
	if err := os.WriteFile(filepath.Join(data, "short.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "g.ctnr"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	var info ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.json"}, &info)
	if !info.Finished || info.Moves != len(rec.Moves) || len(info.Log) != len(rec.Moves) || info.TurnStarts[0] != 0 {
		t.Fatalf("info: finished %v, %d moves, %d log lines", info.Finished, info.Moves, len(info.Log))
	}
	var binInfo ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.ctnr"}, &binInfo)
	if binInfo.Moves != info.Moves {
		t.Fatal("binary record differs")
	}
	// Boards: replayed independently, step by step, for the whole game and for seat 2.
	i := 0
	_, err = rec.Replay(func(n int, s *rules.State, m rules.Move) {
		if n%7 != 0 {
			return
		}
		var step ReplayStep
		c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d?viewer=-1", info.ID, n), info.Token, nil, &step)
		if step.SVG != BoardSVG(s, -1, info.Names, nil) {
			t.Fatalf("step %d: board differs from the replayed position", n)
		}
		v := s.Clone()
		s.Redact(2, v)
		c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d?viewer=2", info.ID, n), info.Token, nil, &step)
		if step.SVG != BoardSVG(v, 2, info.Names, nil) {
			t.Fatalf("step %d: seat view differs", n)
		}
		i++
	})
	if err != nil || i == 0 {
		t.Fatal(err)
	}
	var last ReplayStep
	c.ok("GET", fmt.Sprintf("/api/replays/%s/step/%d", info.ID, info.Moves), info.Token, nil, &last)
	if last.Phase != "game over" || len(info.Scores) != 4 {
		t.Fatalf("last step: %s, %d scores", last.Phase, len(info.Scores))
	}
	c.wantStatus(400, "GET", fmt.Sprintf("/api/replays/%s/step/%d", info.ID, info.Moves+1), info.Token, nil)
	c.wantStatus(400, "GET", fmt.Sprintf("/api/replays/%s/step/x", info.ID), info.Token, nil)
	c.wantStatus(400, "GET", fmt.Sprintf("/api/replays/%s/step/1?viewer=7", info.ID), info.Token, nil)
	c.wantStatus(401, "GET", fmt.Sprintf("/api/replays/%s/step/1", info.ID), "", nil)
	// An unfinished record: seat views only.
	var sh ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "short.json"}, &sh)
	if sh.Finished || sh.Moves != 50 {
		t.Fatalf("short record: finished %v, %d moves", sh.Finished, sh.Moves)
	}
	c.wantStatus(403, "GET", fmt.Sprintf("/api/replays/%s/step/3?viewer=-1", sh.ID), sh.Token, nil)
	c.ok("GET", fmt.Sprintf("/api/replays/%s/step/3", sh.ID), sh.Token, nil, &last)
	if last.Viewer != 0 {
		t.Fatalf("default viewer of an unfinished record is %d, want seat 0", last.Viewer)
	}
	// Upload.
	raw, _ := os.ReadFile(filepath.Join(data, "g.json"))
	var up ReplayInfo
	c.ok("POST", "/api/replays", "", fmt.Sprintf(`{"record": %s}`, raw), &up)
	if up.Moves != info.Moves {
		t.Fatal("uploaded record differs")
	}
	// Ask: the whole game of a finished record, or the deciding seat only.
	var a AskAnswer
	c.ok("POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: 10, Viewer: -1}, &a)
	if a.Move == "" || a.Seat != info.Log[10].Seat {
		t.Fatalf("ask: %+v", a)
	}
	other := (info.Log[10].Seat + 1) % 4
	c.wantStatus(403, "POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: 10, Viewer: other})
	c.ok("POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: 10, Viewer: info.Log[10].Seat}, &a)
	c.wantStatus(409, "POST", "/api/replays/"+info.ID+"/ask", info.Token, AskRequest{Bot: "valuer", Step: info.Moves, Viewer: -1})
}

// TestReplayLogReveal checks a sealed bid's reveal step: after the step it was made at and no
// later than the first decision of another phase.
func TestReplayLogReveal(t *testing.T) {
	rec := writeRecord(t, "", 3, 12)
	x, err := newReplay(rec, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	bids := 0
	for i, l := range x.info.Log {
		if !play.SealedPhase(phaseOf(l.Phase)) {
			if l.Reveal != i+1 {
				t.Fatalf("move %d (%s) is revealed at %d", i, l.Phase, l.Reveal)
			}
			continue
		}
		bids++
		if l.Reveal <= i {
			t.Fatalf("bid %d revealed at %d", i, l.Reveal)
		}
		for k := i + 1; k < l.Reveal; k++ {
			if !play.StillSealed(phaseOf(l.Phase), phaseOf(x.info.Log[k].Phase)) {
				t.Fatalf("bid %d still hidden at step %d (%s)", i, k, x.info.Log[k].Phase)
			}
		}
	}
	if bids == 0 {
		t.Skip("no sealed bids in this game")
	}
}

// TestReplayDatasetGame writes a small dataset and opens one of its games: the rebuilt game
// ends with the scores of the games table.
func TestReplayDatasetGame(t *testing.T) {
	for _, f := range []datasets.Format{datasets.Parquet, datasets.Arrow} {
		t.Run(string(f), func(t *testing.T) { testReplayDatasetGame(t, f) })
	}
}

func testReplayDatasetGame(t *testing.T, f datasets.Format) {
	data := t.TempDir()
	o := env.DefaultOptions()
	o.Rules.Players = 3
	_, err := selfplay.Run(context.Background(), selfplay.Config{Agents: []string{"valuer", "shipper", "random"}, Env: o, Games: 5, Seed: 3,
		Out: filepath.Join(data, "ds"), Workers: 1, GamesPerShard: 2, Write: datasets.WriteOptions{Format: f}, ToolVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	var files FileList
	c.ok("GET", "/api/files", "", nil, &files)
	if len(files.Datasets) != 1 || files.Datasets[0].Path != "ds" || files.Datasets[0].Games != 5 {
		t.Fatalf("datasets listed: %+v", files.Datasets)
	}
	ds, err := datasets.Open(filepath.Join(data, "ds"))
	if err != nil {
		t.Fatal(err)
	}
	var games []*datasets.Game
	for g, err := range ds.Games() {
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	for _, id := range []uint64{0, 3, 4} {
		var info ReplayInfo
		c.ok("POST", "/api/replays", "", OpenReplayRequest{Dataset: "ds", Game: &id}, &info)
		g := games[id]
		if info.Moves != int(g.Length) || !info.Finished || strings.Join(info.Names, ",") != strings.Join(g.Agents, ",") {
			t.Fatalf("game %d: %d moves (want %d), names %v", id, info.Moves, g.Length, info.Names)
		}
		for s, sc := range info.Scores {
			if int32(sc.Total) != g.Scores[s].Total {
				t.Fatalf("game %d seat %d: total %d, games table %d", id, s, sc.Total, g.Scores[s].Total)
			}
		}
	}
	bad := uint64(5)
	c.wantStatus(404, "POST", "/api/replays", "", OpenReplayRequest{Dataset: "ds", Game: &bad})
	c.wantStatus(400, "POST", "/api/replays", "", OpenReplayRequest{Dataset: "ds"})
	c.wantStatus(400, "POST", "/api/replays", "", OpenReplayRequest{Dataset: "../ds", Game: &bad})
}

// TestStaticAssets checks the front end is embedded and served.
func TestStaticAssets(t *testing.T) {
	c := newTestServer(t, Config{})
	for _, p := range []string{"/", "/app.js", "/style.css"} {
		req := httptest.NewRequest("GET", p, nil)
		req.Host = "localhost:8080"
		w := httptest.NewRecorder()
		c.srv.ServeHTTP(w, req)
		if w.Code != 200 || w.Body.Len() < 100 {
			t.Errorf("%s: status %d, %d bytes", p, w.Code, w.Body.Len())
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("%s: no Content-Security-Policy", p)
		}
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

// TestLevelsComeFirstAndPlay checks the levels for players head the bot list, weakest first
// and marked with their level, and that a game against levels names the agent each one is.
func TestLevelsComeFirstAndPlay(t *testing.T) {
	c := newTestServer(t, Config{})
	var list []BotInfo
	c.ok("GET", "/api/bots", "", nil, &list)
	want := []string{"easy", "medium", "hard", "expert"}
	if len(list) <= len(want) {
		t.Fatalf("bot list %v", list)
	}
	for k, name := range want {
		if list[k].Name != name || list[k].Level != k+1 || list[k].Description == "" {
			t.Errorf("entry %d = %+v, want level %d %q with a description", k, list[k], k+1, name)
		}
	}
	for _, b := range list[len(want):] {
		if b.Level != 0 {
			t.Errorf("%q is listed as level %d after the levels", b.Name, b.Level)
		}
	}
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Seat: 0, Opponents: []string{"easy", "hard"}, Seed: seedPtr(3)}, &st)
	if st.Names[1] != "easy: shipper" || st.Names[2] != "hard: default" {
		t.Errorf("names %q, want the levels with their agents", st.Names)
	}
}
