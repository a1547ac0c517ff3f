package web

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// plural is "1 truck", "2 trucks".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// checkAnswer compares a play answer, and the log the client has gathered, with the engine's
// own account of the game: turn and step counts, who decides, every log line against the
// move it reports, the sealed-bid reveal lines, every seat's panel, and which step the
// board's outlines start from (sinceStep, -1 for none).
func checkAnswer(t *testing.T, p *playSession, st GameState, log []LogLine, sinceStep int) {
	t.Helper()
	state, view, events := p.g.State(), p.g.View(), p.g.Log()
	over := view.IsTerminal()
	if st.Turn != int(state.Turn)+1 || st.Steps != len(events) || st.Over != over || st.Active != int(view.Active) {
		t.Fatalf("turn %d steps %d over %v active %d; engine: turn %d (shown from 1), %d moves, over %v, active %d",
			st.Turn, st.Steps, st.Over, st.Active, state.Turn, len(events), over, view.Active)
	}
	decider := -1
	if !over {
		decider = view.Decision().Decider
	}
	if st.Decider != decider {
		t.Fatalf("decider %d, engine %d", st.Decider, decider)
	}
	if st.SinceStep != sinceStep {
		t.Fatalf("board outlines from step %d, want %d", st.SinceStep, sinceStep)
	}
	// Every move has its line, in order; a move that closed a sealed round is followed by the
	// reveal line, and no other line is a reveal.
	if len(log) != st.LogLen {
		t.Fatalf("client log %d lines, answer says %d", len(log), st.LogLen)
	}
	next := 0
	for i := 0; i < len(log); i++ {
		l := log[i]
		if l.Step != next {
			t.Fatalf("line %d is step %d, want step %d: %+v", i, l.Step, next, l)
		}
		ev := events[l.Step]
		if l.Turn != int(ev.Turn)+1 || l.Seat != ev.Decider || l.Phase != ev.Phase.String() {
			t.Fatalf("line %d %+v; engine: turn %d, seat %d, phase %s", i, l, ev.Turn, ev.Decider, ev.Phase)
		}
		next++
		if len(ev.Revealed) == 0 {
			continue
		}
		i++
		if i == len(log) {
			t.Fatalf("step %d closed a sealed round but no reveal line follows", l.Step)
		}
		r := log[i]
		bids := make([]string, len(ev.Revealed))
		for k, e := range ev.Revealed {
			bids[k] = fmt.Sprintf("p%d $%d", e.Decider+1, e.Move.Amount)
		}
		want := LogLine{Step: -1, Turn: int(ev.Revealed[0].Turn) + 1, Seat: -1, Phase: ev.Revealed[0].Phase.String(),
			Text: "sealed bids revealed: " + strings.Join(bids, ", "), Words: "Sealed bids revealed: " + strings.Join(bids, ", ")}
		if r != want {
			t.Fatalf("reveal line %+v, want %+v", r, want)
		}
	}
	if next != len(events) {
		t.Fatalf("the log has lines for %d moves, the engine %d", next, len(events))
	}
	checkSeats(t, p, st.Seats, decider)
}

