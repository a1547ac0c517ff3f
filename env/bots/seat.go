package bots

import (
	"errors"
	"fmt"
	"slices"

	"github.com/container-rl/container/env/rules"
)

// ErrIllegalAction is wrapped when a bot returns an action id that is not among the legal
// actions it was given.
var ErrIllegalAction = errors.New("bots: bot chose an illegal action")

// errNotPrepared is wrapped when a Seat is asked to decide before Prepare.
var errNotPrepared = errors.New("bots: seat asked to decide without a prepared position")

// PolicyBot is a bot that reports the action distribution it played from and its value
// estimate (a trained bot).
type PolicyBot interface {
	Bot
	// ActPolicy is Act that also fills probs (length rules.NumDistinctActions(), zero for
	// illegal ids) and returns the value estimate for the deciding seat.
	ActPolicy(view *rules.State, legal []int, probs []float32) (action int, value float32)
}

// Seat is the one way a game loop asks a bot for a decision: legal actions, the decider's
// redacted view, the bot's choice, the legality check. It owns the view and legal-action
// buffers, so after the first decision asking costs no allocation; the caller applies the
// returned action (unchecked Apply is safe: the action is legal).
//
// Bot plays the seat; it may be changed between decisions (a tournament reseats bots every
// game) and is nil for a seat whose decisions go to a BatchBot through a Batch or to a human.
// One Seat serves one position at a time: the view and legal actions it hands out stay valid
// until its next Prepare. A Seat is not safe for concurrent use.
type Seat struct {
	Bot Bot

	view    rules.State
	legal   []int
	decider int
	ready   bool // prepared and not yet decided
}

// NewSeat returns a Seat played by b.
func NewSeat(b Bot) *Seat { return &Seat{Bot: b} }

// Prepare computes st's legal action ids and its decider's redacted view. It fails, wrapping
// ErrNoLegalAction, when st is over or its decision has no action id (an amount of $100 or
// more, which bots cannot choose).
func (s *Seat) Prepare(st *rules.State) error {
	s.ready = false
	if st.IsTerminal() {
		return fmt.Errorf("%w: the game is over", ErrNoLegalAction)
	}
	s.legal = st.LegalActions(s.legal)
	return s.redact(st)
}

// PrepareLegal is Prepare with st's legal action ids already computed (an env's Legal(),
// ascending); the Seat keeps legal only until its next Prepare and never modifies it.
func (s *Seat) PrepareLegal(st *rules.State, legal []int) error {
	s.ready = false
	if st.IsTerminal() {
		return fmt.Errorf("%w: the game is over", ErrNoLegalAction)
	}
	s.legal = legal
	return s.redact(st)
}

func (s *Seat) redact(st *rules.State) error {
	s.decider = st.CurrentPlayer()
	if len(s.legal) == 0 {
		return fmt.Errorf("%w: phase %s of seat %d offers no action id", ErrNoLegalAction, st.Decision().Phase, s.decider)
	}
	st.Redact(s.decider, &s.view)
	s.ready = true
	return nil
}

// View is the decider's redacted view of the prepared position.
func (s *Seat) View() *rules.State { return &s.view }

// Legal is the legal action ids of the prepared position, ascending.
func (s *Seat) Legal() []int { return s.legal }

// Decider is the seat deciding in the prepared position.
func (s *Seat) Decider() int { return s.decider }

// check returns a unless it is not one of the prepared position's legal actions, in which
// case the error wraps ErrIllegalAction and names the bot, the seat and the phase. It ends
// the prepared decision: the next decision needs a new Prepare.
func (s *Seat) check(name string, a int) (int, error) {
	s.ready = false
	if _, ok := slices.BinarySearch(s.legal, a); !ok {
		return 0, fmt.Errorf("%w: %s (seat %d) chose %d in phase %s", ErrIllegalAction, name, s.decider, a, s.view.Decision().Phase)
	}
	return a, nil
}

// Decide asks Bot for the prepared decision and returns its checked choice.
func (s *Seat) Decide() (int, error) {
	if !s.ready {
		return 0, errNotPrepared
	}
	if s.Bot == nil {
		s.ready = false
		return 0, fmt.Errorf("bots: seat %d has no bot to decide in phase %s", s.decider, s.view.Decision().Phase)
	}
	return s.check(s.Bot.Name(), s.Bot.Act(&s.view, s.legal))
}

// Act prepares st and returns Bot's checked action for its pending decision.
func (s *Seat) Act(st *rules.State) (int, error) {
	if err := s.Prepare(st); err != nil {
		return 0, err
	}
	return s.Decide()
}

// ActLegal is Act with st's legal action ids already computed (see PrepareLegal).
func (s *Seat) ActLegal(st *rules.State, legal []int) (int, error) {
	if err := s.PrepareLegal(st, legal); err != nil {
		return 0, err
	}
	return s.Decide()
}

// ActPolicy is ActLegal for a Bot that reports its policy: probs (length
// rules.NumDistinctActions()) receives the distribution it played from, and value its value
// estimate for the deciding seat.
func (s *Seat) ActPolicy(st *rules.State, legal []int, probs []float32) (action int, value float32, err error) {
	if err := s.PrepareLegal(st, legal); err != nil {
		return 0, 0, err
	}
	pb, ok := s.Bot.(PolicyBot)
	if !ok {
		s.ready = false
		return 0, 0, fmt.Errorf("bots: the bot of seat %d does not report its policy", s.decider)
	}
	a, v := pb.ActPolicy(&s.view, s.legal, probs)
	a, err = s.check(pb.Name(), a)
	return a, v, err
}

// Batch collects prepared Seats whose decisions one BatchBot takes in a single call (a
// trained network deciding for many games at once). Its buffers are reused after Reset.
type Batch struct {
	seats []*Seat
	views []*rules.State
	legal [][]int
	out   []int
}

// Reset empties the batch, keeping its buffers.
func (b *Batch) Reset() {
	clear(b.seats)
	clear(b.views)
	clear(b.legal)
	b.seats, b.views, b.legal = b.seats[:0], b.views[:0], b.legal[:0]
}

// Add appends a prepared seat (Prepare or PrepareLegal returned nil).
func (b *Batch) Add(s *Seat) {
	b.seats = append(b.seats, s)
	b.views = append(b.views, &s.view)
	b.legal = append(b.legal, s.legal)
}

// Len is the number of seats added since the last Reset.
func (b *Batch) Len() int { return len(b.seats) }

// BatchError is the error of Batch.Act for the first seat whose action is not legal.
type BatchError struct {
	Index int   // the seat's position in the batch (0 for the first seat added)
	Err   error // wraps ErrIllegalAction
}

func (e *BatchError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *BatchError) Unwrap() error { return e.Err }

// Act asks bb for every added seat's decision in one ActBatch call and returns the checked
// actions, out[i] for the i-th seat added (out is reused by the next Act). The first illegal
// choice is a *BatchError wrapping ErrIllegalAction; every seat's decision ends either way.
func (b *Batch) Act(bb BatchBot) ([]int, error) {
	for _, s := range b.seats {
		if !s.ready {
			return nil, errNotPrepared
		}
	}
	b.out = slices.Grow(b.out[:0], len(b.seats))[:len(b.seats)]
	if len(b.seats) == 0 {
		return b.out, nil
	}
	bb.ActBatch(b.views, b.legal, b.out)
	var first error
	for i, s := range b.seats {
		if _, err := s.check(bb.Name(), b.out[i]); err != nil && first == nil {
			first = &BatchError{Index: i, Err: err}
		}
	}
	if first != nil {
		return nil, first
	}
	return b.out, nil
}
