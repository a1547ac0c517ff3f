package rules

// CONTRACT STUBS: every function in this file is part of the public API other packages are
// written against. The engine replaces each stub with a real implementation (moving it to
// the file of its concept); the signatures are fixed.

import "errors"

// ErrIllegalAction is wrapped by every error returned for an illegal move.
var ErrIllegalAction = errors.New("rules: illegal action")

// Game holds the immutable facts of a configuration.
type Game struct {
	opts Options
}

// NewGame validates the options and returns the game facts.
func NewGame(o Options) (*Game, error) { panic("not implemented") }

// Options returns the options (defaults filled in).
func (g *Game) Options() Options { return g.opts }

// NumDistinctActions is the size of the integer action space.
func (g *Game) NumDistinctActions() int { return NumDistinctActions() }

// MaxGameLength is an upper bound on the number of decisions in one game.
func (g *Game) MaxGameLength() int { panic("not implemented") }

// NewInitialState sets up a game from Options.Seed.
func (g *Game) NewInitialState() *State { panic("not implemented") }

// NewInitialStateSeed sets up a game from the given seed (overriding Options.Seed).
func (g *Game) NewInitialStateSeed(seed uint64) *State { panic("not implemented") }

// Game returns the facts of the state's game.
func (s *State) Game() *Game { return s.game }

// CurrentPlayer is the seat that decides now, or -1 when the game is over.
func (s *State) CurrentPlayer() int { panic("not implemented") }

// IsTerminal reports whether the game is over.
func (s *State) IsTerminal() bool { return s.Ended != NotEnded }

// Decision describes the pending decision.
func (s *State) Decision() Decision { panic("not implemented") }

// LegalActions appends the legal action ids, sorted ascending, to buf[:0] and returns it.
func (s *State) LegalActions(buf []int) []int { panic("not implemented") }

// LegalMoves appends the legal moves to buf[:0] (including amounts above MaxAmountID).
func (s *State) LegalMoves(buf []Move) []Move { panic("not implemented") }

// Apply applies a legal action id without checking it (self-play hot path).
func (s *State) Apply(id int) { panic("not implemented") }

// ApplyMove applies a legal move without checking it.
func (s *State) ApplyMove(m Move) { panic("not implemented") }

// ApplyChecked applies id if it is legal; otherwise it returns an error wrapping
// ErrIllegalAction and leaves the state untouched.
func (s *State) ApplyChecked(id int) error { panic("not implemented") }

// ApplyMoveChecked is ApplyChecked for a Move.
func (s *State) ApplyMoveChecked(m Move) error { panic("not implemented") }

// ActionToMove decodes an action id for the current decider.
func (s *State) ActionToMove(id int) Move { panic("not implemented") }

// MoveToAction encodes a move for the current decider; ok is false for a move without an id
// (an amount above MaxAmountID).
func (s *State) MoveToAction(m Move) (id int, ok bool) { panic("not implemented") }

// ParseMove reads a move in the notation Move.String writes.
func (s *State) ParseMove(text string) (Move, error) { panic("not implemented") }

// Clone returns a deep copy.
func (s *State) Clone() *State { panic("not implemented") }

// History returns the moves applied since setup (the caller must not modify it).
func (s *State) History() []Move { return s.history }

// Hash is a 64-bit hash of the whole position (not the history).
func (s *State) Hash() uint64 { panic("not implemented") }

// Redact writes into dst what seat may see: opponents' scoring cards become Unknown,
// unrevealed sealed bids of other players read 0 (see Machine), history is dropped.
// dst must not be s. Encoders and renderers read only redacted views.
func (s *State) Redact(seat int, dst *State) { panic("not implemented") }

// Score is one seat's final-scoring breakdown (the five steps of final scoring).
type Score struct {
	Cash              int    `json:"cash"`     // cash in hand
	Island            int    `json:"island"`   // value of the scoring area after the discard
	Leftover          int    `json:"leftover"` // ship and holding $3, harbor $2, factory $0
	Loans             int    `json:"loans"`    // minus $11 (or amount+1) per open loan
	Total             int    `json:"total"`
	Discarded         Colour `json:"discarded"` // colour discarded as most common (NumColours if none)
	DiscardedCount    int    `json:"discarded_count"`
	GoldAs            Colour `json:"gold_as"`     // colour gold counted as (NumColours if no gold)
	AllColours        bool   `json:"all_colours"` // two-value colour scored $10
	FactoryContainers int    `json:"factory_containers"`
	Rank              int    `json:"rank"` // 1 = winner (shared wins share rank 1)
	Winner            bool   `json:"winner"`
}

// Scores returns every seat's final-scoring breakdown as if the game ended now (open Bank
// auctions resolved first), with winners marked.
func (s *State) Scores() []Score { panic("not implemented") }