func checkSeats(t *testing.T, p *playSession, seats []SeatInfo, decider int) {
	t.Helper()
	view, human := p.g.View(), p.g.Human()
	o, over := view.Game().Options(), view.IsTerminal()
	if len(seats) != o.Players {
		t.Fatalf("%d seat panels for %d players", len(seats), o.Players)
	}
	scores := view.Scores()
	for s, si := range seats {
		pl := &view.Players[s]
		known := int(pl.Card) < rules.NumScoringCards
		if si.Seat != s || si.Name != p.names[s] || si.You != (s == human) || si.Deciding != (s == decider) ||
			si.Active != (s == int(view.Active) && !over) || si.Cash != int(pl.Cash) || si.Island != pl.Island.Total() ||
			si.Now != scores[s] || si.IslandKnown != known {
			t.Fatalf("seat %d panel %+v; engine: cash %d, island %d, decider %d, active %d, over %v", s, si, pl.Cash,
				pl.Island.Total(), decider, view.Active, over)
		}
		if wantCard := known && (s == human || over); (si.Card != "") != wantCard || (wantCard && si.Card != cardWords(int(pl.Card))) {
			t.Fatalf("seat %d (you: seat %d, over %v) shows card %q", s, human, over, si.Card)
		}
		if len(si.Loans) != int(pl.NumLoans) {
			t.Fatalf("seat %d shows %d loans, has %d", s, len(si.Loans), pl.NumLoans)
		}
		for l, li := range si.Loans {
			want := LoanInfo{Lender: "Bank", Amount: int(pl.Loans[l].Amount)}
			if pl.Loans[l].Lender >= 0 {
				want.Lender = fmt.Sprintf("p%d", pl.Loans[l].Lender+1)
			}
			if li != want {
				t.Fatalf("seat %d loan %d shown %+v, want %+v", s, l, li, want)
			}
		}
		ship := map[rules.Where]string{rules.AtOcean: "at sea", rules.AtIsland: "at Container Island", rules.AtBank: "at the Bank"}[pl.ShipAt.Where]
		if pl.ShipAt.Where == rules.AtHarbor {
			ship = fmt.Sprintf("at p%d's harbor", pl.ShipAt.Seat+1)
		}
		if si.Ship != ship {
			t.Fatalf("seat %d ship %q, want %q", s, si.Ship, ship)
		}
		var extra []string
		if o.Modules.Has(rules.Trucks) {
			extra = append(extra, plural(int(pl.Trucks), "truck"))
		}
		if o.Modules.Has(rules.PlayerLoans) {
			extra = append(extra, plural(int(pl.LoanCards), "loan card"))
		}
		if si.Extra != strings.Join(extra, " · ") {
			t.Fatalf("seat %d extra %q, want %q", s, si.Extra, strings.Join(extra, " · "))
		}
	}
}

// checkHistory compares the history answer for step n with the position replayed here from
// the seed: its turn, the pending decision, the line of the move that led there (as the log
// shows it) and the board with that move's changes outlined.
func checkHistory(t *testing.T, p *playSession, log []LogLine, n int) {
	t.Helper()
	h, err := p.history(n)
	if err != nil {
		t.Fatalf("history %d: %v", n, err)
	}
	human := p.g.Human()
	s := p.g.State().Game().NewInitialStateSeed(p.g.Seed())
	var prev *rules.State
	for i, ev := range p.g.Log()[:n] {
		if i == n-1 {
			prev = s.Clone()
			s.Redact(human, prev)
		}
		if err := s.ApplyMoveChecked(ev.Move); err != nil {
			t.Fatal(err)
		}
	}
	view := s.Clone()
	s.Redact(human, view)
	want := HistoryStep{Step: n, Turn: int(view.Turn) + 1, Phase: "game over", Decider: -1, Prompt: "The game is over", Seat: -1}
	if !view.IsTerminal() {
		d := view.Decision()
		want.Phase, want.Decider, want.Prompt = d.Phase.String(), d.Decider, play.Words{Viewer: human}.Ask(play.ContextAt(view))
	}
	for _, l := range log {
		if n > 0 && l.Step == n-1 {
			want.Line, want.Seat = l.Words, l.Seat
		}
	}
	want.SVG = BoardSVGChanges(view, human, p.names, nil, prev)
	if h.SVG != want.SVG {
		t.Fatalf("history %d: the board differs from the replayed position's", n)
	}
	h.SVG, want.SVG = "", ""
	if h != want {
		t.Fatalf("history %d:\n got %+v\nwant %+v", n, h, want)
	}
}

