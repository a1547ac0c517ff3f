package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
)

// Replays: a game record (a file in the data directory, an uploaded record, or a game of a
// dataset rebuilt from its steps table) opened for stepping. Positions are rebuilt from
// snapshots taken every snapshotEvery moves, so any step costs at most that many applies.

const snapshotEvery = 32

// OpenReplayRequest names the game to open: exactly one of Path (a record file in the data
// directory), Dataset with Game (a game of a dataset directory), or Record (an uploaded JSON
// record).
type OpenReplayRequest struct {
	Path    string          `json:"path,omitempty"`
	Dataset string          `json:"dataset,omitempty"`
	Game    *uint64         `json:"game,omitempty"`
	Record  json.RawMessage `json:"record,omitempty"`
}

// ReplayLine is one move of a replay's log. Text is visible to every seat from step Reveal on
// (a sealed bid is revealed when its round closes; other moves at once) and to the decider
// from its own step.
type ReplayLine struct {
	Step  int    `json:"step"`
	Turn  int    `json:"turn"`
	Seat  int    `json:"seat"`
	Phase string `json:"phase"`
	Text  string `json:"text"`
	Words string `json:"words"` // the move in words
	// Sealed is what other seats read before step Reveal: the words of a sealed bid without
	// its amount ("" for a move that is never sealed).
	Sealed string `json:"sealed,omitempty"`
	Reveal int    `json:"reveal"`
}

// ReplayInfo describes an opened replay.
type ReplayInfo struct {
	ID         string       `json:"id"`
	Token      string       `json:"token,omitempty"`
	Source     string       `json:"source"`
	Options    string       `json:"options"`
	Players    int          `json:"players"`
	Names      []string     `json:"names"`
	Moves      int          `json:"moves"`
	Finished   bool         `json:"finished"`
	TurnStarts []int        `json:"turn_starts"` // step at which each turn begins
	Log        []ReplayLine `json:"log"`
	Scores     []ScoreRow   `json:"scores,omitempty"`
}

// ReplayStep is one position of a replay as a viewer sees it.
type ReplayStep struct {
	Step    int    `json:"step"`
	Viewer  int    `json:"viewer"`
	Turn    int    `json:"turn"`
	Phase   string `json:"phase"`
	Decider int    `json:"decider"`
	Prompt  string `json:"prompt"` // the pending decision in words
	SVG     string `json:"svg"`
}

type replaySession struct {
	session
	source   string
	rec      *rules.Record
	names    []string
	snaps    []*rules.State // position after snapshotEvery*k moves
	final    *rules.State
	info     ReplayInfo
	view     *rules.State
	scratch  *rules.State
	finished bool
}

// newReplay verifies rec (replaying it) and indexes it.
func newReplay(rec *rules.Record, names []string, source string) (*replaySession, error) {
	x := &replaySession{rec: rec, names: names, source: source}
	if len(names) == 0 {
		x.names = make([]string, rec.Options.Players)
	}
	info := ReplayInfo{Source: source, Options: describeOptions(rec.Options), Players: rec.Options.Players,
		Names: x.names, Moves: len(rec.Moves), TurnStarts: []int{}, Log: make([]ReplayLine, 0, len(rec.Moves))}
	var sealed []int // indices into info.Log of bids not yet revealed
	turn := int32(-1)
	final, err := rec.Replay(func(i int, s *rules.State, m rules.Move) {
		if i%snapshotEvery == 0 {
			x.snaps = append(x.snaps, s.Clone())
		}
		if s.Turn != turn {
			turn = s.Turn
			info.TurnStarts = append(info.TurnStarts, i)
		}
		d := s.Decision()
		// Bids of rounds that closed before this decision are revealed at step i.
		var open []int
		for _, k := range sealed {
			if play.StillSealed(rules.Phase(phaseIndex(info.Log[k].Phase)), d.Phase) {
				open = append(open, k)
			} else {
				info.Log[k].Reveal = i
			}
		}
		sealed = open
		c := play.ContextAt(s)
		line := ReplayLine{Step: i, Turn: int(s.Turn) + 1, Seat: d.Decider, Phase: d.Phase.String(), Text: m.String(),
			Words: play.Words{Viewer: -1}.Move(c, m), Reveal: i + 1}
		if play.SealedPhase(d.Phase) && m.Kind == rules.Amount {
			sealed = append(sealed, len(info.Log))
			line.Sealed = play.Words{Viewer: -1}.SealedMove(c)
		}
		info.Log = append(info.Log, line)
	})
	if err != nil {
		return nil, err
	}
	for _, k := range sealed {
		info.Log[k].Reveal = len(rec.Moves)
	}
	if len(rec.Moves)%snapshotEvery == 0 {
		x.snaps = append(x.snaps, final.Clone())
	}
	x.final = final
	x.finished = final.IsTerminal()
	info.Finished = x.finished
	if x.finished {
		info.Scores = scoreRows(final, x.names)
	}
	x.info = info
	x.view = final.Clone()
	x.scratch = final.Clone()
	return x, nil
}

