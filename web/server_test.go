package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSessionsExpireAfterTheirIdleTime checks a session idle for exactly the expiry is kept
// and one idle a moment longer is removed, with the default expiry of two hours.
func TestSessionsExpireAfterTheirIdleTime(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newTestServer(t, Config{Now: func() time.Time { return now }})
	var a GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}}, &a)
	now = now.Add(2 * time.Hour)
	c.srv.expire()
	if g, _ := c.srv.Sessions(); g != 1 {
		t.Fatal("a game idle for exactly the default two hours was removed")
	}
	now = now.Add(time.Nanosecond)
	c.srv.expire()
	if g, _ := c.srv.Sessions(); g != 0 {
		t.Fatal("a game idle for longer than the default two hours was kept")
	}
}

// TestReplaysCountTowardTheSessionLimit checks open replays take places of the limit as games do.
func TestReplaysCountTowardTheSessionLimit(t *testing.T) {
	data := t.TempDir()
	writeRecord(t, data+"/g.json", 3, 2)
	c := newTestServer(t, Config{DataDir: data, MaxSessions: 2})
	var a, b ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.json"}, &a)
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.json"}, &b)
	msg := c.wantStatus(http.StatusTooManyRequests, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}})
	if !strings.Contains(msg, "already holds 2 games and replays") {
		t.Errorf("refusal: %q", msg)
	}
}

// TestBodyOfExactlyTheLimitIsRead checks an uploaded record of exactly --max-upload bytes is
// read (and judged as a record), one byte more is refused as too large.
func TestBodyOfExactlyTheLimitIsRead(t *testing.T) {
	const limit = 300
	c := newTestServer(t, Config{MaxUpload: limit})
	body := func(n int) string {
		b := `{"record": "CTNRgarbage"}`
		return b + strings.Repeat(" ", n-len(b))
	}
	if got := c.wantStatus(http.StatusBadRequest, "POST", "/api/replays", "", body(limit)); !strings.Contains(got, "uploaded record") {
		t.Errorf("a body of exactly the limit: %q, want the record's own error", got)
	}
	if got := c.wantStatus(http.StatusRequestEntityTooLarge, "POST", "/api/replays", "", body(limit+1)); got != "request body is larger than 300 bytes" {
		t.Errorf("a body one byte over the limit: %q", got)
	}
}

// TestNegativeLimitsAreRefused checks New refuses negative limits with a one-line error.
func TestNegativeLimitsAreRefused(t *testing.T) {
	for _, cfg := range []Config{{MaxSessions: -1}, {Expiry: -time.Second}} {
		if _, err := New(cfg); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "negative") {
			t.Errorf("New(%+v): %v", cfg, err)
		}
	}
}

// TestPostWithoutContentTypeNamesIt checks the refusal of a POST says it had no Content-Type,
// or quotes the one it had.
func TestPostWithoutContentTypeNamesIt(t *testing.T) {
	c := newTestServer(t, Config{})
	code, body := raw(t, c.srv, "POST", "/api/games", "localhost:8080", nil, `{}`)
	if code != http.StatusUnsupportedMediaType || !strings.Contains(body, "Content-Type application/json, not none") {
		t.Errorf("status %d %s", code, body)
	}
	code, body = raw(t, c.srv, "POST", "/api/games", "localhost:8080", map[string]string{"Content-Type": "text/plain"}, `{}`)
	if code != http.StatusUnsupportedMediaType || !strings.Contains(body, `not \"text/plain\"`) {
		t.Errorf("status %d %s", code, body)
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

// TestExpiredGameSaysWhy checks the answer for an expired game: a 404 that names the idle
// time (it said only finished games expire, but every idle game does).
func TestExpiredGameSaysWhy(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newTestServer(t, Config{Expiry: time.Hour, Now: func() time.Time { return now }})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}, Length: "short", Seed: seedPtr(1)}, &st)
	now = now.Add(2 * time.Hour)
	c.srv.expire()
	msg := c.wantStatus(http.StatusNotFound, "GET", "/api/games/"+st.ID, st.Token, nil)
	if !strings.Contains(msg, "games expire after 1h0m0s idle") {
		t.Errorf("expired game answer %q", msg)
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
