package web

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipesInDataDirDoNotHang checks that a named pipe under --data, whether named as a
// record, a bot file or a dataset's manifest, is refused at once instead of blocking the
// request (opening a pipe waits for a writer forever) or the file listing.
func TestNamedPipesInDataDirDoNotHang(t *testing.T) {
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "ds"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"pipe.json", "pipe.bot", "ds/manifest.json"} {
		if err := syscall.Mkfifo(filepath.Join(data, p), 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	if err := os.Mkdir(filepath.Join(data, "dir.bot"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.wantStatus(http.StatusBadRequest, "POST", "/api/replays", "", OpenReplayRequest{Path: "pipe.json"})
		c.wantStatus(http.StatusBadRequest, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"pipe.bot"}})
		c.wantStatus(http.StatusBadRequest, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"dir.bot"}})
		game := uint64(0)
		c.wantStatus(http.StatusBadRequest, "POST", "/api/replays", "", OpenReplayRequest{Dataset: "ds", Game: &game})
		var files FileList
		c.ok("GET", "/api/files", "", nil, &files)
		if len(files.Records)+len(files.Datasets)+len(files.Bots) != 0 {
			t.Errorf("pipes listed as files: %+v", files)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("a request on a named pipe under --data blocked")
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
