// Package play runs one game between a human seat and bots, the way the terminal game
// (container play) and the web app (container serve) show it: the bots decide through
// bots.Seat on their own redacted views, the human sees the position only through View, the
// move log keeps other seats' sealed bids sealed until their bidding round closes, and the
// human may take back their last move while nothing else has happened since.
package play

import (
	"fmt"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Entry is one applied move: what was played, by whom, in which turn and phase.
type Entry struct {
	Move    rules.Move
	Decider int
	Turn    int32
	Phase   rules.Phase
	// Context is the public part of the decision the move answered (for its words).
	Context Context
}

// SealedBid reports whether the entry is a bid the other seats see only when its round closes.
func (e Entry) SealedBid() bool { return SealedPhase(e.Phase) && e.Move.Kind == rules.Amount }

// Event is what one applied move tells the table: the move, and the sealed bids (oldest
// first) whose bidding round it closed.
type Event struct {
	Entry
	Revealed []Entry
}

// SealedPhase reports whether amounts chosen in phase p are sealed until every bidder has bid.
func SealedPhase(p rules.Phase) bool {
	return p == rules.PhaseDeliveryBid || p == rules.PhaseRunoffBid || p == rules.PhaseIncentiveBid
}

// loanPhase reports whether p is part of a loan request, which may interrupt an auction.
func loanPhase(p rules.Phase) bool {
	switch p {
	case rules.PhaseLoanOffer, rules.PhaseIncentiveBid, rules.PhaseLoanTie, rules.PhaseLoanAccept:
		return true
	}
	return false
}

// StillSealed reports whether bids made in phase bid stay sealed when the next decision is in
// phase next: the same bidding round goes on, or a loan request interrupts it.
func StillSealed(bid, next rules.Phase) bool {
	return next == bid || (bid != rules.PhaseIncentiveBid && loanPhase(next))
}

// Game is a game in progress between one human seat and bots. It is not safe for concurrent
// use.
type Game struct {
	game   *rules.Game
	seed   uint64
	human  int
	state  *rules.State
	view   *rules.State
	seats  []bots.Seat // Bot is nil for the human's seat
	log    []Event
	sealed []int // indices in log of sealed bids not yet revealed
}

// New starts a game of g from seed with the human at seat human and players[s] playing every
// other seat s (players[human] is ignored).
func New(g *rules.Game, seed uint64, human int, players []bots.Bot) (*Game, error) {
	n := g.Options().Players
	if human < 0 || human >= n {
		return nil, fmt.Errorf("play: seat %d is outside 0..%d", human, n-1)
	}
	if len(players) != n {
		return nil, fmt.Errorf("play: %d players for %d seats", len(players), n)
	}
	p := &Game{game: g, seed: seed, human: human, state: g.NewInitialStateSeed(seed), view: g.NewInitialStateSeed(seed),
		seats: make([]bots.Seat, n)}
	for s, b := range players {
		if s == human {
			continue
		}
		if b == nil {
			return nil, fmt.Errorf("play: no bot for seat %d", s)
		}
		p.seats[s].Bot = b
	}
	return p, nil
}

// State is the whole position, hidden information included: show the human View instead.
func (p *Game) State() *rules.State { return p.state }

// View is the human's redacted view of the position; it is rewritten by the next call.
func (p *Game) View() *rules.State {
	p.state.Redact(p.human, p.view)
	return p.view
}

// Human is the human's seat.
func (p *Game) Human() int { return p.human }

// Seed is the setup seed.
func (p *Game) Seed() uint64 { return p.seed }

// Log is every applied move in order; callers must not modify it.
func (p *Game) Log() []Event { return p.log }

// Over reports whether the game has ended.
func (p *Game) Over() bool { return p.state.IsTerminal() }

// HumanToMove reports whether the game waits for the human's decision.
func (p *Game) HumanToMove() bool {
	return !p.state.IsTerminal() && p.state.CurrentPlayer() == p.human
}

// Play applies m for the current decider (checked: an illegal move is an error wrapping
// rules.ErrIllegalAction and changes nothing) and logs it.
func (p *Game) Play(m rules.Move) (Event, error) {
	c := ContextAt(p.state)
	turn := p.state.Turn
	if err := p.state.ApplyMoveChecked(m); err != nil {
		return Event{}, err
	}
	return p.record(Entry{Move: m, Decider: c.Decider, Turn: turn, Phase: c.Phase, Context: c}), nil
}

// BotMove lets the deciding bot act on its own redacted view and applies its checked action.
func (p *Game) BotMove() (Event, error) {
	if p.HumanToMove() {
		return Event{}, fmt.Errorf("play: the human (seat %d) decides now, not a bot", p.human)
	}
	seat := &p.seats[p.state.CurrentPlayer()]
	c := ContextAt(p.state)
	turn := p.state.Turn
	a, err := seat.Act(p.state)
	if err != nil {
		return Event{}, err
	}
	m := p.state.ActionToMove(a)
	p.state.Apply(a)
	return p.record(Entry{Move: m, Decider: c.Decider, Turn: turn, Phase: c.Phase, Context: c}), nil
}

// RunBots lets the bots decide until the human decides or the game ends, calling onMove (if
// not nil) after every move.
func (p *Game) RunBots(onMove func(Event)) error {
	limit := p.game.MaxGameLength()
	for n := 0; !p.state.IsTerminal() && !p.HumanToMove(); n++ {
		if n >= limit {
			return fmt.Errorf("play: the bots made %d decisions in a row", n)
		}
		ev, err := p.BotMove()
		if err != nil {
			return err
		}
		if onMove != nil {
			onMove(ev)
		}
	}
	return nil
}

// record logs e, just applied, and reveals the sealed bids of every round that has closed.
func (p *Game) record(e Entry) Event {
	if e.SealedBid() {
		p.sealed = append(p.sealed, len(p.log))
	}
	ev := Event{Entry: e}
	if len(p.sealed) > 0 {
		next := rules.PhaseTerminal
		if !p.state.IsTerminal() {
			next = p.state.Decision().Phase
		}
		open := p.sealed[:0]
		for _, i := range p.sealed {
			bid := e
			if i < len(p.log) {
				bid = p.log[i].Entry
			}
			if StillSealed(bid.Phase, next) {
				open = append(open, i)
			} else {
				ev.Revealed = append(ev.Revealed, bid)
			}
		}
		p.sealed = open
	}
	p.log = append(p.log, ev)
	return ev
}

// CanUndo reports whether the human may take back their last move: it is the last thing that
// happened, in the current turn, the game is not over, and it revealed no other seat's sealed
// bid (a bid that closed its round showed the human the others' bids: taking it back would
// let the human bid again knowing them).
func (p *Game) CanUndo() bool {
	if len(p.log) == 0 || p.state.IsTerminal() {
		return false
	}
	last := p.log[len(p.log)-1]
	for _, r := range last.Revealed {
		if r.Decider != p.human {
			return false
		}
	}
	return last.Decider == p.human && last.Turn == p.state.Turn
}

// Undo takes back the human's last move (replaying the game without it) and returns it.
func (p *Game) Undo() (Entry, error) {
	if !p.CanUndo() {
		return Entry{}, fmt.Errorf("play: nothing to undo: your last move is not the last thing that happened in this turn, or it revealed other seats' sealed bids")
	}
	log := p.log[:len(p.log)-1]
	last := p.log[len(p.log)-1].Entry
	p.log, p.sealed = make([]Event, 0, len(log)), nil
	p.state = p.game.NewInitialStateSeed(p.seed)
	for i, e := range log {
		if _, err := p.Play(e.Move); err != nil {
			return Entry{}, fmt.Errorf("play: replaying move %d for undo: %w", i+1, err)
		}
	}
	return last, nil
}

// Amounts is the range of legal amounts of an amount decision.
type Amounts struct {
	Min, Max int
	Sealed   bool // a sealed bid: the others see it when every bid is in
}

// Choices lists the human's legal moves in the pending decision, the amounts collapsed into
// one range (nil when the decision takes no amount). It reads the human's redacted view.
func (p *Game) Choices() ([]rules.Move, *Amounts) {
	v := p.View()
	var moves []rules.Move
	var am *Amounts
	for _, m := range v.LegalMoves(nil) {
		if m.Kind != rules.Amount {
			moves = append(moves, m)
			continue
		}
		a := int(m.Amount)
		if am == nil {
			am = &Amounts{Min: a, Max: a, Sealed: SealedPhase(v.Decision().Phase)}
		}
		am.Min, am.Max = min(am.Min, a), max(am.Max, a)
	}
	return moves, am
}
