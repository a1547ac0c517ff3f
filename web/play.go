package web

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// A play session: one human seat against bots. Every answer for the human is built from the
// human's redacted view (board, legal moves) and from a move log in which other seats' sealed
// bids stay sealed until their bidding round closes.

// NewGameRequest asks for a game against bots.
type NewGameRequest struct {
	Players   int      `json:"players"`
	Seat      int      `json:"seat"`
	Opponents []string `json:"opponents"` // one bot for every opponent, or players-1 in seat order skipping the human
	Variant   string   `json:"variant"`   // base (default) or classic
	Length    string   `json:"length"`    // short, standard (default), extended
	Modules   string   `json:"modules"`   // comma-separated modules, or all
	TurnLimit int      `json:"turn_limit"`
	Seed      *uint64  `json:"seed"` // nil: a random seed
}

// LogLine is one line of a move log as a seat may read it.
type LogLine struct {
	Step  int    `json:"step"` // index of the move (-1 for a line that is not a move)
	Turn  int    `json:"turn"`
	Seat  int    `json:"seat"` // decider (-1 for a line that is not a move)
	Phase string `json:"phase"`
	Text  string `json:"text"`  // the notation ("sealed bid" for another seat's sealed bid)
	Words string `json:"words"` // the move in words, as the human may read it
}

// MoveChoice is one legal move offered to the human.
type MoveChoice struct {
	Text  string `json:"text"`  // the notation, sent back to play it
	Words string `json:"words"` // the move in words
}

// AmountChoice describes the legal amounts of an amount decision.
type AmountChoice struct {
	Min    int  `json:"min"`
	Max    int  `json:"max"`
	Sealed bool `json:"sealed"` // a sealed bid: the others see it when every bid is in
	// Offers are amounts offered as buttons: every one of a small range, a spread of a large
	// one (any other amount in range may be played too).
	Offers []MoveChoice `json:"offers"`
}

// SeatInfo is one seat's standing as the human may know it: everything public, the human's
// own scoring card, and a score "if the game ended now" computed on the human's redacted
// view (another seat's island is worth an unknown amount: its card is hidden).
type SeatInfo struct {
	Seat     int        `json:"seat"`
	Name     string     `json:"name"`
	You      bool       `json:"you"`
	Active   bool       `json:"active"`   // whose turn it is
	Deciding bool       `json:"deciding"` // who decides now
	Cash     int        `json:"cash"`
	Loans    []LoanInfo `json:"loans"`
	Card     string     `json:"card,omitempty"` // the scoring card, the human's own only
	Island   int        `json:"island"`         // containers on the island
	Ship     string     `json:"ship"`           // where the ship is
	Extra    string     `json:"extra,omitempty"`
	// Now is the score if the game ended now, from the view: IslandKnown is false where the
	// card is hidden (the island then counts $0 in Now.Island and Now.Total).
	Now         rules.Score `json:"now"`
	IslandKnown bool        `json:"island_known"`
}

// LoanInfo is one open loan.
type LoanInfo struct {
	Lender string `json:"lender"` // "Bank" or pN
	Amount int    `json:"amount"`
}

// ScoreRow is one seat's final-scoring breakdown.
type ScoreRow struct {
	rules.Score
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Card int    `json:"card"`
}

// GameState is the human's view of a play session.
type GameState struct {
	ID       string        `json:"id"`
	Token    string        `json:"token,omitempty"` // only in the answer that creates the game
	Seat     int           `json:"seat"`
	Names    []string      `json:"names"`
	Options  string        `json:"options"`
	SVG      string        `json:"svg"`
	Turn     int           `json:"turn"`
	Steps    int           `json:"steps"`
	Phase    string        `json:"phase"`
	Decider  int           `json:"decider"`
	Active   int           `json:"active"`
	Prompt   string        `json:"prompt"`   // the pending decision in words
	Help     string        `json:"help"`     // what the decision means
	HelpRef  string        `json:"help_ref"` // the docs/RULES.md section the help comes from
	YourMove bool          `json:"your_move"`
	Moves    []MoveChoice  `json:"moves"`
	Amount   *AmountChoice `json:"amount,omitempty"`
	CanUndo  bool          `json:"can_undo"`
	LogFrom  int           `json:"log_from"` // index of Log[0] in the whole log
	Log      []LogLine     `json:"log"`
	LogLen   int           `json:"log_len"`
	Over     bool          `json:"over"`
	Scores   []ScoreRow    `json:"scores,omitempty"`
	Seats    []SeatInfo    `json:"seats"`
	// SinceStep is the step from which the board outlines what changed: the first move after
	// the human's last one (the bots' replies), -1 when nothing is outlined.
	SinceStep int `json:"since_step"`
}

