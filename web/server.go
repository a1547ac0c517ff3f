package web

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/container-rl/container/env/rules"
)

//go:embed static
var staticFS embed.FS

// Config configures a Server.
type Config struct {
	// DataDir is the directory whose game records, datasets and .bot files may be opened
	// ("" exposes none). Paths given by clients are relative to it and confined to it.
	DataDir string
	// MaxSessions caps live play and replay sessions together (0: 200).
	MaxSessions int
	// Expiry removes a session idle this long (0: 2 hours).
	Expiry time.Duration
	// MaxUpload bounds an uploaded game record in bytes (0: 4 MiB).
	MaxUpload int64
	// Now returns the time (nil: time.Now); tests move it forward to expire sessions.
	Now func() time.Time
}

// maxBody bounds every request body except record uploads.
const maxBody = 64 << 10

// Server serves the web app. Make one with New; it is an http.Handler.
type Server struct {
	cfg     Config
	mux     *http.ServeMux
	data    *dataDir
	mu      sync.Mutex
	games   map[string]*playSession
	replays map[string]*replaySession
	stop    chan struct{}
	stopped sync.Once
}

// New checks cfg and returns a server; Close stops its expiry sweeper.
func New(cfg Config) (*Server, error) {
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 200
	}
	if cfg.MaxSessions < 0 {
		return nil, fmt.Errorf("web: max sessions %d is negative", cfg.MaxSessions)
	}
	if cfg.Expiry == 0 {
		cfg.Expiry = 2 * time.Hour
	}
	if cfg.Expiry < 0 {
		return nil, fmt.Errorf("web: expiry %v is negative", cfg.Expiry)
	}
	if cfg.MaxUpload == 0 {
		cfg.MaxUpload = 4 << 20
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, games: map[string]*playSession{}, replays: map[string]*replaySession{}, stop: make(chan struct{})}
	if cfg.DataDir != "" {
		d, err := openDataDir(cfg.DataDir)
		if err != nil {
			return nil, err
		}
		s.data = d
	}
	s.routes()
	go s.sweep()
	return s, nil
}

// Close stops the expiry sweeper; the server answers requests until its listener closes.
func (s *Server) Close() { s.stopped.Do(func() { close(s.stop) }) }

func (s *Server) sweep() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.expire()
		}
	}
}

// expire removes sessions idle for longer than the expiry.
func (s *Server) expire() {
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, g := range s.games {
		if now.Sub(g.lastUsed()) > s.cfg.Expiry {
			delete(s.games, id)
		}
	}
	for id, r := range s.replays {
		if now.Sub(r.lastUsed()) > s.cfg.Expiry {
			delete(s.replays, id)
		}
	}
}

// Sessions returns the number of live play and replay sessions.
func (s *Server) Sessions() (games, replays int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games), len(s.replays)
}

func (s *Server) routes() {
	m := http.NewServeMux()
	sub, _ := fs.Sub(staticFS, "static")
	files := http.FileServerFS(sub)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			httpError(w, http.StatusMethodNotAllowed, "%s is not allowed on %s", r.Method, r.URL.Path)
			return
		}
		files.ServeHTTP(w, r)
	})
	m.HandleFunc("GET /api/bots", s.handleBots)
	m.HandleFunc("GET /api/files", s.handleFiles)
	m.HandleFunc("POST /api/games", s.handleNewGame)
	m.HandleFunc("GET /api/games/{id}", s.withGame(s.handleGameState))
	m.HandleFunc("POST /api/games/{id}/move", s.withGame(s.handleMove))
	m.HandleFunc("POST /api/games/{id}/undo", s.withGame(s.handleUndo))
	m.HandleFunc("POST /api/games/{id}/ask", s.withGame(s.handleGameAsk))
	m.HandleFunc("GET /api/games/{id}/record", s.withGame(s.handleGameRecord))
	m.HandleFunc("GET /api/games/{id}/history/{n}", s.withGame(s.handleGameHistory))
	m.HandleFunc("DELETE /api/games/{id}", s.withGame(s.handleEndGame))
	m.HandleFunc("POST /api/replays", s.handleNewReplay)
	m.HandleFunc("GET /api/replays/{id}", s.withReplay(s.handleReplayInfo))
	m.HandleFunc("GET /api/replays/{id}/step/{n}", s.withReplay(s.handleReplayStep))
	m.HandleFunc("POST /api/replays/{id}/ask", s.withReplay(s.handleReplayAsk))
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		httpError(w, http.StatusNotFound, "no API endpoint %s %s", r.Method, r.URL.Path)
	})
	s.mux = m
}

