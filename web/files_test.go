package web

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/container-rl/container/env/rules"
)

// The --data confinement: every path a client names resolves inside the data directory, by
// the path's own text (no decoding of %2F, no "..", not absolute) and after symbolic links.
// These cases are the near misses a subtly broken check lets through: a sibling directory
// whose name extends the data directory's ("data2" beside "data"), a link to the parent, a
// name that only starts with two dots.

// confinedTree makes root/data (the data directory, with a record in sub/), root/data2 (a
// sibling whose name extends it, with a secret record), and links inside data pointing out.
func confinedTree(t *testing.T) (root, data string) {
	t.Helper()
	root = t.TempDir()
	data = filepath.Join(root, "data")
	for _, d := range []string{filepath.Join(data, "sub"), filepath.Join(root, "data2"), filepath.Join(data, "..hidden")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeRecord(t, filepath.Join(data, "sub", "game.json"), 3, 4)
	writeRecord(t, filepath.Join(root, "data2", "secret.json"), 3, 5)
	writeRecord(t, filepath.Join(data, "..game.json"), 3, 6)
	writeRecord(t, filepath.Join(data, "..hidden", "game.json"), 3, 7)
	for link, target := range map[string]string{
		"sibling.json": filepath.Join(root, "data2", "secret.json"), // into data2: outside
		"sibling":      filepath.Join(root, "data2"),
		"relsib.json":  "../data2/secret.json", // a relative link out
		"parent":       root,
		"loop":         filepath.Join(data, "loop"),
		"self":         data, // a link to the data directory itself: inside
	} {
		if err := os.Symlink(target, filepath.Join(data, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, data
}

func TestDataConfinementRefusesNearMisses(t *testing.T) {
	_, data := confinedTree(t)
	c := newTestServer(t, Config{DataDir: data})
	for _, tc := range []struct {
		path string
		code int
	}{
		// Links that leave: into a sibling whose name starts with the data directory's.
		{"sibling.json", http.StatusForbidden},
		{"sibling/secret.json", http.StatusForbidden},
		{"relsib.json", http.StatusForbidden},
		{"parent/data2/secret.json", http.StatusForbidden},
		{"self/../sibling.json", http.StatusForbidden},
		// Dot-dot in every spelling the path's text allows.
		{"../data2/secret.json", http.StatusBadRequest},
		{"sub/../../data2/secret.json", http.StatusBadRequest},
		{"./../data2/secret.json", http.StatusBadRequest},
		{"sub/./../..", http.StatusBadRequest},
		{"..", http.StatusBadRequest},
		// Absolute paths, with either slash.
		{"/" + strings.TrimPrefix(filepath.Join(data, "sub", "game.json"), "/"), http.StatusBadRequest},
		{`\etc\passwd`, http.StatusBadRequest},
		{"//etc/passwd", http.StatusBadRequest},
		// Encoded slashes and dots are file names, never decoded: nothing of that name.
		{"..%2fdata2%2fsecret.json", http.StatusNotFound},
		{"%2e%2e/data2/secret.json", http.StatusNotFound},
		{"sub%2fgame.json", http.StatusNotFound},
		{`..\data2\secret.json`, http.StatusNotFound},
		// Not usable as names.
		{"sub/game.json\x00", http.StatusBadRequest},
		{"", http.StatusBadRequest},
		{strings.Repeat("a/", 2048) + "x", http.StatusBadRequest}, // 4,097 bytes
		// A directory, the data directory itself, a link loop.
		{"sub", http.StatusBadRequest},
		{".", http.StatusBadRequest},
		{"sub/..", http.StatusBadRequest},
		{"loop", http.StatusBadRequest},
	} {
		msg := c.wantStatus(tc.code, "POST", "/api/replays", "", OpenReplayRequest{Path: tc.path})
		if strings.Contains(msg, "moves") || strings.Contains(msg, filepath.Dir(data)) && !strings.Contains(tc.path, filepath.Dir(data)) {
			t.Errorf("%q: the answer %q says too much", tc.path, msg)
		}
	}
	// The longest usable path is not refused as too long: 4,096 bytes, no such file.
	c.wantStatus(http.StatusNotFound, "POST", "/api/replays", "", OpenReplayRequest{Path: strings.Repeat("a/", 2047) + "xy"})
	// Names that only start with two dots are ordinary names inside the directory.
	var info ReplayInfo
	for _, p := range []string{"..game.json", "..hidden/game.json", "self/sub/game.json", "sub/../sub/game.json", "sub//game.json"} {
		c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: p}, &info)
	}
	// A bot file through a link into the sibling is refused the same way.
	if err := os.WriteFile(filepath.Join(filepath.Dir(data), "data2", "x.bot"), []byte("not a bot"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.wantStatus(http.StatusForbidden, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"sibling/x.bot"}})
	// The listing shows nothing from the sibling (links are not followed).
	var files FileList
	c.ok("GET", "/api/files", "", nil, &files)
	for _, r := range files.Records {
		if strings.Contains(r, "secret") || strings.HasPrefix(r, "sibling") || strings.HasPrefix(r, "parent") {
			t.Errorf("the listing shows %s, outside the data directory", r)
		}
	}
}

// --data named through a symbolic link (a common layout: runs -> /mnt/disk/runs) serves the
// files inside its target, and still refuses the target's siblings.
func TestDataDirectoryGivenThroughALink(t *testing.T) {
	root, data := confinedTree(t)
	link := filepath.Join(root, "runs")
	if err := os.Symlink(data, link); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: link})
	var info ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "sub/game.json"}, &info)
	c.wantStatus(http.StatusForbidden, "POST", "/api/replays", "", OpenReplayRequest{Path: "sibling.json"})
	c.wantStatus(http.StatusBadRequest, "POST", "/api/replays", "", OpenReplayRequest{Path: "../data2/secret.json"})
	// Relative --data too.
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(root); err != nil {
		t.Fatal(err)
	}
	c2 := newTestServer(t, Config{DataDir: "runs"})
	c2.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "sub/game.json"}, &info)
	c2.wantStatus(http.StatusForbidden, "POST", "/api/replays", "", OpenReplayRequest{Path: "relsib.json"})
}