type playSession struct {
	session
	opts  rules.Options
	g     *play.Game
	names []string
	lines []LogLine // the human's log: every move, other seats' sealed bids hidden until revealed
	// base is the human's view right after the human's last move, and baseStep the number
	// of moves then: the board outlines what changed since (nil: nothing to outline).
	base     *rules.State
	baseStep int
}

// scriptedFallback stands in for "default" where the trained bot has no model.
const scriptedFallback = "valuer"

// resolveBot checks a bot spec from a client: a registered name (with an optional @T), or a
// .bot file inside the data directory. It returns the spec bots.New takes and a display name.
func (s *Server) resolveBot(spec string) (string, string, error) {
	spec = strings.TrimSpace(spec)
	name, _, sampled, err := bots.SplitTemperature(spec)
	if err != nil {
		return "", "", err
	}
	if bots.IsFileName(name) {
		real, err := s.data.resolve(name)
		if err != nil {
			return "", "", err
		}
		// A named pipe would block the loader forever, a directory fails obscurely.
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
			return "", "", errorf(http.StatusBadRequest, "%q is not a regular file", name)
		}
		if sampled {
			real += spec[len(name):]
		}
		return real, filepath.Base(spec), nil
	}
	if _, ok := bots.Lookup(name); !ok {
		return "", "", errorf(http.StatusBadRequest, "unknown bot %s (GET /api/bots lists them)", rules.Quote(name))
	}
	return spec, spec, nil
}

func parseOptions(players int, variant, length, modules string, turnLimit int) (rules.Options, error) {
	o := rules.DefaultOptions()
	o.Players = players
	var err error
	if variant != "" {
		if o.Variant, err = rules.ParseVariant(variant); err != nil {
			return o, err
		}
	}
	if length != "" {
		if o.Length, err = rules.ParseLength(length); err != nil {
			return o, err
		}
	}
	if modules != "" && modules != "none" {
		if o.Modules, err = rules.ParseModules(modules); err != nil {
			return o, err
		}
	}
	if turnLimit < 0 || turnLimit > 10000 {
		return o, fmt.Errorf("turn limit %d is outside 0..10000", turnLimit)
	}
	o.TurnLimit = turnLimit
	return o, o.Validate()
}

func (s *Server) newGame(req NewGameRequest) (*playSession, error) {
	opts, err := parseOptions(req.Players, req.Variant, req.Length, req.Modules, req.TurnLimit)
	if err != nil {
		return nil, err
	}
	if req.Seat < 0 || req.Seat >= opts.Players {
		return nil, fmt.Errorf("seat %d is outside 0..%d", req.Seat, opts.Players-1)
	}
	specs := req.Opponents
	switch {
	case len(specs) == 0:
		specs = []string{bots.DefaultName}
		fallthrough
	case len(specs) == 1:
		for len(specs) < opts.Players-1 {
			specs = append(specs, specs[0])
		}
	case len(specs) != opts.Players-1:
		return nil, fmt.Errorf("%d opponents named; want 1 or %d", len(specs), opts.Players-1)
	}
	seed := rand.Uint64() >> 1
	if req.Seed != nil {
		seed = *req.Seed
	}
	opts.Seed = seed
	g, err := rules.NewGame(opts)
	if err != nil {
		return nil, err
	}
	p := &playSession{opts: g.Options(), names: make([]string, opts.Players)}
	players := make([]bots.Bot, opts.Players)
	k := 0
	for seat := 0; seat < opts.Players; seat++ {
		if seat == req.Seat {
			p.names[seat] = "you"
			continue
		}
		spec, display, err := s.resolveBot(specs[k])
		k++
		if err != nil {
			return nil, err
		}
		b, err := bots.New(spec, p.opts, seed+uint64(seat)+1)
		if err != nil && spec == bots.DefaultName {
			// As in `container play`: "default" is the trained bot where it has a model for
			// these options, else the strongest scripted bot.
			if fb, ferr := bots.New(scriptedFallback, p.opts, seed+uint64(seat)+1); ferr == nil {
				b, err, display = fb, nil, scriptedFallback+" (default has no model for these options)"
			}
		}
		if err != nil {
			return nil, err
		}
		if t, err := bots.AliasFor(spec, p.opts); err == nil && t != spec {
			display = spec + ": " + t // a level names the agent it is for these options
		}
		players[seat], p.names[seat] = b, display
	}
	if p.g, err = play.New(g, seed, req.Seat, players); err != nil {
		return nil, err
	}
	if err := p.runBots(); err != nil {
		return nil, err
	}
	return p, nil
}

