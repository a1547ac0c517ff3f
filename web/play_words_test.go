package web

import (
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// A whole game through the API with every module: every offered move, amount button, log
// line and decision has its words; the seat panels follow the human's view (own card only);
// and the board of every past step (history) is the board the human was shown at that step.
func TestPlayAnswersSpeakInWordsAndHistoryShowsWhatTheHumanSaw(t *testing.T) {
	c := newTestServer(t, Config{})
	rng := rand.New(rand.NewPCG(5, 9))
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 5, Seat: 2, Opponents: []string{"random"}, Modules: "all",
		Length: "short", TurnLimit: 30, Seed: seedPtr(11)}, &st)
	token, id := st.Token, st.ID
	p := c.srv.games[id]
	shown := map[int]string{} // step -> the board drawn then, without move targets
	log := append([]LogLine{}, st.Log...)
	for n := 0; !st.Over; n++ {
		if n > 5000 {
			t.Fatal("the game does not end")
		}
		if st.Prompt == "" || st.Help == "" || !strings.Contains(st.HelpRef, ". ") {
			t.Fatalf("step %d: prompt %q, help %q (%q)", st.Steps, st.Prompt, st.Help, st.HelpRef)
		}
		for _, m := range st.Moves {
			if m.Words == "" || m.Words == m.Text {
				t.Fatalf("step %d: move %s has words %q", st.Steps, m.Text, m.Words)
			}
		}
		if a := st.Amount; a != nil {
			if len(a.Offers) == 0 || len(a.Offers) > 13 {
				t.Fatalf("step %d: %d amount buttons", st.Steps, len(a.Offers))
			}
			for _, o := range a.Offers {
				var v int
				if _, err := fmt.Sscanf(o.Text, "$%d", &v); err != nil || v < a.Min || v > a.Max || !strings.Contains(o.Words, o.Text) {
					t.Fatalf("step %d: amount button %+v outside $%d..$%d", st.Steps, o, a.Min, a.Max)
				}
			}
		}
		if len(st.Seats) != 5 {
			t.Fatalf("%d seat panels", len(st.Seats))
		}
		for _, s := range st.Seats {
			if (s.Card != "") != (s.Seat == 2) {
				t.Fatalf("step %d: seat %d shows card %q (only the human's own is known)", st.Steps, s.Seat, s.Card)
			}
		}
		view, _, err := p.historyViews(st.Steps)
		if err != nil {
			t.Fatal(err)
		}
		shown[st.Steps] = BoardSVG(p.g.View(), 2, p.names, nil)
		if again := BoardSVG(view, 2, p.names, nil); again != shown[st.Steps] {
			t.Fatalf("step %d: the history's board differs from the board shown", st.Steps)
		}
		var next GameState
		c.ok("POST", "/api/games/"+id+"/move", token, MoveRequest{Move: chooseMove(rng, st), Since: len(log)}, &next)
		log = append(log, next.Log...)
		if next.SinceStep >= 0 && next.SinceStep != st.Steps+1 {
			t.Fatalf("after step %d the board outlines changes since step %d", st.Steps, next.SinceStep)
		}
		st = next
	}
	for _, l := range log {
		if l.Words == "" {
			t.Fatalf("log line %+v has no words", l)
		}
	}
	// Every past step through the API: one scoring card drawn (the human's), the move that
	// led there in words, and a step outside the game refused.
	for n := 0; n <= st.Steps; n += 1 + st.Steps/40 {
		var h HistoryStep
		c.ok("GET", fmt.Sprintf("/api/games/%s/history/%d", id, n), token, nil, &h)
		if h.Step != n || strings.Count(h.SVG, "Card ") != 1 || (n > 0) != (h.Line != "") {
			t.Fatalf("history %d: step %d, %d cards, line %q", n, h.Step, strings.Count(h.SVG, "Card "), h.Line)
		}
	}
	c.wantStatus(http.StatusBadRequest, "GET", fmt.Sprintf("/api/games/%s/history/%d", id, st.Steps+1), token, nil)
	c.wantStatus(http.StatusBadRequest, "GET", "/api/games/"+id+"/history/x", token, nil)
	c.wantStatus(http.StatusUnauthorized, "GET", "/api/games/"+id+"/history/0", "", nil)
}

// checkCargoWords checks one answer of a play session: a delivery auction's question and the
// words of its bid, accept, buy-out and tie-break moves name the cargo on the deliverer's
// ship (the history of that step asks the same), as do the log lines of delivery bids
// (another seat's sealed bid included). It returns how many questions and bid lines it
// checked.
func checkCargoWords(t *testing.T, p *playSession, st GameState) (asks, bids int) {
	t.Helper()
	if !st.Over && play.DeliveryPhase(phaseOf(st.Phase)) {
		want := "cargo (" + cargoWords(p.g.View().Players[st.Active].Ship) + ")"
		if !strings.Contains(st.Prompt, want) {
			t.Fatalf("step %d: %s asks %q, not naming the %s", st.Steps, st.Phase, st.Prompt, want)
		}
		offers := st.Moves
		if st.Amount != nil {
			offers = append(offers, st.Amount.Offers...)
		}
		for _, m := range offers {
			if (m.Text[0] == '$' || m.Text == "yes" || m.Text == "no" || strings.HasPrefix(m.Text, "seat:")) && !strings.Contains(m.Words, want) {
				t.Fatalf("step %d: %s move %s reads %q, not naming the %s", st.Steps, st.Phase, m.Text, m.Words, want)
			}
		}
		if h, err := p.history(st.Steps); err != nil || h.Prompt != st.Prompt {
			t.Fatalf("step %d: the history asks %q (%v), the game asked %q", st.Steps, h.Prompt, err, st.Prompt)
		}
		asks++
	}
	for _, l := range st.Log {
		bid := strings.HasPrefix(l.Text, "$") || l.Text == "sealed bid" // not a loan taken meanwhile
		if l.Step >= 0 && bid && (l.Phase == rules.PhaseDeliveryBid.String() || l.Phase == rules.PhaseRunoffBid.String()) {
			if !namedCargo.MatchString(l.Words) {
				t.Fatalf("delivery bid line %+v does not name the cargo", l)
			}
			bids++
		}
	}
	return asks, bids
}

