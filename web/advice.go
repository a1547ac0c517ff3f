package web

import (
	"net/http"
	"sort"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Ask a bot: what a chosen bot would play in a position, from the deciding seat's redacted
// view; trained bots (bots.Advisor) add their most likely moves with probabilities and their
// value estimate.

// GameAskRequest names the bot to ask about the human's decision in a game.
type GameAskRequest struct {
	Bot string `json:"bot"`
}

// AskRequest names the bot to ask about step Step of a replay, seen by seat Viewer (-1: the
// whole game).
type AskRequest struct {
	Bot    string `json:"bot"`
	Step   int    `json:"step"`
	Viewer int    `json:"viewer"`
}

// MoveProb is one move with the probability a bot gives it.
type MoveProb struct {
	Move string  `json:"move"`
	Prob float64 `json:"prob"`
}

// AskAnswer is a bot's answer.
type AskAnswer struct {
	Bot     string     `json:"bot"`
	Seat    int        `json:"seat"`
	Move    string     `json:"move"`
	Top     []MoveProb `json:"top,omitempty"`    // at most 8, most likely first
	Values  []float64  `json:"values,omitempty"` // per seat
	Explain string     `json:"explain"`
}

const maxTopMoves = 8

// ask asks the bot named spec about s, seen by its decider.
func (s *Server) ask(spec string, st *rules.State) (AskAnswer, error) {
	if st.IsTerminal() {
		return AskAnswer{}, errorf(http.StatusConflict, "the game is over: there is no decision to ask about")
	}
	real, display, err := s.resolveBot(spec)
	if err != nil {
		return AskAnswer{}, err
	}
	b, err := bots.New(real, st.Game().Options(), 1)
	if err != nil {
		return AskAnswer{}, errorf(http.StatusBadRequest, "%v", err)
	}
	seat := bots.NewSeat(b)
	if err := seat.Prepare(st); err != nil {
		return AskAnswer{}, errorf(http.StatusConflict, "the decision has no legal action with an id (bots cannot bid $100 or more)")
	}
	view, legal := seat.View(), seat.Legal()
	out := AskAnswer{Bot: display, Seat: seat.Decider(), Explain: "the move this bot plays here"}
	if adv, ok := b.(bots.Advisor); ok {
		a, err := adv.Advise(view, append([]int(nil), legal...))
		if err == nil && len(a.Probs) == len(legal) {
			idx := make([]int, len(legal))
			for i := range idx {
				idx[i] = i
			}
			sort.SliceStable(idx, func(i, j int) bool { return a.Probs[idx[i]] > a.Probs[idx[j]] })
			for _, i := range idx[:min(maxTopMoves, len(idx))] {
				out.Top = append(out.Top, MoveProb{Move: st.ActionToMove(legal[i]).String(), Prob: a.Probs[i]})
			}
			out.Values = a.Values
			out.Explain = "a trained bot: its most likely moves with the policy's probabilities, and its value estimate of each seat's return (win-loss scale, about -1 to 1)"
		}
	}
	a, err := seat.Decide()
	if err != nil {
		return AskAnswer{}, errorf(http.StatusInternalServerError, "%v", err)
	}
	out.Move = st.ActionToMove(a).String()
	return out, nil
}

func (s *Server) handleGameAsk(w http.ResponseWriter, r *http.Request, p *playSession) {
	var req GameAskRequest
	if err := decodeBody(w, r, maxBody, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if !p.g.Over() && !p.g.HumanToMove() {
		reply(w, nil, errorf(http.StatusConflict, "a bot can be asked about your own decisions only"))
		return
	}
	a, err := s.ask(req.Bot, p.g.State())
	reply(w, a, err)
}

func (s *Server) handleReplayAsk(w http.ResponseWriter, r *http.Request, x *replaySession) {
	var req AskRequest
	if err := decodeBody(w, r, maxBody, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if req.Step < 0 || req.Step > len(x.rec.Moves) {
		reply(w, nil, errorf(http.StatusBadRequest, "step %d is outside 0..%d", req.Step, len(x.rec.Moves)))
		return
	}
	if err := x.checkViewer(req.Viewer); err != nil {
		reply(w, nil, err)
		return
	}
	st := x.position(req.Step).Clone()
	if !st.IsTerminal() && req.Viewer >= 0 && st.Decision().Decider != req.Viewer {
		reply(w, nil, errorf(http.StatusForbidden, "p%d decides here; from p%d's view a bot can be asked only about p%d's own decisions (choose that seat or the whole game)",
			st.Decision().Decider+1, req.Viewer+1, req.Viewer+1))
		return
	}
	a, err := s.ask(req.Bot, st)
	reply(w, a, err)
}