// addLines appends the log lines of ev, the step-th move: its own line, hiding another
// seat's sealed bid, and a line revealing the bids of a round it closed.
func (p *playSession) addLines(step int, ev play.Event) {
	text := ev.Move.String()
	w := play.Words{Viewer: p.g.Human()}
	words := w.Move(ev.Context, ev.Move)
	if ev.SealedBid() {
		if ev.Decider == p.g.Human() {
			text += " (sealed)"
		} else {
			text, words = "sealed bid", w.SealedMove(ev.Context)
		}
	}
	p.lines = append(p.lines, LogLine{Step: step, Turn: int(ev.Turn) + 1, Seat: ev.Decider, Phase: ev.Phase.String(), Text: text, Words: words})
	if len(ev.Revealed) == 0 {
		return
	}
	bids := make([]string, len(ev.Revealed))
	for k, e := range ev.Revealed {
		bids[k] = fmt.Sprintf("p%d $%d", e.Decider+1, e.Move.Amount)
	}
	first := ev.Revealed[0]
	text = "sealed bids revealed: " + strings.Join(bids, ", ")
	p.lines = append(p.lines, LogLine{Step: -1, Turn: int(first.Turn) + 1, Seat: -1, Phase: first.Phase.String(),
		Text: text, Words: "Sealed bids revealed: " + strings.Join(bids, ", ")})
}

// apply plays the human's move m and logs it.
func (p *playSession) apply(m rules.Move) error {
	ev, err := p.g.Play(m)
	if err != nil {
		return err
	}
	p.addLines(len(p.g.Log())-1, ev)
	p.base, p.baseStep = p.g.View().Clone(), len(p.g.Log())
	return nil
}

// runBots lets the bots decide until the human decides or the game ends. Each bot acts on
// its own redacted view.
func (p *playSession) runBots() error {
	return p.g.RunBots(func(ev play.Event) { p.addLines(len(p.g.Log())-1, ev) })
}

// undo replays the game without the human's last move.
func (p *playSession) undo() error {
	if !p.g.CanUndo() {
		return errorf(http.StatusConflict, "nothing to undo: your last move is not the last thing that happened in this turn")
	}
	if _, err := p.g.Undo(); err != nil {
		return err
	}
	p.lines = p.lines[:0]
	p.base = nil
	for i, ev := range p.g.Log() {
		p.addLines(i, ev)
	}
	return nil
}

// stateFor builds the human's view of the session, with the log from line since.
func (p *playSession) stateFor(since int) GameState {
	state := p.g.State()
	st := GameState{ID: p.id, Seat: p.g.Human(), Names: p.names, Options: describeOptions(p.opts),
		Turn: int(state.Turn) + 1, Steps: len(p.g.Log()), Over: p.g.Over(), Decider: -1}
	view := p.g.View()
	w := play.Words{Viewer: p.g.Human()}
	var legal []rules.Move
	st.Active = int(view.Active)
	if !st.Over {
		d := view.Decision()
		c := play.ContextAt(view)
		st.Phase, st.Decider = d.Phase.String(), d.Decider
		st.Prompt = w.Ask(c)
		st.Help, st.HelpRef = play.Help(d.Phase)
		if p.g.HumanToMove() {
			st.YourMove = true
			var amounts *play.Amounts
			legal, amounts = p.g.Choices()
			for _, m := range legal {
				st.Moves = append(st.Moves, MoveChoice{Text: m.String(), Words: w.Move(c, m)})
			}
			if amounts != nil {
				st.Amount = &AmountChoice{Min: amounts.Min, Max: amounts.Max, Sealed: amounts.Sealed}
				for _, a := range amountOffers(amounts.Min, amounts.Max) {
					m := rules.Move{Kind: rules.Amount, Amount: int32(a)}
					st.Amount.Offers = append(st.Amount.Offers, MoveChoice{Text: m.String(), Words: w.Move(c, m)})
				}
			}
		}
	} else {
		st.Phase = "game over"
		st.Prompt = "The game is over"
		st.Help, st.HelpRef = play.Help(rules.PhaseTerminal)
		st.Scores = scoreRows(state, p.names)
	}
	st.CanUndo = p.g.CanUndo()
	st.Seats = seatInfos(view, p.g.Human(), p.names)
	st.SinceStep = -1
	var prev *rules.State
	if p.base != nil && p.baseStep < len(p.g.Log()) {
		prev, st.SinceStep = p.base, p.baseStep
	}
	st.SVG = BoardSVGChanges(view, p.g.Human(), p.names, legal, prev)
	since = max(0, min(since, len(p.lines)))
	st.LogFrom, st.Log, st.LogLen = since, p.lines[since:], len(p.lines)
	if st.Log == nil {
		st.Log = []LogLine{}
	}
	if st.Moves == nil {
		st.Moves = []MoveChoice{}
	}
	return st
}