var namedCargo = regexp.MustCompile(`cargo \(\d+ [a-z]+(, \d+ [a-z]+)*\)`)

// cargoWords lists containers by colour in colour order, the way the words name a cargo:
// "1 white, 2 red".
func cargoWords(c rules.Counts) string {
	var parts []string
	for col := rules.Colour(0); col < rules.NumColours; col++ {
		if c[col] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[col], col))
		}
	}
	return strings.Join(parts, ", ")
}

// A replay's delivery auctions name their cargo: the prompt of every delivery decision (for
// the whole game and for each seat's view), and the log line of every bid, accept, buy-out
// and tie-break, a bid's sealed words too.
func TestReplayDeliveryWordsNameTheCargo(t *testing.T) {
	rec := writeRecord(t, "", 4, 6)
	x, err := newReplay(rec, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	_, err = rec.Replay(func(n int, s *rules.State, m rules.Move) {
		d := s.Decision()
		if !play.DeliveryPhase(d.Phase) {
			return
		}
		want := "cargo (" + cargoWords(s.Players[s.Active].Ship) + ")"
		l := x.info.Log[n]
		switch m.Kind {
		case rules.Amount, rules.Yes, rules.No, rules.ChooseSeat: // the auction's moves, not a loan taken meanwhile
			if !strings.Contains(l.Words, want) {
				t.Fatalf("step %d: %s line reads %q, not naming the %s", n, d.Phase, l.Words, want)
			}
			if play.SealedPhase(d.Phase) && !strings.Contains(l.Sealed, want) {
				t.Fatalf("step %d: sealed %s line reads %q, not naming the %s", n, d.Phase, l.Sealed, want)
			}
		}
		for viewer := -1; viewer < 4; viewer++ {
			step, err := x.step(n, viewer)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(step.Prompt, want) {
				t.Fatalf("step %d, viewer %d: %s asks %q, not naming the %s", n, viewer, d.Phase, step.Prompt, want)
			}
		}
		asked++
	})
	if err != nil {
		t.Fatal(err)
	}
	if asked == 0 {
		t.Fatal("no delivery auction in the game")
	}
}

// The board outlines what changed since the human's last move: a seat whose cash changed gets
// its difference written, and an unchanged position outlines nothing.
func TestBoardOutlinesWhatChanged(t *testing.T) {
	g, err := rules.NewGame(rules.Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(1)
	before := s.Clone()
	if got := BoardSVGChanges(s, 0, nil, nil, before); strings.Contains(got, `class="changed"`) {
		t.Fatal("an unchanged position outlines changes")
	}
	s.Players[1].Cash += 3
	s.Players[2].Island[rules.Red]++
	got := BoardSVGChanges(s, 0, nil, nil, before)
	if !strings.Contains(got, ">+$3<") {
		t.Error("p2's cash change is not written")
	}
	if n := strings.Count(got, `class="changed"`); n != 2 {
		t.Errorf("%d regions outlined, want 2 (p2's cash, p3's island)", n)
	}
}

// In a 5-player game with every module, long bot names and two loans on every seat, every
// text of a seat's panel stays inside the panel (widths estimated at 0.53 em a character and
// 0.57 em bold, what the test browser measures for system-ui; the browser test checks the
// drawn widths too).
func TestSeatPanelTextsFitTheirPanel(t *testing.T) {
	o := rules.DefaultOptions()
	o.Players, o.Modules = 5, rules.AllModules
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(3)
	names := make([]string, 5)
	for i := range s.Players[:5] {
		names[i] = "valuer (default has no model for these options)"
		p := &s.Players[i]
		p.NumLoans = 2
		p.Loans[0] = rules.Loan{Lender: int8((i + 1) % 5), Amount: 17}
		p.Loans[1] = rules.Loan{Lender: -1, Amount: 10}
		p.Cash = 123
	}
	prev := s.Clone()
	prev.Players[1].Cash = 7 // a cash change badge in p2's header
	svg := BoardSVGChanges(s, 0, names, nil, prev)
	panel := regexp.MustCompile(`<g data-seat="p\d"><rect x="(\d+)" y="\d+" width="(\d+)"`)
	text := regexp.MustCompile(`<text x="(\d+)" y="\d+" font-size="(\d+)" font-weight="(\w+)" text-anchor="start"[^>]*>([^<]*)</text>`)
	parts := strings.Split(svg, `<g data-seat=`)[1:]
	if len(parts) != 5 {
		t.Fatalf("%d seat panels", len(parts))
	}
	for i, part := range parts {
		m := panel.FindStringSubmatch(`<g data-seat=` + part)
		if m == nil {
			t.Fatalf("panel %d has no box", i)
		}
		right := atoi(t, m[1]) + atoi(t, m[2])
		for _, tm := range text.FindAllStringSubmatch(part, -1) {
			em := 0.53
			if tm[3] == "bold" {
				em = 0.57
			}
			w := float64(len([]rune(html.UnescapeString(tm[4])))) * em * float64(atoi(t, tm[2]))
			if float64(atoi(t, tm[1]))+w > float64(right) {
				t.Errorf("p%d: %q (about %.0f px from x %s) passes the panel's right edge %d", i+1, tm[4], w, tm[1], right)
			}
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
