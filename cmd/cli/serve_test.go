package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeStartsAndStopsGracefully starts the server on a free port, fetches the page and
// the bot list, then cancels (as Ctrl-C does) and expects a clean stop.
func TestServeStartsAndStopsGracefully(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, serveOptions{addr: "127.0.0.1:0", maxGames: 10, expire: time.Hour}, out)
	}()
	var url string
	for i := 0; i < 200 && url == ""; i++ {
		time.Sleep(10 * time.Millisecond)
		url = regexp.MustCompile(`http://[0-9.:]+/`).FindString(out.String())
	}
	require.False(t, url == "", "no URL printed: %q", out.String())
	for _, p := range []string{"", "api/bots"} {
		res, err := http.Get(url + p)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.False(t, res.StatusCode != 200 || len(body) == 0, "GET %s: %d", url+p, res.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		require.Fail(t, "the server did not stop")
	}
	require.True(t, strings.Contains(out.String(), "stopped"), "output %q", out.String())
}

// TestServeBadFlags checks bad settings are one-line errors.
func TestServeBadFlags(t *testing.T) {
	for _, tc := range []struct {
		o    serveOptions
		want string
	}{
		{serveOptions{addr: "127.0.0.1:0", maxGames: 0, expire: time.Hour}, "--max-games"},
		{serveOptions{addr: "127.0.0.1:0", maxGames: 5, expire: time.Millisecond}, "--expire"},
		{serveOptions{addr: "127.0.0.1:0", maxGames: 5, expire: time.Hour, data: "/nonexistent/dir"}, "--data"},
		{serveOptions{addr: "not an address", maxGames: 5, expire: time.Hour}, "serve:"},
	} {
		err := runServe(context.Background(), tc.o, io.Discard)
		assert.False(t, err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n"), "%+v: %v, want an error about %s", tc.o, err, tc.want)
	}
}

// TestServeSaysWhenReachableFromTheNetwork checks a non-loopback --addr prints one warning
// line (the server has no accounts) and a loopback one prints none.
func TestServeSaysWhenReachableFromTheNetwork(t *testing.T) {
	for _, tc := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {"0.0.0.0:0", true}} {
		ctx, cancel := context.WithCancel(context.Background())
		out := &syncBuffer{}
		done := make(chan error, 1)
		go func() {
			done <- runServe(ctx, serveOptions{addr: tc.addr, maxGames: 10, expire: time.Hour}, out)
		}()
		for i := 0; i < 200 && !strings.Contains(out.String(), "Ctrl-C"); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		require.NoError(t, <-done)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		warned := strings.Contains(out.String(), "reachable from the network") && strings.Contains(out.String(), "no accounts")
		assert.False(t, warned != tc.warn || len(lines) != 2+btoi(tc.warn), "--addr %s: output %q, want a warning line: %v", tc.addr, out.String(), tc.warn)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