// amountOffers are the amounts offered as buttons: all of a range of up to 13, else the
// lowest nine, the quarters and the highest.
func amountOffers(lo, hi int) []int {
	var out []int
	if hi-lo <= 12 {
		for a := lo; a <= hi; a++ {
			out = append(out, a)
		}
		return out
	}
	for a := lo; a <= lo+8; a++ {
		out = append(out, a)
	}
	for _, q := range []int{1, 2, 3} {
		if a := lo + q*(hi-lo)/4; a > out[len(out)-1] {
			out = append(out, a)
		}
	}
	if hi > out[len(out)-1] {
		out = append(out, hi)
	}
	return out
}

// seatInfos describes every seat as viewer may know it, from viewer's redacted view (the
// whole game after it ends, when every card is public).
func seatInfos(view *rules.State, viewer int, names []string) []SeatInfo {
	n := view.Game().Options().Players
	o := view.Game().Options()
	now := view.Scores()
	d := rules.Decision{Decider: -1}
	if !view.IsTerminal() {
		d = view.Decision()
	}
	out := make([]SeatInfo, n)
	for s := 0; s < n; s++ {
		p := &view.Players[s]
		si := SeatInfo{Seat: s, Name: names[s], You: s == viewer, Active: s == int(view.Active) && !view.IsTerminal(),
			Deciding: s == d.Decider, Cash: int(p.Cash), Island: p.Island.Total(), Loans: []LoanInfo{},
			Now: now[s], IslandKnown: int(p.Card) < rules.NumScoringCards}
		for l := 0; l < int(p.NumLoans) && l < rules.MaxLoans; l++ {
			who := "Bank"
			if p.Loans[l].Lender >= 0 {
				who = fmt.Sprintf("p%d", p.Loans[l].Lender+1)
			}
			si.Loans = append(si.Loans, LoanInfo{Lender: who, Amount: int(p.Loans[l].Amount)})
		}
		if si.IslandKnown && (s == viewer || view.IsTerminal()) {
			si.Card = cardWords(int(p.Card))
		}
		switch p.ShipAt.Where {
		case rules.AtOcean:
			si.Ship = "at sea"
		case rules.AtIsland:
			si.Ship = "at Container Island"
		case rules.AtBank:
			si.Ship = "at the Bank"
		case rules.AtHarbor:
			si.Ship = fmt.Sprintf("at p%d's harbor", p.ShipAt.Seat+1)
		}
		var extra []string
		if o.Modules.Has(rules.Trucks) {
			extra = append(extra, fmt.Sprintf("%d truck%s", p.Trucks, map[bool]string{true: "", false: "s"}[p.Trucks == 1]))
		}
		if o.Modules.Has(rules.PlayerLoans) {
			extra = append(extra, fmt.Sprintf("%d loan card%s", p.LoanCards, map[bool]string{true: "", false: "s"}[p.LoanCards == 1]))
		}
		si.Extra = strings.Join(extra, " · ")
		out[s] = si
	}
	return out
}

// cardWords is a scoring card in words: "card 2: white $10, green $10 or $5, ...".
func cardWords(card int) string {
	vals, two, ok := rules.ScoringCardValues(card)
	if !ok {
		return ""
	}
	parts := make([]string, 0, rules.NumNormalColours)
	for c := rules.Colour(0); c < rules.NumNormalColours; c++ {
		if c == two {
			parts = append(parts, fmt.Sprintf("%s $%d ($%d without all colours)", c, vals[c], rules.TwoValueLow))
		} else {
			parts = append(parts, fmt.Sprintf("%s $%d", c, vals[c]))
		}
	}
	return fmt.Sprintf("card %d: %s", card, strings.Join(parts, ", "))
}