// TestPlayAnswersAgreeWithTheEngine plays whole games through the API and checks every
// answer (turn, decider, the log and its reveal lines, the seat panels, where the board's
// outlines start) and sampled history steps against the engine's own state.
func TestPlayAnswersAgreeWithTheEngine(t *testing.T) {
	reveals, loans, harbors := 0, 0, 0
	for _, tc := range []struct {
		players int
		variant string
		modules string
		bots    []string
		seed    uint64
	}{
		{4, "", "all", []string{"random"}, 11},
		{5, "", "player-loans", []string{"manufacturer", "random", "shipper", "random"}, 12},
		{3, "classic", "", []string{"random"}, 13},
	} {
		t.Run(fmt.Sprintf("%dp-%s-%s", tc.players, tc.variant, tc.modules), func(t *testing.T) {
			c := newTestServer(t, Config{})
			rng := rand.New(rand.NewPCG(tc.seed, 5))
			var st GameState
			c.ok("POST", "/api/games", "", NewGameRequest{Players: tc.players, Seat: 2, Opponents: tc.bots, Variant: tc.variant,
				Modules: tc.modules, Length: "short", TurnLimit: 30, Seed: seedPtr(tc.seed)}, &st)
			p := c.srv.games[st.ID]
			log := append([]LogLine{}, st.Log...)
			checkAnswer(t, p, st, log, -1) // nothing of the human's yet: no outlines
			for moves := 0; !st.Over; moves++ {
				if moves > 5000 {
					t.Fatal("the game does not end")
				}
				var next GameState
				c.ok("POST", "/api/games/"+st.ID+"/move", p.token, MoveRequest{Move: chooseMove(rng, st), Since: len(log)}, &next)
				log = append(log, next.Log...)
				mine := -1 // the step of the human's move just played
				for _, l := range log {
					if l.Seat == p.g.Human() {
						mine = l.Step
					}
				}
				since := -1
				if next.Steps > mine+1 {
					since = mine + 1 // the bots' replies are outlined, from the human's move on
				}
				checkAnswer(t, p, next, log, since)
				if moves%7 == 0 {
					checkHistory(t, p, log, next.Steps)
					checkHistory(t, p, log, rng.IntN(next.Steps+1))
				}
				st = next
			}
			checkHistory(t, p, log, 0)
			checkHistory(t, p, log, 1)
			checkHistory(t, p, log, st.Steps)
			for _, l := range log {
				if l.Step < 0 {
					reveals++
				}
			}
			for _, si := range st.Seats {
				loans += len(si.Loans)
				if strings.Contains(si.Ship, "harbor") {
					harbors++
				}
			}
			for _, e := range p.g.Log() {
				if e.Move.Kind == rules.SailHarbor {
					harbors++
				}
			}
		})
	}
	if !t.Failed() && (reveals == 0 || loans == 0 || harbors == 0) {
		t.Errorf("%d reveal lines, %d loans, %d harbor visits: part of the answers went unchecked", reveals, loans, harbors)
	}
}

// TestUndoRebuildsTheLog checks undo takes the move's line out of the log and the outlines
// off the board.
func TestUndoRebuildsTheLog(t *testing.T) {
	c := newTestServer(t, Config{})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Seat: 0, Opponents: []string{"random"}, Seed: seedPtr(8)}, &st)
	p := c.srv.games[st.ID]
	for !st.YourMove || st.Phase != "turn" {
		c.ok("POST", "/api/games/"+st.ID+"/move", p.token, MoveRequest{Move: st.Moves[0].Text}, &st)
	}
	var all, after, undone GameState
	c.ok("GET", "/api/games/"+st.ID, p.token, nil, &all)
	c.ok("POST", "/api/games/"+st.ID+"/move", p.token, MoveRequest{Move: "produce"}, &after)
	if after.LogLen != all.LogLen+1 {
		t.Fatalf("produce: %d log lines, want %d", after.LogLen, all.LogLen+1)
	}
	c.ok("POST", "/api/games/"+st.ID+"/undo", p.token, nil, &undone)
	if undone.LogLen != all.LogLen || !reflect.DeepEqual(undone.Log, all.Log) || undone.SinceStep != -1 {
		t.Fatalf("after undo: %d lines (want %d), outlines from %d (want -1)", undone.LogLen, all.LogLen, undone.SinceStep)
	}
}

// TestWebGameIsTheGameContainerPlayPlays checks the bots of a seeded web game are seeded as
// `container play --seed` seeds them (seed + seat + 1), so the same choices give the same game;
// also "default" where it falls back to the valuer (short games have no model).
func TestWebGameIsTheGameContainerPlayPlays(t *testing.T) {
	for _, tc := range []struct{ web, direct string }{{"random", "random"}, {"default", "valuer"}} {
		t.Run(tc.web, func(t *testing.T) { checkSameGameAsContainerPlay(t, tc.web, tc.direct) })
	}
}

