package rules

import "errors"

// ErrIllegalAction is wrapped by every error returned for an illegal move.
var ErrIllegalAction = errors.New("rules: illegal action")

// Game holds the immutable facts of a configuration.
type Game struct {
	opts Options
}

// NewGame validates the options and returns the game facts.
func NewGame(o Options) (*Game, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.TurnLimit == 0 {
		o.TurnLimit = DefaultTurnLimit
	}
	return &Game{opts: o}, nil
}

// Options returns the options (defaults filled in).
func (g *Game) Options() Options { return g.opts }

// NumDistinctActions is the size of the integer action space.
func (g *Game) NumDistinctActions() int { return NumDistinctActions() }

// MaxStepsPerTurn bounds the decisions of one turn (its own turn start included); see
// docs/RULES.md, "Bounds". The random-play tests check it on every turn.
//
//   - turn start: 1 interest choice, 2 lender choices + 2 lender picks, 2 Bank seizure
//     picks + 2 colour choices for them, and up to 3 auctions won (two Bank lots and a truck
//     company) x 13 colour choices (a container bid holds at most 8 factory + 5 harbor
//     containers): 48;
//   - loan requests: a seat ends a request with a loan or with a rejection that blocks it for
//     the rest of the turn; non-active seats cannot repay, so they make at most 2 + 1
//     requests, the active seat (2 repayments) at most 4 + 1: 17 requests x (TakeLoan + 4
//     offers + 4 incentive bids + tie + accept = 11) = 187, plus 2 repayments;
//   - each of the 2 actions at most 40 decisions (the largest: a Call Bank outbid with 13
//     containers put back and 13 picked, + Done; Produce: 4 colours + 4 placements + 8
//     pick-ups + 8 placements + Done; a delivery: 4 bids + 4 runoff additions + tie + accept);
//   - Acquire Luxury: 4; EndTurn: 1.
const MaxStepsPerTurn = 48 + 187 + 2 + 2*40 + 4 + 1

// maxEndSteps bounds the decisions after the last turn: open auctions won (colour
// choices), and loan requests the choosers may make at those decisions (at most the 187 of
// a turn, the same counters still apply).
const maxEndSteps = 3*13 + 187

// MaxGameLength is an upper bound on the number of decisions in one game.
func (g *Game) MaxGameLength() int {
	return g.opts.TurnLimit*MaxStepsPerTurn + maxEndSteps
}

// Game returns the facts of the state's game.
func (s *State) Game() *Game { return s.game }

// IsTerminal reports whether the game is over.
func (s *State) IsTerminal() bool { return s.Ended != NotEnded }

// History returns the moves applied since setup (the caller must not modify it).
func (s *State) History() []Move { return s.history }
