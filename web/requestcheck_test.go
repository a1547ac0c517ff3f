package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// raw sends one request to s with the given Host, headers and body, and returns the status.
func raw(t *testing.T, s *Server, method, path, host string, header map[string]string, body string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = host
	for k, v := range header {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	out := w.Body.String()
	if len(out) > 300 {
		out = out[:300] + "..."
	}
	return w.Code, out
}

// A DNS-rebinding page reaches the server under its own host name; only the served address
// and loopback names are answered.
func TestRequests_HostMustNameTheServedAddressOrLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr, host string
		ok         bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "localhost:8080", true},
		{"127.0.0.1:8080", "LOCALHOST", true},
		{"127.0.0.1:8080", "app.localhost:8080", true},
		{"127.0.0.1:8080", "[::1]:8080", true},
		{"127.0.0.1:8080", "127.0.0.1:9999", true}, // a forwarded port
		{"127.0.0.1:8080", "evil.example", false},
		{"127.0.0.1:8080", "evil.example:8080", false},
		{"127.0.0.1:8080", "localhost.evil.example:8080", false},
		{"127.0.0.1:8080", "10.0.0.5:8080", false},
		{"127.0.0.1:8080", "", false},
		{"", "localhost", true},
		{"", "example.com", false},
		{"192.168.1.7:8080", "192.168.1.7:8080", true},
		{"192.168.1.7:8080", "192.168.1.8:8080", false},
		{"192.168.1.7:8080", "evil.example:8080", false},
		{"0.0.0.0:8080", "192.168.1.7:8080", true},
		{"[::]:8080", "[fe80::1]:8080", true},
		{"[::]:8080", "evil.example:8080", false},
		{"myhost.lan:8080", "MyHost.lan:8080", true},
		{"myhost.lan:8080", "other.lan:8080", false},
	} {
		s, err := New(Config{Addr: tc.addr})
		if err != nil {
			t.Fatal(err)
		}
		code, body := raw(t, s, "GET", "/api/bots", tc.host, nil, "")
		if (code == 200) != tc.ok || (!tc.ok && (code != 403 || !strings.Contains(body, "not this server's address"))) {
			t.Errorf("addr %s, Host %q: status %d %s; want ok=%v", tc.addr, tc.host, code, body, tc.ok)
		}
		s.Close()
	}
	if _, err := New(Config{Addr: "no port"}); err == nil {
		t.Errorf("an address without a port is accepted")
	}
	// Listening on every address, the machine's own host name is accepted too (any case).
	name, err := os.Hostname()
	if err != nil || name == "" || net.ParseIP(name) != nil {
		t.Skipf("no host name to try (%q, %v)", name, err)
	}
	s, err := New(Config{Addr: "0.0.0.0:8080"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for host, ok := range map[string]bool{strings.ToUpper(name) + ":8080": true, name: true, name + ".evil.example:8080": false} {
		if code, body := raw(t, s, "GET", "/api/bots", host, nil, ""); (code == 200) != ok {
			t.Errorf("addr 0.0.0.0:8080, Host %q (the machine's name is %q): status %d %s; want ok=%v", host, name, code, body, ok)
		}
	}
}

// A page on another site may send requests (not read the answers); its Origin is refused.
func TestRequests_CrossOriginRefused(t *testing.T) {
	c := newTestServer(t, Config{Addr: "127.0.0.1:8080"})
	game := `{"players": 3, "opponents": ["random"], "seed": 1}`
	json := map[string]string{"Content-Type": "application/json"}
	for _, origin := range []string{"http://evil.example", "http://127.0.0.1:9999", "null", "http://localhost:8080", "file://", "ftp://127.0.0.1:8080"} {
		h := map[string]string{"Content-Type": "application/json", "Origin": origin}
		code, body := raw(t, c.srv, "POST", "/api/games", "127.0.0.1:8080", h, game)
		if code != 403 || !strings.Contains(body, "other web pages") {
			t.Errorf("Origin %s: status %d %s, want 403", origin, code, body)
		}
		if code, _ := raw(t, c.srv, "GET", "/api/files", "127.0.0.1:8080", h, ""); code != 403 {
			t.Errorf("GET with Origin %s: status %d, want 403", origin, code)
		}
	}
	for _, origin := range []string{"http://127.0.0.1:8080", "HTTP://127.0.0.1:8080", "https://127.0.0.1:8080"} {
		h := map[string]string{"Content-Type": "application/json", "Origin": origin}
		if code, body := raw(t, c.srv, "POST", "/api/games", "127.0.0.1:8080", h, game); code != 200 {
			t.Errorf("same origin %s: status %d %s", origin, code, body)
		}
	}
	if code, body := raw(t, c.srv, "POST", "/api/games", "127.0.0.1:8080", json, game); code != 200 {
		t.Errorf("no Origin (not a browser): status %d %s", code, body)
	}
}

// Every POST must declare a JSON body: the content types a page on another site can send
// without a preflight (none, text/plain, forms) are refused, on every endpoint.
func TestRequests_PostNeedsJSONContentType(t *testing.T) {
	c := newTestServer(t, Config{})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}, Seed: seedPtr(1)}, &st)
	const host = "localhost:8080"
	for _, path := range []string{"/api/games", "/api/replays", "/api/games/" + st.ID + "/undo", "/api/games/" + st.ID + "/move", "/api/games/" + st.ID + "/ask"} {
		for _, ct := range []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "application/json-patch+json", "json"} {
			h := map[string]string{TokenHeader: st.Token}
			if ct != "" {
				h["Content-Type"] = ct
			}
			code, body := raw(t, c.srv, "POST", path, host, h, `{}`)
			if code != http.StatusUnsupportedMediaType || !strings.Contains(body, "application/json") {
				t.Errorf("POST %s with Content-Type %q: status %d %s, want 415", path, ct, code, body)
			}
		}
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON"} {
		h := map[string]string{"Content-Type": ct}
		if code, body := raw(t, c.srv, "POST", "/api/games", host, h, `{"players": 3, "opponents": ["random"]}`); code != 200 {
			t.Errorf("Content-Type %q: status %d %s", ct, code, body)
		}
	}
	// Undo takes no arguments: no body or {} (the page sends the header with no body).
	h := map[string]string{"Content-Type": "application/json", TokenHeader: st.Token}
	for _, body := range []string{"", "{}", " {} "} {
		if code, out := raw(t, c.srv, "POST", "/api/games/"+st.ID+"/undo", host, h, body); code != 409 && code != 200 {
			t.Errorf("undo with body %q: status %d %s", body, code, out)
		}
	}
	if code, _ := raw(t, c.srv, "POST", "/api/games/"+st.ID+"/undo", host, h, `{"x": 1}`); code != 400 {
		t.Errorf("undo with an argument: status %d, want 400", code)
	}
}