// scoreRows is the final scoring of a finished game (everything is public then).
func scoreRows(s *rules.State, names []string) []ScoreRow {
	sc := s.Scores()
	out := make([]ScoreRow, len(sc))
	for i, x := range sc {
		n := ""
		if i < len(names) {
			n = names[i]
		}
		out[i] = ScoreRow{Score: x, Seat: i, Name: n, Card: int(s.Players[i].Card)}
	}
	return out
}

func describeOptions(o rules.Options) string {
	t := fmt.Sprintf("%d players, %s rules, %s game", o.Players, o.Variant, o.Length)
	if o.Modules != 0 {
		t += ", modules " + o.Modules.String()
	}
	if o.TurnLimit != 0 && o.TurnLimit != rules.DefaultTurnLimit {
		t += fmt.Sprintf(", turn limit %d", o.TurnLimit)
	}
	return t
}

// sinceParam reads ?since=N, the log lines the client already has: 0 to the log's length.
func (p *playSession) sinceParam(r *http.Request) (int, error) {
	v := r.URL.Query().Get("since")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, errorf(http.StatusBadRequest, "since %s is not a whole number", rules.Quote(v))
	}
	return n, p.checkSince(n)
}

// checkSince refuses a log position outside 0..the log's length.
func (p *playSession) checkSince(n int) error {
	if n < 0 || n > len(p.lines) {
		return errorf(http.StatusBadRequest, "since %d is outside 0..%d (the log has %d lines)", n, len(p.lines), len(p.lines))
	}
	return nil
}

