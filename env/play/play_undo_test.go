package play

import (
	"reflect"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// Undo at the wrong moment, and the sealed-bid bookkeeping after an undo.

// undoRefused checks Undo is refused and changes nothing.
func undoRefused(t *testing.T, p *Game, why string) {
	t.Helper()
	if p.CanUndo() {
		t.Fatalf("%s: undo offered", why)
	}
	h, n := p.State().Hash(), len(p.Log())
	if _, err := p.Undo(); err == nil {
		t.Fatalf("%s: Undo succeeded", why)
	}
	if p.State().Hash() != h || len(p.Log()) != n {
		t.Fatalf("%s: a refused Undo changed the game", why)
	}
}

// Right after each human move (before the bots answer) undo is offered exactly when that
// move kept the turn and revealed no other seat's sealed bid: a move that ended the turn, or
// that closed a bidding round and so showed the human the others' bids, is final. Once a bot
// has moved, nothing is undone.
func TestUndoIsRefusedAfterTheTurnPassedOrABidWasRevealed(t *testing.T) {
	turnEnds, reveals, allowed := 0, 0, 0
	for seed := uint64(1); seed <= 8; seed++ {
		for _, players := range []int{3, 4, 5} {
			p := newTestGame(t, players, int(seed)%players, seed)
			for k := 0; !p.Over(); k++ {
				if err := p.RunBots(nil); err != nil {
					t.Fatal(err)
				}
				if p.Over() {
					break
				}
				if n := len(p.Log()); n > 0 && p.Log()[n-1].Decider != p.Human() {
					undoRefused(t, p, "after a bot's move")
				}
				turn := p.State().Turn
				ev, err := p.Play(humanMove(t, p, k))
				if err != nil {
					t.Fatal(err)
				}
				revealedOthers := false
				for _, r := range ev.Revealed {
					revealedOthers = revealedOthers || r.Decider != p.Human()
				}
				switch {
				case p.Over():
					undoRefused(t, p, "after the last move of the game")
				case p.State().Turn != turn:
					turnEnds++
					undoRefused(t, p, "after the turn passed")
				case revealedOthers:
					reveals++
					undoRefused(t, p, "after the human's bid revealed the others' sealed bids")
				default:
					allowed++
					if !p.CanUndo() {
						t.Fatalf("seed %d: the human's last move (%v) kept the turn and revealed nothing, yet undo is refused", seed, ev.Move)
					}
				}
			}
		}
	}
	if turnEnds < 10 || reveals < 10 || allowed < 10 {
		t.Fatalf("%d turn ends, %d reveals, %d undoable moves: too few to mean much", turnEnds, reveals, allowed)
	}
}

// replayed plays the moves of p's log on a fresh game of the same seed and returns its log.
func replayed(t *testing.T, p *Game) []Event {
	t.Helper()
	q := &Game{game: p.game, seed: p.seed, human: p.human, state: p.game.NewInitialStateSeed(p.seed), view: p.game.NewInitialStateSeed(p.seed), seats: p.seats}
	for i, ev := range p.Log() {
		if _, err := q.Play(ev.Move); err != nil {
			t.Fatalf("replaying move %d: %v", i, err)
		}
	}
	return q.Log()
}

// The human takes back every move it may (sealed bids that others have not answered yet
// among them) and plays another: the log stays exactly the log of the moves kept, every
// sealed bid kept is revealed exactly once when its round closes, and an undone bid is never
// revealed.
func TestSealedBidsAreKeptTrackOfAcrossUndo(t *testing.T) {
	undoneBids := 0
	for seed := uint64(1); seed <= 6; seed++ {
		p := newTestGame(t, 4, int(seed)%4, seed)
		for k := 0; !p.Over(); k++ {
			if err := p.RunBots(nil); err != nil {
				t.Fatal(err)
			}
			if p.Over() {
				break
			}
			m := humanMove(t, p, k)
			ev, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			if p.CanUndo() {
				got, err := p.Undo()
				if err != nil {
					t.Fatal(err)
				}
				if got != ev.Entry {
					t.Fatalf("undo gave back %+v, the move was %+v", got, ev.Entry)
				}
				if ev.SealedBid() {
					undoneBids++
				}
				// Another move (a different amount where there is one).
				if _, err := p.Play(humanMove(t, p, k+1)); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(p.Log(), replayed(t, p)) {
				t.Fatalf("seed %d move %d: the log after undo differs from a replay of its moves", seed, len(p.Log()))
			}
		}
		pending := map[int]bool{} // log index of each sealed bid not yet revealed
		for i, ev := range p.Log() {
			if ev.SealedBid() {
				pending[i] = true
			}
			for _, r := range ev.Revealed {
				j := -1
				for k := range pending {
					if pending[k] && p.Log()[k].Entry == r && (j < 0 || k < j) {
						j = k
					}
				}
				if j < 0 {
					t.Fatalf("seed %d move %d: revealed %+v, not a pending sealed bid of the log", seed, i, r)
				}
				pending[j] = false
			}
		}
		for i, open := range pending {
			if open {
				t.Fatalf("seed %d: the sealed bid at move %d (%+v) was never revealed", seed, i, p.Log()[i].Entry)
			}
		}
	}
	if undoneBids == 0 {
		t.Fatal("no sealed bid was undone: the test proves little")
	}
}

// The reveal rule looks at whose bids a move revealed: the human's own bid alone (a round of
// one bidder) keeps the move undoable, any other seat's bid makes it final.
func TestUndoAfterARevealDependsOnWhoseBidsWereShown(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		p := newTestGame(t, 3, 0, seed)
		for k := 0; !p.Over(); k++ {
			if err := p.RunBots(nil); err != nil {
				t.Fatal(err)
			}
			if p.Over() {
				break
			}
			ev, err := p.Play(humanMove(t, p, k))
			if err != nil {
				t.Fatal(err)
			}
			if len(ev.Revealed) > 0 || !p.CanUndo() {
				continue
			}
			last := &p.log[len(p.log)-1]
			last.Revealed = []Entry{{Decider: p.Human(), Phase: rules.PhaseDeliveryBid, Turn: last.Turn}}
			if !p.CanUndo() {
				t.Fatal("a move that revealed only the human's own bid cannot be undone")
			}
			last.Revealed = []Entry{{Decider: 1, Phase: rules.PhaseDeliveryBid, Turn: last.Turn}}
			if p.CanUndo() {
				t.Fatal("a move that revealed seat 1's bid can be undone")
			}
			return
		}
	}
	t.Fatal("no undoable human move")
}