// phaseIndex maps a phase name back to its value.
func phaseIndex(name string) int {
	for p := rules.Phase(0); p < rules.NumPhases; p++ {
		if p.String() == name {
			return int(p)
		}
	}
	return int(rules.NumPhases)
}

// position returns the position after n moves (into x.scratch).
func (x *replaySession) position(n int) *rules.State {
	k := min(n/snapshotEvery, len(x.snaps)-1)
	x.scratch.CopyFrom(x.snaps[k])
	for i := k * snapshotEvery; i < n; i++ {
		x.scratch.ApplyMove(x.rec.Moves[i])
	}
	return x.scratch
}

// checkViewer checks a viewer choice: a seat, or -1 (the whole game) for finished games.
func (x *replaySession) checkViewer(v int) error {
	if v == -1 {
		if !x.finished {
			return errorf(http.StatusForbidden, "the whole game (viewer -1) is shown only for finished games; choose a seat")
		}
		return nil
	}
	if v < 0 || v >= x.rec.Options.Players {
		return errorf(http.StatusBadRequest, "viewer %d is not a seat of this game (0..%d, or -1 for the whole game)", v, x.rec.Options.Players-1)
	}
	return nil
}

func (x *replaySession) step(n, viewer int) (ReplayStep, error) {
	if n < 0 || n > len(x.rec.Moves) {
		return ReplayStep{}, errorf(http.StatusBadRequest, "step %d is outside 0..%d", n, len(x.rec.Moves))
	}
	if err := x.checkViewer(viewer); err != nil {
		return ReplayStep{}, err
	}
	s := x.position(n)
	v := s
	if viewer >= 0 {
		s.Redact(viewer, x.view)
		v = x.view
	}
	out := ReplayStep{Step: n, Viewer: viewer, Turn: int(s.Turn) + 1, Decider: -1, Phase: "game over"}
	if !s.IsTerminal() {
		d := s.Decision()
		out.Phase, out.Decider = d.Phase.String(), d.Decider
		// The words read only the public part of the decision.
		out.Prompt = play.Words{Viewer: viewer}.Ask(play.ContextAt(s))
	}
	out.SVG = BoardSVG(v, viewer, x.names, nil)
	return out, nil
}

// loadRecordBytes reads a JSON or binary game record.
func loadRecordBytes(data []byte) (*rules.Record, error) {
	if bytes.HasPrefix(data, []byte("CTNR")) {
		var r rules.Record
		if err := r.UnmarshalBinary(data); err != nil {
			return nil, err
		}
		return &r, nil
	}
	r, _, err := rules.LoadRecord(data)
	return r, err
}

