package web

import (
	"net/http"
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