// What the data directory's listing shows: records down to five directory levels, nothing
// under hidden directories or node_modules, and at most 2,000 entries walked.

func writeStubRecord(t *testing.T, dir, rel string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"format": "`+rules.RecordFormat+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDataListingSkipsHiddenAndDeepDirectories(t *testing.T) {
	data := t.TempDir()
	listed := []string{"top.json", "a/b/c/d/e/deep.json", "x/.json-like.json"}
	hidden := []string{".git/r.json", "sub/.cache/r.json", "node_modules/r.json", "a/b/c/d/e/f/too-deep.json"}
	for _, r := range append(append([]string{}, listed...), hidden...) {
		writeStubRecord(t, data, r)
	}
	d, err := openDataDir(data)
	if err != nil {
		t.Fatal(err)
	}
	got := d.list().Records
	slices.Sort(listed)
	if !slices.Equal(got, listed) {
		t.Errorf("listed %v, want %v", got, listed)
	}
}

// The walk stops after 2,000 entries (the directory itself counts): 1,999 records are all
// listed, the 2,000th is not.
func TestDataListingStopsAfterTwoThousandEntries(t *testing.T) {
	for _, n := range []int{maxListed - 1, maxListed} {
		data := t.TempDir()
		for i := 0; i < n; i++ {
			writeStubRecord(t, data, fmt.Sprintf("g%05d.json", i))
		}
		d, err := openDataDir(data)
		if err != nil {
			t.Fatal(err)
		}
		got := d.list().Records
		if want := min(n, maxListed-1); len(got) != want {
			t.Errorf("%d records: %d listed, want %d", n, len(got), want)
		}
	}
}

// readLimited reads a file of exactly the limit and refuses one byte more with 413.
func TestReadLimitedAcceptsExactlyTheLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := readLimited(p, "f", 100); err != nil || len(b) != 100 {
		t.Errorf("100 bytes, limit 100: %d bytes, %v", len(b), err)
	}
	_, err := readLimited(p, "f", 99)
	var he *apiError
	if !errors.As(err, &he) || he.status != http.StatusRequestEntityTooLarge {
		t.Errorf("100 bytes, limit 99: %v, want 413", err)
	}
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