// datasetGame rebuilds game id of the dataset in dir from its games and steps tables.
func datasetGame(dir string, id uint64) (*rules.Record, []string, error) {
	m, err := datasets.ReadManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	// Any observation encoding will do: only the game's options, seed and actions are read.
	d, err := datasets.Open(dir, datasets.AcceptEncodings(m.Meta.EncodingVersion))
	if err != nil {
		return nil, nil, err
	}
	game, actions, err := d.GameActions(id)
	if err != nil {
		if errors.Is(err, datasets.ErrInvalid) {
			return nil, nil, errorf(http.StatusNotFound, "%v", err)
		}
		return nil, nil, err
	}
	var opts rules.Options
	if err := json.Unmarshal([]byte(game.Options), &opts); err != nil {
		return nil, nil, fmt.Errorf("game %d: options column: %w", id, err)
	}
	opts.Seed = game.Seed
	g, err := rules.NewGame(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("game %d: %w", id, err)
	}
	s := g.NewInitialStateSeed(game.Seed)
	for i, a := range actions {
		if s.IsTerminal() {
			return nil, nil, fmt.Errorf("game %d: step %d comes after the end of the game", id, i)
		}
		if err := s.ApplyChecked(int(a)); err != nil {
			return nil, nil, fmt.Errorf("game %d: step %d (action %d): %w", id, i, a, err)
		}
	}
	return rules.NewRecord(s, game.Seed), game.Agents, nil
}

func (s *Server) openReplay(req OpenReplayRequest) (*replaySession, error) {
	given := 0
	for _, b := range []bool{req.Path != "", req.Dataset != "", len(req.Record) > 0} {
		if b {
			given++
		}
	}
	if given != 1 {
		return nil, errorf(http.StatusBadRequest, "name exactly one of path (a record file), dataset with game, or record (an uploaded record)")
	}
	switch {
	case req.Path != "":
		real, err := s.data.resolve(req.Path)
		if err != nil {
			return nil, err
		}
		data, err := readLimited(real, req.Path, s.cfg.MaxUpload)
		if err != nil {
			return nil, err
		}
		rec, err := loadRecordBytes(data)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "%s: %v", req.Path, err)
		}
		return newReplay(rec, nil, req.Path)
	case req.Dataset != "":
		if req.Game == nil {
			return nil, errorf(http.StatusBadRequest, "a dataset needs the game id (game)")
		}
		real, err := s.data.resolve(req.Dataset)
		if err != nil {
			return nil, err
		}
		rec, agents, err := datasetGame(real, *req.Game)
		if err != nil {
			var ae *apiError
			if errors.As(err, &ae) {
				return nil, err
			}
			return nil, errorf(http.StatusBadRequest, "%s: %v", req.Dataset, err)
		}
		return newReplay(rec, agents, req.Dataset+" game "+strconv.FormatUint(*req.Game, 10))
	}
	rec, err := loadRecordBytes(req.Record)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "uploaded record: %v", err)
	}
	return newReplay(rec, nil, "uploaded record")
}

func (s *Server) handleNewReplay(w http.ResponseWriter, r *http.Request) {
	var req OpenReplayRequest
	if err := decodeBody(w, r, s.cfg.MaxUpload, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if err := s.hasRoom(); err != nil {
		reply(w, nil, err)
		return
	}
	x, err := s.openReplay(req)
	if err != nil {
		reply(w, nil, err)
		return
	}
	if err := s.admit(&x.session, func() { x.info.ID = x.id; s.replays[x.id] = x }); err != nil {
		reply(w, nil, err)
		return
	}
	info := x.info
	info.Token = x.token
	reply(w, info, nil)
}

func (s *Server) handleReplayInfo(w http.ResponseWriter, r *http.Request, x *replaySession) {
	reply(w, x.info, nil)
}

func intParam(v, what string, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, errorf(http.StatusBadRequest, "%s %s is not a whole number", what, rules.Quote(v))
	}
	return n, nil
}

func (s *Server) handleReplayStep(w http.ResponseWriter, r *http.Request, x *replaySession) {
	n, err := intParam(r.PathValue("n"), "step", 0)
	if err != nil {
		reply(w, nil, err)
		return
	}
	def := 0
	if x.finished {
		def = -1
	}
	viewer, err := intParam(r.URL.Query().Get("viewer"), "viewer", def)
	if err != nil {
		reply(w, nil, err)
		return
	}
	st, err := x.step(n, viewer)
	reply(w, st, err)
}