func checkSameGameAsContainerPlay(t *testing.T, web, direct string) {
	const seed = 21
	c := newTestServer(t, Config{})
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 4, Seat: 1, Opponents: []string{web}, Length: "short", Seed: seedPtr(seed)}, &st)
	p := c.srv.games[st.ID]
	opts := p.opts
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]bots.Bot, opts.Players)
	for s := range players {
		if s != 1 {
			if players[s], err = bots.New(direct, opts, seed+uint64(s)+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	dg, err := play.New(g, seed, 1, players)
	if err != nil {
		t.Fatal(err)
	}
	if err := dg.RunBots(nil); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 40 && !st.Over; n++ {
		mv := st.Moves[0].Text
		if st.Amount != nil {
			mv = st.Amount.Offers[0].Text
		}
		m, err := dg.View().ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dg.Play(m); err != nil {
			t.Fatal(err)
		}
		if err := dg.RunBots(nil); err != nil {
			t.Fatal(err)
		}
		var next GameState // a fresh answer: fields it leaves out must not stay from the last one
		c.ok("POST", "/api/games/"+st.ID+"/move", p.token, MoveRequest{Move: mv}, &next)
		st = next
	}
	a, b := p.g.Log(), dg.Log()
	if len(a) != len(b) {
		t.Fatalf("web game %d moves, container play's %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Move != b[i].Move || a[i].Decider != b[i].Decider {
			t.Fatalf("move %d: web %v by p%d, container play %v by p%d", i, a[i].Move, a[i].Decider+1, b[i].Move, b[i].Decider+1)
		}
	}
}

// TestNewGameOptions checks what a new game accepts and refuses, and the options line it shows.
func TestNewGameOptions(t *testing.T) {
	c := newTestServer(t, Config{})
	for _, tc := range []struct {
		req  NewGameRequest
		want string // the options line, or the error
		code int
	}{
		{NewGameRequest{Players: 3, Length: "short"}, "3 players, base rules, short game", 200},
		{NewGameRequest{Players: 4, Variant: "classic", Modules: "none"}, "4 players, classic rules, standard game", 200},
		{NewGameRequest{Players: 4, Modules: "trucks"}, "4 players, base rules, standard game, modules trucks", 200},
		{NewGameRequest{Players: 3, TurnLimit: 10000}, "3 players, base rules, standard game, turn limit 10000", 200},
		{NewGameRequest{Players: 3, TurnLimit: rules.DefaultTurnLimit}, "3 players, base rules, standard game", 200},
		{NewGameRequest{Players: 3, TurnLimit: 10001}, "turn limit 10001 is outside 0..10000", 400},
		{NewGameRequest{Players: 3, Length: "forever"}, "length", 400},
		{NewGameRequest{Players: 3, Modules: "submarines"}, "submarines", 400},
		{NewGameRequest{Players: 3, Seat: 3}, "seat 3 is outside 0..2", 400},
		{NewGameRequest{Players: 5, Seat: -1}, "seat -1 is outside 0..4", 400},
		{NewGameRequest{Players: 4, Opponents: []string{"random", "random"}}, "2 opponents named; want 1 or 3", 400},
	} {
		code, out := c.do("POST", "/api/games", "", tc.req)
		if code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("%+v: status %d %.200s; want %d and %q", tc.req, code, out, tc.code, tc.want)
		}
	}
	// One opponent named plays every other seat; players-1 named play them in seat order.
	var st GameState
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 5, Seat: 4, Opponents: []string{"random"}}, &st)
	if want := []string{"random", "random", "random", "random", "you"}; !reflect.DeepEqual(st.Names, want) {
		t.Errorf("names %q, want %q", st.Names, want)
	}
	c.ok("POST", "/api/games", "", NewGameRequest{Players: 3, Seat: 1, Opponents: []string{"shipper", "random"}}, &st)
	if want := []string{"shipper", "you", "random"}; !reflect.DeepEqual(st.Names, want) {
		t.Errorf("names %q, want %q", st.Names, want)
	}
}

