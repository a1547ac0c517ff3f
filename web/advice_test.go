package web

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// A seat's view only ever asks a bot about that seat's own decisions, and the bot asked sees
// only the deciding seat's redacted view.

// askProbe is a bot that records the views it is asked about (and plays the first legal move).
type askProbe struct {
	mu    sync.Mutex
	views []askSeen
}

type askSeen struct {
	decider   int
	seesCards []int // seats other than the decider whose scoring card the view shows
}

var probe = &askProbe{}

func init() {
	err := bots.Register("test-ask-probe", "records what ask shows it (web tests)", func(rules.Options, uint64) (bots.Bot, error) {
		return probeBot{}, nil
	})
	if err != nil {
		panic(err)
	}
}

type probeBot struct{}

func (probeBot) Name() string { return "test-ask-probe" }

func (probeBot) Act(view *rules.State, legal []int) int {
	s := askSeen{decider: view.CurrentPlayer()}
	for i := 0; i < view.Game().Options().Players; i++ {
		if i != s.decider && view.Players[i].Card != rules.Unknown {
			s.seesCards = append(s.seesCards, i)
		}
	}
	probe.mu.Lock()
	probe.views = append(probe.views, s)
	probe.mu.Unlock()
	return legal[0]
}

func (p *askProbe) take() []askSeen {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.views
	p.views = nil
	return v
}

// In a replay seen from seat v, a bot may be asked about a step only when v decides there
// (seat 0 included); the whole game (-1) of a finished record may ask about any step; the
// answer names the deciding seat and the bot saw that seat's view only. Every step of a
// record is tried from every viewer.
func TestReplayAskOnlyAboutTheViewersOwnDecisions(t *testing.T) {
	data := t.TempDir()
	rec := writeRecord(t, filepath.Join(data, "g.json"), 4, 9)
	// The same game cut short (unfinished: no whole-game view).
	short := *rec
	short.Moves = rec.Moves[:120]
	st, err := short.Replay(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rules.NewRecord(st, rec.Seed).MarshalRecord()
	if err := os.WriteFile(filepath.Join(data, "short.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	deciders := make([]int, 0, len(rec.Moves))
	if _, err := rec.Replay(func(i int, s *rules.State, m rules.Move) { deciders = append(deciders, s.CurrentPlayer()) }); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	var full, cut ReplayInfo
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "g.json"}, &full)
	c.ok("POST", "/api/replays", "", OpenReplayRequest{Path: "short.json"}, &cut)
	probe.take()
	asked := [4]int{}
	for step := 0; step < len(rec.Moves); step += 3 {
		d := deciders[step]
		for _, x := range []ReplayInfo{full, cut} {
			if step >= x.Moves {
				continue
			}
			for v := 0; v < 4; v++ {
				req := AskRequest{Bot: "test-ask-probe", Step: step, Viewer: v}
				if v != d {
					msg := c.wantStatus(http.StatusForbidden, "POST", "/api/replays/"+x.ID+"/ask", x.Token, req)
					if want := fmt.Sprintf("p%d decides here; from p%d's view a bot can be asked only about p%d's own", d+1, v+1, v+1); !strings.Contains(msg, want) {
						t.Fatalf("step %d viewer %d: %q, want it to say %q", step, v, msg, want)
					}
					if got := probe.take(); len(got) != 0 {
						t.Fatalf("step %d viewer %d: a refused ask still asked the bot", step, v)
					}
					continue
				}
				var a AskAnswer
				c.ok("POST", "/api/replays/"+x.ID+"/ask", x.Token, req, &a)
				if a.Seat != d {
					t.Fatalf("step %d viewer %d: the answer is for seat %d", step, v, a.Seat)
				}
				asked[v]++
				checkProbe(t, d, "replay step")
			}
		}
		var a AskAnswer
		c.ok("POST", "/api/replays/"+full.ID+"/ask", full.Token, AskRequest{Bot: "test-ask-probe", Step: step, Viewer: -1}, &a)
		if a.Seat != d {
			t.Fatalf("step %d, whole game: the answer is for seat %d, the decider is %d", step, a.Seat, d)
		}
		checkProbe(t, d, "whole-game replay step")
		c.wantStatus(http.StatusForbidden, "POST", "/api/replays/"+cut.ID+"/ask", cut.Token, AskRequest{Bot: "test-ask-probe", Step: min(step, cut.Moves), Viewer: -1})
	}
	for v, n := range asked {
		if n == 0 {
			t.Errorf("seat %d was never asked about: the test proves little for it", v)
		}
	}
	// Steps outside the record; the last position has no decision.
	for _, step := range []int{-1, full.Moves + 1, full.Moves + 1000} {
		c.wantStatus(http.StatusBadRequest, "POST", "/api/replays/"+full.ID+"/ask", full.Token, AskRequest{Bot: "test-ask-probe", Step: step, Viewer: -1})
	}
	c.wantStatus(http.StatusConflict, "POST", "/api/replays/"+full.ID+"/ask", full.Token, AskRequest{Bot: "test-ask-probe", Step: full.Moves, Viewer: -1})
	for _, v := range []int{-2, 4, 99} {
		c.wantStatus(http.StatusBadRequest, "POST", "/api/replays/"+full.ID+"/ask", full.Token, AskRequest{Bot: "test-ask-probe", Step: 1, Viewer: v})
	}
}

// checkProbe checks the probe was asked exactly once, about seat d's decision, on d's view.
func checkProbe(t *testing.T, d int, where string) {
	t.Helper()
	got := probe.take()
	if len(got) != 1 || got[0].decider != d || len(got[0].seesCards) != 0 {
		t.Fatalf("%s: the bot was asked %+v; want once, about seat %d, seeing no other seat's card", where, got, d)
	}
}

// In a game, asking is about the human's own decision and the bot sees the human's view.
func TestGameAskIsAboutTheHumansDecisionOnTheHumansView(t *testing.T) {
	for _, seat := range []int{0, 2} {
		c := newTestServer(t, Config{})
		var st GameState
		c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Seat: seat, Opponents: []string{"valuer"}, Seed: seedPtr(3)}, &st)
		probe.take()
		for k := 0; k < 30 && !st.Over; k++ {
			var a AskAnswer
			c.ok("POST", "/api/games/"+st.ID+"/ask", st.Token, GameAskRequest{Bot: "test-ask-probe"}, &a)
			if a.Seat != seat {
				t.Fatalf("move %d: the answer is for seat %d, the human is %d", k, a.Seat, seat)
			}
			checkProbe(t, seat, "game")
			c.ok("POST", "/api/games/"+st.ID+"/move", st.Token, MoveRequest{Move: a.Move}, &st)
		}
	}
}
