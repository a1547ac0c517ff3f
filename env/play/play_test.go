package play

import (
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

func newTestGame(t *testing.T, players, human int, seed uint64) *Game {
	t.Helper()
	o := rules.DefaultOptions()
	o.Players = players
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	bs := make([]bots.Bot, players)
	names := []string{"valuer", "shipper", "manufacturer", "random"}
	for s := range bs {
		if s == human {
			continue
		}
		if bs[s], err = bots.New(names[s%len(names)], o, seed+uint64(s)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := New(g, seed, human, bs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// humanMove picks the human's move the way a simple scripted player does: the k-th listed
// move, or the lowest amount.
func humanMove(t *testing.T, p *Game, k int) rules.Move {
	t.Helper()
	moves, am := p.Choices()
	if len(moves) > 0 {
		return moves[k%len(moves)]
	}
	if am == nil {
		t.Fatal("the human has neither moves nor amounts")
	}
	return rules.Move{Kind: rules.Amount, Amount: int32(am.Min + k%(am.Max-am.Min+1))}
}

func TestSealedBidsStayHiddenUntilTheRoundCloses(t *testing.T) {
	for _, c := range []struct {
		bid, next rules.Phase
		sealed    bool
		why       string
	}{
		{rules.PhaseDeliveryBid, rules.PhaseDeliveryBid, true, "next bidder"},
		{rules.PhaseDeliveryBid, rules.PhaseLoanOffer, true, "a bidder asks for a loan"},
		{rules.PhaseDeliveryBid, rules.PhaseDeliveryAccept, false, "deliverer decides"},
		{rules.PhaseDeliveryBid, rules.PhaseRunoffBid, false, "tie: bids shown before the runoff"},
		{rules.PhaseIncentiveBid, rules.PhaseLoanAccept, false, "borrower sees the offers"},
		{rules.PhaseRunoffBid, rules.PhaseTerminal, false, "game over"},
	} {
		if got := StillSealed(c.bid, c.next); got != c.sealed {
			t.Errorf("%s: StillSealed(%s, %s) = %v", c.why, c.bid, c.next, got)
		}
	}
}

// TestEverySealedBidIsRevealedOnceWhenItsRoundCloses plays whole games and checks the log:
// each sealed bid is revealed exactly once, by a later move (or its own, when it closes the
// round) whose next decision is outside the round, with the amount that was bid.
func TestEverySealedBidIsRevealedOnceWhenItsRoundCloses(t *testing.T) {
	bids := 0
	for seed := uint64(1); seed <= 3; seed++ {
		p := newTestGame(t, 4, 1, seed)
		var events []Event
		collect := func(ev Event) { events = append(events, ev) }
		for k := 0; !p.Over(); k++ {
			if err := p.RunBots(collect); err != nil {
				t.Fatal(err)
			}
			if p.Over() {
				break
			}
			ev, err := p.Play(humanMove(t, p, k))
			if err != nil {
				t.Fatal(err)
			}
			collect(ev)
		}
		if len(events) != len(p.Log()) {
			t.Fatalf("seed %d: %d events reported, %d logged", seed, len(events), len(p.Log()))
		}
		pending := map[Entry]int{} // sealed bid -> times seen unrevealed
		for i, ev := range events {
			if ev.SealedBid() {
				pending[ev.Entry]++
				bids++
			}
			for _, r := range ev.Revealed {
				if pending[r] == 0 {
					t.Fatalf("seed %d move %d: revealed %+v, which is not a pending sealed bid", seed, i, r)
				}
				pending[r]--
			}
		}
		for e, n := range pending {
			if n != 0 {
				t.Fatalf("seed %d: sealed bid %+v never revealed", seed, e)
			}
		}
	}
	if bids == 0 {
		t.Fatal("no sealed bid in three whole games: the test proves nothing")
	}
}

func TestUndoTakesBackOnlyTheHumansLastMoveOfTheTurn(t *testing.T) {
	undone := 0
	for seed := uint64(1); seed <= 6 && undone < 3; seed++ {
		p := newTestGame(t, 3, 0, seed)
		if p.CanUndo() {
			t.Fatal("undo offered before any move")
		}
		for k := 0; !p.Over() && undone < 3; k++ {
			if err := p.RunBots(nil); err != nil {
				t.Fatal(err)
			}
			if p.Over() {
				break
			}
			if p.CanUndo() && len(p.Log()) > 0 && p.Log()[len(p.Log())-1].Decider != 0 {
				t.Fatal("undo offered after a bot's move")
			}
			before, n := p.State().Hash(), len(p.Log())
			m := humanMove(t, p, k)
			if _, err := p.Play(m); err != nil {
				t.Fatal(err)
			}
			if !p.HumanToMove() || p.State().Turn != p.Log()[n].Turn {
				continue
			}
			if !p.CanUndo() {
				t.Fatal("the human's own last move of the turn cannot be undone")
			}
			got, err := p.Undo()
			if err != nil {
				t.Fatal(err)
			}
			if got.Move != m || p.State().Hash() != before || len(p.Log()) != n {
				t.Fatalf("undo gave back %v (played %v), hash restored %v, log %d (want %d)", got.Move, m, p.State().Hash() == before, len(p.Log()), n)
			}
			undone++
			if _, err := p.Play(humanMove(t, p, k+1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if undone == 0 {
		t.Fatal("no position where the human had two decisions in a row")
	}
}

// peekBot fails the test if it ever sees an opponent's scoring card.
type peekBot struct {
	t    *testing.T
	seat int
	bots.Bot
}

func (b peekBot) Act(view *rules.State, legal []int) int {
	for s := 0; s < view.Game().Options().Players; s++ {
		if s != b.seat && view.Players[s].Card != rules.Unknown {
			b.t.Fatalf("the bot of seat %d saw seat %d's scoring card", b.seat, s)
		}
	}
	return b.Bot.Act(view, legal)
}

func TestBotsAndTheHumanSeeOnlyTheirOwnView(t *testing.T) {
	o := rules.DefaultOptions()
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	bs := make([]bots.Bot, o.Players)
	for s := 1; s < o.Players; s++ {
		bs[s] = peekBot{t, s, bots.NewRandom(uint64(s))}
	}
	p, err := New(g, 4, 0, bs)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 200 && !p.Over(); k++ {
		if err := p.RunBots(nil); err != nil {
			t.Fatal(err)
		}
		if p.Over() {
			break
		}
		v := p.View()
		for s := 1; s < o.Players; s++ {
			if v.Players[s].Card != rules.Unknown {
				t.Fatalf("the human's view shows seat %d's scoring card", s)
			}
		}
		if _, err := p.Play(humanMove(t, p, k)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestChoicesListTheLegalMovesWithAmountsAsOneRange(t *testing.T) {
	p := newTestGame(t, 4, 2, 5)
	checked := 0
	for k := 0; !p.Over() && checked < 60; k++ {
		if err := p.RunBots(nil); err != nil {
			t.Fatal(err)
		}
		if p.Over() {
			break
		}
		moves, am := p.Choices()
		all := p.State().LegalMoves(nil)
		amounts := 0
		for _, m := range all {
			if m.Kind == rules.Amount {
				amounts++
				if am == nil || int(m.Amount) < am.Min || int(m.Amount) > am.Max {
					t.Fatalf("legal amount %d outside the offered range %+v", m.Amount, am)
				}
			}
		}
		if len(moves)+amounts != len(all) || (amounts > 0) != (am != nil) {
			t.Fatalf("%d moves and range %+v offered for %d legal moves (%d amounts)", len(moves), am, len(all), amounts)
		}
		if am != nil && am.Sealed != SealedPhase(p.State().Decision().Phase) {
			t.Fatalf("range %+v in phase %s", am, p.State().Decision().Phase)
		}
		if _, err := p.Play(humanMove(t, p, k)); err != nil {
			t.Fatal(err)
		}
		checked++
	}
}

func TestNewAndMovesRefuseWhatIsNotTheirs(t *testing.T) {
	g, err := rules.NewGame(rules.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	four := []bots.Bot{nil, bots.NewRandom(1), bots.NewRandom(2), bots.NewRandom(3)}
	if _, err := New(g, 1, 4, four); err == nil {
		t.Error("a human seat past the table was accepted")
	}
	if _, err := New(g, 1, 0, four[:3]); err == nil {
		t.Error("three players for four seats were accepted")
	}
	if _, err := New(g, 1, 1, four); err == nil {
		t.Error("a seat without a bot was accepted")
	}
	p, err := New(g, 1, 0, four)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.RunBots(nil); err != nil {
		t.Fatal(err)
	}
	if p.HumanToMove() {
		if _, err := p.BotMove(); err == nil {
			t.Error("a bot moved for the human")
		}
		before := p.State().Hash()
		if _, err := p.Play(rules.Move{Kind: rules.Amount, Amount: 1 << 20}); err == nil || p.State().Hash() != before {
			t.Errorf("an illegal move: err %v, position changed %v", err, p.State().Hash() != before)
		}
	}
	if _, err := p.Undo(); err == nil {
		t.Error("undo with nothing of the human's to take back")
	}
}

// Exactly the delivery bids, runoff additions and loan incentives are sealed: in every other
// phase an amount is shown at once.
func TestSealedPhasesAreTheThreeSealedBids(t *testing.T) {
	sealed := map[rules.Phase]bool{rules.PhaseDeliveryBid: true, rules.PhaseRunoffBid: true, rules.PhaseIncentiveBid: true}
	for p := rules.Phase(0); p < rules.NumPhases; p++ {
		if got := SealedPhase(p); got != sealed[p] {
			t.Errorf("SealedPhase(%s) = %v", p, got)
		}
		e := Entry{Move: rules.Move{Kind: rules.Amount, Amount: 3}, Phase: p}
		if e.SealedBid() != sealed[p] {
			t.Errorf("an amount in %s: SealedBid() = %v", p, e.SealedBid())
		}
	}
	if (Entry{Move: rules.Move{Kind: rules.Done}, Phase: rules.PhaseDeliveryBid}).SealedBid() {
		t.Error("a move that is not an amount is a sealed bid")
	}
}

// New refuses a human seat outside the table, naming the seats there are.
func TestNewRefusesAHumanSeatOutsideTheTable(t *testing.T) {
	o := rules.DefaultOptions()
	o.Players = 3
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	bs := make([]bots.Bot, 3)
	for i := range bs {
		bs[i] = bots.NewValuer(uint64(i))
	}
	for _, human := range []int{-1, 3, 4} {
		_, err := New(g, 1, human, bs)
		if err == nil || !strings.Contains(err.Error(), "is outside 0..2") {
			t.Errorf("human seat %d: %v", human, err)
		}
	}
	for _, human := range []int{0, 2} {
		if _, err := New(g, 1, human, bs); err != nil {
			t.Errorf("human seat %d: %v", human, err)
		}
	}
}