// Bodies are strict: a key given twice, a field the request does not have (the game's ask
// takes only bot), a since outside the log, each is a 400 with one line.
func TestRequests_BodiesAreStrict(t *testing.T) {
	c := newTestServer(t, Config{})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Seat: 0, Opponents: []string{"random"}, Seed: seedPtr(3)}, &st)
	g := "/api/games/" + st.ID
	for _, tc := range []struct{ path, body, want string }{
		{"/api/games", `{"players": 3, "players": 4}`, "duplicate key"},
		{"/api/games", `{"players": 3, "opponents": ["random"], "seed": 1, "seed": 2}`, "duplicate key"},
		{"/api/games", `{"players": 3, "colour": "red"}`, "unknown key"},
		{"/api/games", `{"players": 3} {"players": 4}`, "after the JSON"},
		{"/api/games", `{"players": 3}x`, "after the JSON"},
		{"/api/games", `{"Players": 3}`, "unknown key"},
		{"/api/games", `{"players": 3, "PLAYERS": 4}`, "differ only by case"},
		{"/api/games", `[]`, "cannot unmarshal"},
		{"/api/games", `{"players": 3`, "truncated"},
		{"/api/games", ``, "empty"},
		{"/api/replays", `{"record": {"format": "x", "format": "y"}}`, "duplicate key"},
		{g + "/ask", `{"bot": "random", "step": 3}`, "unknown key"},
		{g + "/ask", `{"bot": "random", "viewer": -1}`, "unknown key"},
		{g + "/ask", `{"bot": "random", "bot": "valuer"}`, "duplicate key"},
		{g + "/ask", `{"BOT": "random"}`, "unknown key"},
		{g + "/move", `{"move": "x", "since": -1}`, "since -1 is outside"},
		{g + "/move", `{"move": "x", "since": 999999999}`, "since 999999999 is outside"},
		{g + "/move", `{"move": "x", "extra": 1}`, "unknown key"},
	} {
		msg := c.wantStatus(400, "POST", tc.path, st.Token, tc.body)
		if !strings.Contains(msg, tc.want) {
			t.Errorf("POST %s %s: %q, want %q", tc.path, tc.body, msg, tc.want)
		}
	}
	for _, since := range []string{"-1", "999999999", "abc", "1e3", "9999999999999999999999"} {
		c.wantStatus(400, "GET", g+"?since="+since, st.Token, nil)
	}
	var again GameState
	c.ok("GET", g+"?since="+fmt.Sprint(st.LogLen), st.Token, nil, &again)
	if len(again.Log) != 0 || again.LogFrom != st.LogLen {
		t.Errorf("since = log length: %d lines from %d", len(again.Log), again.LogFrom)
	}
	c.ok("GET", g+"?since=0", st.Token, nil, &again)
}