func (s *Server) handleNewGame(w http.ResponseWriter, r *http.Request) {
	var req NewGameRequest
	if err := decodeBody(w, r, maxBody, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if err := s.hasRoom(); err != nil {
		reply(w, nil, err)
		return
	}
	p, err := s.newGame(req)
	if err != nil {
		reply(w, nil, err)
		return
	}
	if err := s.admit(&p.session, func() { s.games[p.id] = p }); err != nil {
		reply(w, nil, err)
		return
	}
	st := p.stateFor(0)
	st.Token = p.token
	reply(w, st, nil)
}

func (s *Server) handleGameState(w http.ResponseWriter, r *http.Request, p *playSession) {
	since, err := p.sinceParam(r)
	if err != nil {
		reply(w, nil, err)
		return
	}
	reply(w, p.stateFor(since), nil)
}

// MoveRequest plays one move in the notation (as the legal moves list it).
type MoveRequest struct {
	Move  string `json:"move"`
	Since int    `json:"since"` // log lines the client already has
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, p *playSession) {
	var req MoveRequest
	if err := decodeBody(w, r, maxBody, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if err := p.checkSince(req.Since); err != nil {
		reply(w, nil, err)
		return
	}
	if p.g.Over() {
		reply(w, nil, errorf(http.StatusConflict, "the game is over"))
		return
	}
	if d := p.g.State().Decision(); d.Decider != p.g.Human() {
		reply(w, nil, errorf(http.StatusConflict, "it is p%d's decision, not yours", d.Decider+1))
		return
	}
	m, err := p.g.State().ParseMove(req.Move)
	if err != nil {
		reply(w, nil, errorf(http.StatusBadRequest, "%v", err))
		return
	}
	if err := p.apply(m); err != nil {
		reply(w, nil, errorf(http.StatusBadRequest, "%s is not a legal move now: %v", rules.Quote(req.Move), err))
		return
	}
	if err := p.runBots(); err != nil {
		reply(w, nil, errorf(http.StatusConflict, "%v", err))
		return
	}
	reply(w, p.stateFor(req.Since), nil)
}

func (s *Server) handleUndo(w http.ResponseWriter, r *http.Request, p *playSession) {
	if err := decodeEmptyBody(w, r); err != nil {
		reply(w, nil, err)
		return
	}
	if err := p.undo(); err != nil {
		reply(w, nil, err)
		return
	}
	reply(w, p.stateFor(0), nil)
}

func (s *Server) handleGameRecord(w http.ResponseWriter, r *http.Request, p *playSession) {
	if !p.g.Over() {
		reply(w, nil, errorf(http.StatusConflict, "the record is available once the game is over (it holds every sealed bid)"))
		return
	}
	b, err := rules.NewRecord(p.g.State(), p.g.Seed()).MarshalRecord()
	if err != nil {
		reply(w, nil, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="container-%s.json"`, p.id))
	_, _ = w.Write(b)
}

func (s *Server) handleEndGame(w http.ResponseWriter, r *http.Request, p *playSession) {
	s.mu.Lock()
	delete(s.games, p.id)
	s.mu.Unlock()
	reply(w, map[string]string{"ended": p.id}, nil)
}

// BotInfo describes a bot a client may choose.
type BotInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Level is 1 (easy) to 4 (expert) for the levels for players (bots.Levels), 0 for
	// every other bot.
	Level int `json:"level,omitempty"`
}

// handleBots lists the levels first, weakest first, then the other registered bots by name,
// then the bot files in the data directory.
func (s *Server) handleBots(w http.ResponseWriter, r *http.Request) {
	var out []BotInfo
	for k, l := range bots.Levels {
		if i, ok := bots.Lookup(l.Name); ok {
			out = append(out, BotInfo{Name: i.Name, Description: i.Description, Level: k + 1})
		}
	}
	for _, i := range bots.List() {
		if _, level := bots.LevelOf(i.Name); !level {
			out = append(out, BotInfo{Name: i.Name, Description: i.Description})
		}
	}
	for _, f := range s.data.list().Bots {
		out = append(out, BotInfo{Name: f, Description: "trained bot file in the data directory"})
	}
	reply(w, out, nil)
}

// HistoryStep is the board as the human saw it after the first Step moves of the game, with
// what the last of them changed outlined: for stepping through the bots' replies.
type HistoryStep struct {
	Step    int    `json:"step"`
	Turn    int    `json:"turn"`
	Phase   string `json:"phase"`
	Decider int    `json:"decider"`
	Prompt  string `json:"prompt"` // the decision then pending, in words
	Line    string `json:"line"`   // the move that led here, in words ("" at step 0)
	Seat    int    `json:"seat"`   // who made it (-1 at step 0)
	SVG     string `json:"svg"`
}

// history rebuilds the position after n moves from the seed and the log and draws the
// human's redacted view of it, which is what the human was shown then.
func (p *playSession) history(n int) (HistoryStep, error) {
	log := p.g.Log()
	if n < 0 || n > len(log) {
		return HistoryStep{}, errorf(http.StatusBadRequest, "step %d is outside 0..%d", n, len(log))
	}
	view, prev, err := p.historyViews(n)
	if err != nil {
		return HistoryStep{}, err
	}
	w := play.Words{Viewer: p.g.Human()}
	out := HistoryStep{Step: n, Turn: int(view.Turn) + 1, Decider: -1, Phase: "game over", Prompt: "The game is over", Seat: -1}
	if !view.IsTerminal() {
		d := view.Decision()
		out.Phase, out.Decider, out.Prompt = d.Phase.String(), d.Decider, w.Ask(play.ContextAt(view))
	}
	if n > 0 {
		// The log line of that move as the human reads it (a sealed bid stays sealed).
		for _, l := range p.lines {
			if l.Step == n-1 {
				out.Line, out.Seat = l.Words, l.Seat
			}
		}
	}
	out.SVG = BoardSVGChanges(view, p.g.Human(), p.names, nil, prev)
	return out, nil
}

// historyViews returns the human's redacted views after n moves and after n-1 (nil for n 0),
// replayed from the seed and the log.
func (p *playSession) historyViews(n int) (view, prev *rules.State, err error) {
	log := p.g.Log()
	s := p.g.State().Game().NewInitialStateSeed(p.g.Seed())
	for i := 0; i < n; i++ {
		if i == n-1 {
			prev = s.Clone()
			s.Redact(p.g.Human(), prev)
		}
		if err := s.ApplyMoveChecked(log[i].Move); err != nil {
			return nil, nil, errorf(http.StatusConflict, "replaying move %d: %v", i+1, err)
		}
	}
	view = s.Clone()
	s.Redact(p.g.Human(), view)
	return view, prev, nil
}

func (s *Server) handleGameHistory(w http.ResponseWriter, r *http.Request, p *playSession) {
	n, err := intParam(r.PathValue("n"), "step", 0)
	if err != nil {
		reply(w, nil, err)
		return
	}
	h, err := p.history(n)
	reply(w, h, err)
}