// ServeHTTP implements http.Handler: security headers, a recovered panic answered with a
// message instead of a dropped connection, then the routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'")
	if strings.HasPrefix(r.URL.Path, "/api/") {
		h.Set("Cache-Control", "no-store")
	}
	defer func() {
		if v := recover(); v != nil {
			httpError(w, http.StatusInternalServerError, "internal error: %v", v)
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// apiError is an error with the HTTP status it is answered with.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

func httpError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}

// reply writes v, or err with its status (400 for an error without one).
func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			httpError(w, ae.status, "%s", ae.msg)
			return
		}
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// writeJSON writes v as JSON. HTML characters are not escaped (the board SVG is most of an
// answer, and the client inserts it as markup anyway).
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// decodeBody reads a JSON body of at most limit bytes into v, refusing unknown fields and
// trailing data.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return errorf(http.StatusUnsupportedMediaType, "request body must be JSON (Content-Type application/json), not %s", rules.Quote(ct))
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return errorf(http.StatusRequestEntityTooLarge, "request body is larger than %d bytes", limit)
		case errors.Is(err, io.EOF):
			return errorf(http.StatusBadRequest, "request body is empty; a JSON object is expected")
		}
		return errorf(http.StatusBadRequest, "request body is not valid JSON for this request: %v", err)
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, "request body has data after the JSON object")
	}
	return nil
}

// newToken returns 128 random bits in hex.
func newToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("web: no randomness for session tokens: %v", err))
	}
	return hex.EncodeToString(b[:])
}

// tokenOK compares a presented token with the session's in constant time.
func tokenOK(presented, want string) bool {
	return len(presented) == len(want) && subtle.ConstantTimeCompare([]byte(presented), []byte(want)) == 1
}

// TokenHeader is the request header carrying a session's token.
const TokenHeader = "X-Game-Token"

// reserve checks there is room for one more session (the caller holds s.mu).
func (s *Server) roomLocked() error {
	if len(s.games)+len(s.replays) >= s.cfg.MaxSessions {
		return errorf(http.StatusTooManyRequests, "the server already holds %d games and replays (--max-games); close one or wait until idle ones expire", s.cfg.MaxSessions)
	}
	return nil
}

// hasRoom reports whether one more game or replay fits; admit checks again when adding it.
func (s *Server) hasRoom() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roomLocked()
}

// admit gives x its id, token and first use and, if there is still room, registers it with
// add (called under s.mu).
func (s *Server) admit(x *session, add func()) error {
	x.id, x.token, x.used = newToken()[:16], newToken(), s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.roomLocked(); err != nil {
		return err
	}
	add()
	return nil
}

// session is what play and replay sessions share: the token and the last use.
type session struct {
	id, token string
	mu        sync.Mutex
	used      time.Time
}

func (x *session) lastUsed() time.Time {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.used
}

// authorize checks the request's token against x.
func authorize(r *http.Request, x *session) error {
	t := r.Header.Get(TokenHeader)
	if t == "" {
		return errorf(http.StatusUnauthorized, "missing %s header: a session is driven only by the browser that created it", TokenHeader)
	}
	if !tokenOK(t, x.token) {
		return errorf(http.StatusForbidden, "wrong %s for this session", TokenHeader)
	}
	return nil
}

func (s *Server) withGame(h func(http.ResponseWriter, *http.Request, *playSession)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		s.mu.Lock()
		g := s.games[id]
		s.mu.Unlock()
		if g == nil {
			httpError(w, http.StatusNotFound, "no game %s (games expire after %v idle, and end when the server restarts)", rules.Quote(id), s.cfg.Expiry)
			return
		}
		if err := authorize(r, &g.session); err != nil {
			reply(w, nil, err)
			return
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		g.used = s.cfg.Now()
		h(w, r, g)
	}
}

func (s *Server) withReplay(h func(http.ResponseWriter, *http.Request, *replaySession)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		s.mu.Lock()
		x := s.replays[id]
		s.mu.Unlock()
		if x == nil {
			httpError(w, http.StatusNotFound, "no replay %s (replays expire after %v idle); open the game again", rules.Quote(id), s.cfg.Expiry)
			return
		}
		if err := authorize(r, &x.session); err != nil {
			reply(w, nil, err)
			return
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		x.used = s.cfg.Now()
		h(w, r, x)
	}
}
