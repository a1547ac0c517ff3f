package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	_ "github.com/container-rl/container/training" // registers the "default" bot
)

// BenchmarkHumanMoveDefault4p measures one human move in a 4-player game against three
// `default` bots, through the HTTP handler: the move, every bot reply until the human decides
// again, and the answer (board SVG, legal moves, log). bot-decisions/op says how many bot
// moves each answer included.
func BenchmarkHumanMoveDefault4p(b *testing.B) {
	s, err := New(Config{MaxSessions: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var st GameState
	botMoves := 0
	newGame := func(seed uint64) {
		code, body := serve(s, "POST", "/api/games", "", NewGameRequest{Players: 4, Seed: &seed, Opponents: []string{bots.DefaultName}})
		if code != 200 {
			b.Fatalf("new game: %d %s", code, body)
		}
		st = GameState{}
		_ = json.Unmarshal(body, &st)
	}
	newGame(1)
	token := st.Token
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if st.Over {
			b.StopTimer()
			newGame(uint64(i) + 2)
			token = st.Token
			b.StartTimer()
		}
		before := st.Steps
		code, body := serve(s, "POST", "/api/games/"+st.ID+"/move", token, MoveRequest{Move: chooseMove(rng, st), Since: 1 << 30})
		if code != 200 {
			b.Fatalf("move: %d %s", code, body)
		}
		st = GameState{}
		_ = json.Unmarshal(body, &st)
		botMoves += st.Steps - before - 1
	}
	b.ReportMetric(float64(botMoves)/float64(b.N), "bot-decisions/op")
}

// BenchmarkBotDecisionDefault4p measures one decision of the `default` bot in a 4-player game
// (its redacted view, legal actions and network), the unit behind every bot reply.
func BenchmarkBotDecisionDefault4p(b *testing.B) {
	o := rules.DefaultOptions()
	bot, err := bots.New(bots.DefaultName, o, 1)
	if err != nil {
		b.Skip(err)
	}
	g, _ := rules.NewGame(o)
	// Positions from a game between default bots.
	var views []*rules.State
	var legals [][]int
	s := g.NewInitialStateSeed(5)
	for !s.IsTerminal() && len(views) < 500 {
		v := g.NewInitialState()
		s.Redact(s.CurrentPlayer(), v)
		l := s.LegalActions(nil)
		views, legals = append(views, v), append(legals, l)
		s.Apply(bot.Act(v, l))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(views)
		bot.Act(views[k], legals[k])
	}
}

// longRecord returns a record of n decisions: the first random 5-player extended game (by
// seed) that lasts that long, cut at n.
func longRecord(tb testing.TB, n int) *rules.Record {
	o := rules.DefaultOptions()
	o.Players = 5
	o.Length = rules.Extended
	g, _ := rules.NewGame(o)
	for seed := uint64(1); seed < 200; seed++ {
		s := g.NewInitialStateSeed(seed)
		rng := rand.New(rand.NewPCG(seed, 4))
		for i := 0; i < n && !s.IsTerminal(); i++ {
			l := s.LegalActions(nil)
			s.Apply(l[rng.IntN(len(l))])
		}
		if len(s.History()) == n {
			return rules.NewRecord(s, seed)
		}
	}
	tb.Fatalf("no random game lasts %d decisions", n)
	return nil
}

// BenchmarkReplayStep measures one step of the replay viewer on a 1,500-decision game,
// through the HTTP handler: rebuilding the position from the nearest snapshot, redacting it
// for a seat, drawing the board and encoding the answer.
func BenchmarkReplayStep(b *testing.B) {
	rec := longRecord(b, 1500)
	raw, err := rec.MarshalRecord()
	if err != nil {
		b.Fatal(err)
	}
	s, _ := New(Config{})
	defer s.Close()
	code, body := serve(s, "POST", "/api/replays", "", json.RawMessage(`{"record": `+string(raw)+`}`))
	if code != 200 {
		b.Fatalf("%d %s", code, body)
	}
	var info ReplayInfo
	_ = json.Unmarshal(body, &info)
	rng := rand.New(rand.NewPCG(1, 1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := rng.IntN(info.Moves + 1)
		code, body := serve(s, "GET", "/api/replays/"+info.ID+"/step/"+strconv.Itoa(n)+"?viewer=1", info.Token, nil)
		if code != 200 {
			b.Fatalf("%d %s", code, body)
		}
	}
}

// serve sends one request to the handler.
func serve(s *Server, method, path, token string, body any) (int, []byte) {
	var r *bytes.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		r = bytes.NewReader(j)
	} else {
		r = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, path, r)
	req.Host = "127.0.0.1:8080"
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set(TokenHeader, token)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	return w.Code, w.Body.Bytes()
}

// TestLoad is the bounded load test (opt-in: CONTAINER_WEB_LOAD=1, it takes about a minute):
// a real server on 127.0.0.1, 500 games at once against three `default` bots each (4
// players), every client playing a fixed number of human moves at a human pace (a random
// pause of 1 to 3 s between moves), within a fixed time limit. It checks no request fails and
// no game state is lost (every game's step count is what its client last saw), and reports
// the latency of a human move with the bots' replies (p50, p99, max), both in the server (from
// the request read to the answer written) and as the clients see it (which adds the clients'
// own work in this process: 500 goroutines decoding answers), and the memory of an idle game.
// The server-side p99 must stay under 100 ms.
func TestLoad(t *testing.T) {
	if os.Getenv("CONTAINER_WEB_LOAD") == "" {
		t.Skip("set CONTAINER_WEB_LOAD=1 to run the load test")
	}
	const (
		games    = 500
		moves    = 20
		deadline = 3 * time.Minute
	)
	s, err := New(Config{MaxSessions: games + 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	var srvLat []time.Duration
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t0 := time.Now()
		s.ServeHTTP(w, r)
		if strings.HasSuffix(r.URL.Path, "/move") {
			d := time.Since(t0)
			mu.Lock()
			srvLat = append(srvLat, d)
			mu.Unlock()
		}
	}))
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: games, MaxConnsPerHost: games}, Timeout: 30 * time.Second}
	post := func(path, token string, body any, v any) (time.Duration, error) {
		j, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", ts.URL+path, bytes.NewReader(j))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set(TokenHeader, token)
		}
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			return 0, fmt.Errorf("%s: status %d", path, res.StatusCode)
		}
		err = json.NewDecoder(res.Body).Decode(v)
		return time.Since(t0), err
	}

	// Memory of idle games: heap before and after opening them all.
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	states := make([]GameState, games)
	for i := range states {
		seed := uint64(i + 1)
		if _, err := post("/api/games", "", NewGameRequest{Players: 4, Seed: &seed, Opponents: []string{bots.DefaultName}}, &states[i]); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	perGame := float64(m1.HeapAlloc-m0.HeapAlloc) / games

	var lat []time.Duration
	var errs []error
	botMoves := 0
	stop := time.Now().Add(deadline)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range states {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			st := &states[i]
			token := st.Token
			for k := 0; k < moves && !st.Over && time.Now().Before(stop); k++ {
				time.Sleep(time.Duration(1000+rng.IntN(2000)) * time.Millisecond)
				before := st.Steps
				var next GameState
				d, err := post("/api/games/"+st.ID+"/move", token, MoveRequest{Move: chooseMove(rng, *st), Since: 1 << 30}, &next)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
					mu.Unlock()
					return
				}
				lat = append(lat, d)
				botMoves += next.Steps - before - 1
				mu.Unlock()
				next.Token = token
				*st = next
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(errs) > 0 {
		t.Fatalf("%d requests failed, the first: %v", len(errs), errs[0])
	}
	// No lost state: every game is where its client last saw it.
	for i := range states {
		g := s.games[states[i].ID]
		if g == nil || len(g.g.Log()) != states[i].Steps {
			t.Fatalf("game %d: server has %v, the client saw %d steps", i, g != nil, states[i].Steps)
		}
	}
	slices.Sort(lat)
	slices.Sort(srvLat)
	quant := func(l []time.Duration, p float64) time.Duration {
		return l[min(len(l)-1, int(p*float64(len(l))))].Round(time.Microsecond)
	}
	t.Logf("load: %d games x up to %d human moves in %v: %d requests (%.0f/s), %.1f bot decisions per request",
		games, moves, elapsed.Round(time.Millisecond), len(lat), float64(len(lat))/elapsed.Seconds(), float64(botMoves)/float64(len(lat)))
	t.Logf("load: human move + bot replies, in the server: p50 %v, p99 %v, max %v", quant(srvLat, 0.5), quant(srvLat, 0.99), quant(srvLat, 1))
	t.Logf("load: human move + bot replies, as the clients see it: p50 %v, p99 %v, max %v", quant(lat, 0.5), quant(lat, 0.99), quant(lat, 1))
	t.Logf("load: memory per idle game %.0f KiB (heap %d MiB for %d games)", perGame/1024, (m1.HeapAlloc-m0.HeapAlloc)>>20, games)
	if p99 := quant(srvLat, 0.99); p99 > 100*time.Millisecond {
		t.Errorf("server-side p99 %v exceeds 100 ms", p99)
	}
}