// TestBotFilesFromTheDataDirectory checks a .bot opponent must be a regular file: a directory
// so named is refused as such, and a regular file reaches the loader (whose error a broken
// file gets).
func TestBotFilesFromTheDataDirectory(t *testing.T) {
	data := t.TempDir()
	if err := os.Mkdir(filepath.Join(data, "dir.bot"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "junk.bot"), []byte("not a bot"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestServer(t, Config{DataDir: data})
	msg := c.wantStatus(http.StatusBadRequest, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"dir.bot"}})
	if msg != `"dir.bot" is not a regular file` {
		t.Errorf("a directory named .bot: %q", msg)
	}
	msg = c.wantStatus(http.StatusBadRequest, "POST", "/api/games", "", NewGameRequest{Players: 3, Opponents: []string{"junk.bot"}})
	if strings.Contains(msg, "regular file") || !strings.Contains(msg, "junk.bot") {
		t.Errorf("a broken .bot file: %q (want the loader's error)", msg)
	}
}

func TestAmountOffers(t *testing.T) {
	seq := func(lo, hi int) []int {
		var out []int
		for a := lo; a <= hi; a++ {
			out = append(out, a)
		}
		return out
	}
	for _, tc := range []struct {
		lo, hi int
		want   []int
	}{
		{3, 3, []int{3}},
		{0, 12, seq(0, 12)},
		{10, 15, seq(10, 15)},                         // up to 13 amounts: all of them
		{0, 13, append(seq(0, 8), 9, 13)},             // the first quarters are among the lowest nine
		{0, 16, append(seq(0, 8), 12, 16)},            // the half is $8, already offered
		{5, 105, append(seq(5, 13), 30, 55, 80, 105)}, // the lowest nine, the quarters, the highest
		{10, 50, append(seq(10, 18), 20, 30, 40, 50)}, // quarters from the lowest
		{0, 1000, append(seq(0, 8), 250, 500, 750, 1000)},
	} {
		if got := amountOffers(tc.lo, tc.hi); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("amountOffers(%d, %d) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestCardWords(t *testing.T) {
	for card := 0; card < rules.NumScoringCards; card++ {
		vals, two, ok := rules.ScoringCardValues(card)
		if !ok {
			t.Fatalf("card %d has no values", card)
		}
		got := cardWords(card)
		if !strings.HasPrefix(got, fmt.Sprintf("card %d: ", card)) || strings.Count(got, "$") != int(rules.NumNormalColours)+1 {
			t.Errorf("card %d: %q", card, got)
		}
		for c := rules.Colour(0); c < rules.NumNormalColours; c++ {
			want := fmt.Sprintf("%s $%d", c, vals[c])
			if c == two {
				want += fmt.Sprintf(" ($%d without all colours)", rules.TwoValueLow)
			}
			if !strings.Contains(got, want) {
				t.Errorf("card %d: %q lacks %q", card, got, want)
			}
		}
	}
	if got := cardWords(rules.NumScoringCards); got != "" {
		t.Errorf("no such card: %q", got)
	}
}

func TestScoreRowsWithMissingNames(t *testing.T) {
	o := rules.DefaultOptions()
	o.Players, o.Seed = 3, 4
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialState()
	rows := scoreRows(s, []string{"you", "valuer"})
	if len(rows) != 3 || rows[0].Name != "you" || rows[1].Name != "valuer" || rows[2].Name != "" {
		t.Fatalf("rows %+v", rows)
	}
	for i, r := range rows {
		if r.Seat != i || r.Card != int(s.Players[i].Card) {
			t.Errorf("row %d: %+v", i, r)
		}
	}
}

// TestSeatPanelsNameEveryLender checks a loan's lender reads "Bank" for the Off-Shore Bank and
// pN for a player, seat 0 (p1) included, and a ship in seat 0's harbor reads p1's.
func TestSeatPanelsNameEveryLender(t *testing.T) {
	o := rules.DefaultOptions()
	o.Players, o.Seed = 3, 2
	o.Modules = rules.PlayerLoans
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialState()
	p := &s.Players[2]
	p.NumLoans = 2
	p.Loans[0] = rules.Loan{Lender: -1, Amount: 10}
	p.Loans[1] = rules.Loan{Lender: 0, Amount: 13}
	p.ShipAt = rules.ShipPos{Where: rules.AtHarbor, Seat: 0}
	si := seatInfos(s, 2, []string{"a", "b", "you"})[2]
	if want := []LoanInfo{{"Bank", 10}, {"p1", 13}}; !reflect.DeepEqual(si.Loans, want) || si.Ship != "at p1's harbor" {
		t.Fatalf("loans %+v ship %q; want %+v at p1's harbor", si.Loans, si.Ship, want)
	}
}
