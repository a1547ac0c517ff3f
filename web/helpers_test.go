package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

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