// A body over the limit gets a 413 even from a client that writes the whole body before it
// reads the answer (most HTTP libraries), with or without a Content-Length.
func TestRequests_OversizedBodyGets413NotAResetConnection(t *testing.T) {
	s, err := New(Config{MaxUpload: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(s)
	defer ts.Close()
	const size = 32 << 20
	for _, tc := range []struct {
		path    string
		chunked bool
	}{{"/api/replays", false}, {"/api/replays", true}, {"/api/games", false}, {"/api/games", true}} {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
		w := bufio.NewWriterSize(conn, 1<<16)
		fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", tc.path, ts.Listener.Addr())
		chunk := bytes.Repeat([]byte("a"), 1<<16)
		if tc.chunked {
			fmt.Fprintf(w, "Transfer-Encoding: chunked\r\n\r\n")
		} else {
			fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", size+len(`{"record":""}`))
		}
		var werr error
		if !tc.chunked {
			_, werr = w.WriteString(`{"record":"`)
		}
		for n := 0; n < size && werr == nil; n += len(chunk) {
			if tc.chunked {
				fmt.Fprintf(w, "%x\r\n", len(chunk))
			}
			_, werr = w.Write(chunk)
			if tc.chunked {
				_, werr = w.WriteString("\r\n")
			}
		}
		if werr == nil {
			if tc.chunked {
				_, werr = w.WriteString("0\r\n\r\n")
			} else {
				_, werr = w.WriteString(`"}`)
			}
		}
		if werr == nil {
			werr = w.Flush()
		}
		if werr != nil {
			t.Errorf("%+v: writing the body: %v (the server closed the connection)", tc, werr)
			conn.Close()
			continue
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("%+v: reading the answer: %v", tc, err)
			conn.Close()
			continue
		}
		body, _ := io.ReadAll(res.Body)
		conn.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "larger than") {
			t.Errorf("%+v: status %d %s, want 413", tc, res.StatusCode, body)
		}
	}
}

// No request gets a 5xx: paths that are not UTF-8, odd methods, random bodies and headers.
func TestRequests_NoRequestGetsA5xx(t *testing.T) {
	c := newTestServer(t, Config{DataDir: t.TempDir()})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"random"}, Seed: seedPtr(5)}, &st)
	for _, p := range []string{"/%ff", "/%00%ff", "/%00", "/api/%ff", "/api/games/%ff", "/api/games/" + st.ID + "%ff/move", "/%c0%af", "/app.js%00", "/%2e%2e/%2e%2e/etc/passwd"} {
		code, out := raw(t, c.srv, "GET", p, "localhost", nil, "")
		if code >= 500 || code < 400 && strings.Contains(p, "%ff") {
			t.Errorf("GET %s: status %d %s", p, code, out)
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	methods := []string{"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "BREW"}
	paths := []string{"/", "/index.html", "/api/", "/api/bots", "/api/files", "/api/games", "/api/replays",
		"/api/games/" + st.ID, "/api/games/" + st.ID + "/move", "/api/games/" + st.ID + "/undo", "/api/games/" + st.ID + "/ask",
		"/api/games/" + st.ID + "/record", "/api/replays/x/step/1", "/api/replays/x/ask", "/api/games/x/move"}
	bodies := []string{"", "{}", "null", "[]", `{"players":`, `{"players": 1e400}`, `{"seed": -1}`, `{"players": 3, "opponents": [""]}`,
		`{"move": "\u0000"}`, `{"bot": "ismcts:sims=999999999"}`, `{"bot": "../x.bot"}`, `{"path": "/etc/passwd"}`, `{"record": 5}`,
		`{"since": 1e9}`, `"` + strings.Repeat("\\", 99) + `"`, "\xff\xfe", `{"players": 5, "modules": "all", "turn_limit": 10000}`}
	for i := 0; i < 600; i++ {
		m, p, b := methods[rng.IntN(len(methods))], paths[rng.IntN(len(paths))], bodies[rng.IntN(len(bodies))]
		if rng.IntN(4) == 0 {
			p += "?since=" + []string{"-5", "x", "99999999999999999999", "3"}[rng.IntN(4)]
		}
		h := map[string]string{"Content-Type": []string{"application/json", "text/plain", ""}[rng.IntN(3)]}
		if rng.IntN(2) == 0 {
			h[TokenHeader] = st.Token
		}
		code, out := raw(t, c.srv, m, p, "localhost", h, b)
		if code >= 500 {
			t.Fatalf("%s %s %q %v: status %d %s", m, p, b, h, code, out)
		}
		if code >= 400 && m != "HEAD" {
			var e struct{ Error string }
			if err := json.Unmarshal([]byte(out), &e); err != nil || e.Error == "" || strings.Contains(e.Error, "\n") {
				t.Fatalf("%s %s: status %d with %q, want a one-line JSON error", m, p, code, out)
			}
		}
	}
}
