package bots

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// seatGame makes a game of opts and a scripted bot per seat (valuer, shipper, manufacturer in
// turn, seeded from the seat).
func seatGame(t testing.TB, o rules.Options, seed uint64) (*rules.Game, []Bot) {
	t.Helper()
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"valuer", "shipper", "manufacturer"}
	players := make([]Bot, o.Players)
	for s := range players {
		if players[s], err = New(names[s%len(names)], o, seed*10+uint64(s)); err != nil {
			t.Fatal(err)
		}
	}
	return g, players
}

// handLoop plays a game the way every loop was written before Seat: legal actions, the
// decider's redacted view, the bot's choice, checked apply. It returns the actions.
func handLoop(t *testing.T, o rules.Options, seed uint64) []int {
	g, players := seatGame(t, o, seed)
	st := g.NewInitialStateSeed(seed)
	var view rules.State
	var legal, actions []int
	for !st.IsTerminal() {
		seat := st.CurrentPlayer()
		legal = st.LegalActions(legal)
		st.Redact(seat, &view)
		a := players[seat].Act(&view, legal)
		if err := st.ApplyChecked(a); err != nil {
			t.Fatal(err)
		}
		actions = append(actions, a)
	}
	return actions
}

func TestSeatPlaysTheSameGamesAsTheHandWrittenLoop(t *testing.T) {
	for _, tc := range []struct {
		players int
		variant rules.Variant
		modules rules.Modules
	}{{3, rules.Base, 0}, {4, rules.Classic, 0}, {5, rules.Base, rules.AllModules}} {
		o := rules.DefaultOptions()
		o.Players, o.Variant, o.Modules = tc.players, tc.variant, tc.modules
		for seed := uint64(1); seed <= 2; seed++ {
			want := handLoop(t, o, seed)
			g, players := seatGame(t, o, seed)
			seats := make([]Seat, o.Players)
			for s := range seats {
				seats[s].Bot = players[s]
			}
			st := g.NewInitialStateSeed(seed)
			var got []int
			for !st.IsTerminal() {
				a, err := seats[st.CurrentPlayer()].Act(st)
				if err != nil {
					t.Fatal(err)
				}
				st.Apply(a)
				got = append(got, a)
			}
			if len(got) != len(want) {
				t.Fatalf("%+v seed %d: %d decisions through Seat, %d by hand", o, seed, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%+v seed %d: decision %d is %d through Seat, %d by hand", o, seed, i, got[i], want[i])
				}
			}
		}
	}
}

// spyBot records what it was shown and plays legal[pick] (or answer when set).
type spyBot struct {
	seat    int   // decider in the last view
	cards   []int // scoring cards in the last view
	legal   []int // legal ids it was given
	pick    int
	answer  *int
	batched int
}

func (b *spyBot) Name() string { return "spy" }

func (b *spyBot) Act(view *rules.State, legal []int) int {
	b.seat = view.Decision().Decider
	b.cards = b.cards[:0]
	for i := 0; i < view.Game().Options().Players; i++ {
		b.cards = append(b.cards, int(view.Players[i].Card))
	}
	b.legal = append(b.legal[:0], legal...)
	if b.answer != nil {
		return *b.answer
	}
	return legal[b.pick%len(legal)]
}

func (b *spyBot) ActBatch(views []*rules.State, legal [][]int, out []int) {
	b.batched++
	for i := range views {
		out[i] = b.Act(views[i], legal[i])
	}
}

func (b *spyBot) ActPolicy(view *rules.State, legal []int, probs []float32) (int, float32) {
	a := b.Act(view, legal)
	if a >= 0 && a < len(probs) {
		probs[a] = 1
	}
	return a, 0.25
}

func newGameState(t *testing.T, players int, seed uint64) *rules.State {
	t.Helper()
	o := rules.DefaultOptions()
	o.Players = players
	g, err := rules.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	return g.NewInitialStateSeed(seed)
}

func TestSeatShowsTheBotOnlyTheDecidersRedactedView(t *testing.T) {
	st := newGameState(t, 4, 3)
	spy := &spyBot{}
	seat := NewSeat(spy)
	for step := 0; step < 40 && !st.IsTerminal(); step++ {
		d := st.CurrentPlayer()
		a, err := seat.Act(st)
		if err != nil {
			t.Fatal(err)
		}
		if spy.seat != d || seat.Decider() != d {
			t.Fatalf("step %d: the bot saw decider %d (seat says %d), the decider is %d", step, spy.seat, seat.Decider(), d)
		}
		for s, c := range spy.cards {
			if s != d && c != rules.Unknown {
				t.Fatalf("step %d: seat %d's bot saw seat %d's scoring card %d", step, d, s, c)
			}
			if s == d && c != int(st.Players[d].Card) {
				t.Fatalf("step %d: seat %d's bot saw its own card as %d, not %d", step, d, c, st.Players[d].Card)
			}
		}
		want := st.LegalActions(nil)
		if !slices.Equal(spy.legal, want) {
			t.Fatalf("step %d: the bot got legal %v, want %v", step, spy.legal, want)
		}
		st.Apply(a)
		spy.pick++
	}
}

func TestSeatRejectsAnIllegalChoiceAndNamesTheBot(t *testing.T) {
	st := newGameState(t, 3, 5)
	before := st.Hash()
	for _, bad := range []int{-1, rules.NumDistinctActions(), 1 << 40} {
		spy := &spyBot{answer: &bad}
		_, err := NewSeat(spy).Act(st)
		if !errors.Is(err, ErrIllegalAction) {
			t.Fatalf("answer %d: err = %v, want ErrIllegalAction", bad, err)
		}
		if !strings.Contains(err.Error(), "spy (seat") {
			t.Errorf("answer %d: error %q does not name the bot and seat", bad, err)
		}
	}
	// A legal-looking id that is not legal now.
	legal := st.LegalActions(nil)
	notNow := 0
	for slices.Contains(legal, notNow) {
		notNow++
	}
	spy := &spyBot{answer: &notNow}
	if _, err := NewSeat(spy).Act(st); !errors.Is(err, ErrIllegalAction) {
		t.Fatalf("action %d (not legal now): err = %v, want ErrIllegalAction", notNow, err)
	}
	if st.Hash() != before {
		t.Fatal("asking a seat changed the position")
	}
}

func TestSeatRefusesFinishedGamesUnpreparedDecisionsAndMissingBots(t *testing.T) {
	g, players := seatGame(t, rules.DefaultOptions(), 2)
	st := g.NewInitialStateSeed(2)
	seat := NewSeat(players[0])
	for !st.IsTerminal() {
		seat.Bot = players[st.CurrentPlayer()]
		a, err := seat.Act(st)
		if err != nil {
			t.Fatal(err)
		}
		st.Apply(a)
	}
	if _, err := seat.Act(st); !errors.Is(err, ErrNoLegalAction) {
		t.Fatalf("finished game: err = %v, want ErrNoLegalAction", err)
	}
	if _, err := seat.Decide(); err == nil {
		t.Fatal("Decide after a failed Prepare gave no error")
	}

	st = g.NewInitialStateSeed(2)
	if _, err := NewSeat(players[0]).Decide(); err == nil {
		t.Fatal("Decide without Prepare gave no error")
	}
	seat = NewSeat(players[st.CurrentPlayer()])
	if _, err := seat.Act(st); err != nil {
		t.Fatal(err)
	}
	if _, err := seat.Decide(); err == nil {
		t.Fatal("a second Decide on the same prepared position gave no error")
	}
	if _, err := NewSeat(nil).Act(st); err == nil || !strings.Contains(err.Error(), "no bot") {
		t.Fatalf("seat without a bot: err = %v", err)
	}
}

func TestSeatActLegalHandsTheGivenLegalActionsToTheBot(t *testing.T) {
	st := newGameState(t, 4, 9)
	legal := st.LegalActions(nil)
	spy := &spyBot{pick: 1}
	a, err := NewSeat(spy).ActLegal(st, legal)
	if err != nil {
		t.Fatal(err)
	}
	if a != legal[1%len(legal)] || len(spy.legal) != len(legal) {
		t.Fatalf("got %d from %v, want legal[1] of %v", a, spy.legal, legal)
	}
	// The check is against the given list: an action outside it is refused.
	if _, err := NewSeat(spy).ActLegal(st, legal[:0:0]); !errors.Is(err, ErrNoLegalAction) {
		t.Fatalf("empty legal list: err = %v, want ErrNoLegalAction", err)
	}
	if len(legal) > 1 {
		only := legal[:1]
		spy.pick = 1 // legal[1%1] = legal[0]: still inside
		if _, err := NewSeat(spy).ActLegal(st, only); err != nil {
			t.Fatal(err)
		}
		bad := legal[1]
		spy.answer = &bad
		if _, err := NewSeat(spy).ActLegal(st, only); !errors.Is(err, ErrIllegalAction) {
			t.Fatalf("action outside the given list: err = %v, want ErrIllegalAction", err)
		}
	}
}

func TestSeatActPolicyReturnsTheCheckedActionAndTheBotsValue(t *testing.T) {
	st := newGameState(t, 3, 4)
	legal := st.LegalActions(nil)
	probs := make([]float32, rules.NumDistinctActions())
	a, v, err := NewSeat(&spyBot{}).ActPolicy(st, legal, probs)
	if err != nil || a != legal[0] || v != 0.25 || probs[a] != 1 {
		t.Fatalf("ActPolicy = %d, %v, %v; want %d, 0.25, nil with probs[%d] = 1", a, v, err, legal[0], legal[0])
	}
	bad := -3
	if _, _, err := NewSeat(&spyBot{answer: &bad}).ActPolicy(st, legal, probs); !errors.Is(err, ErrIllegalAction) {
		t.Fatalf("illegal policy action: err = %v", err)
	}
	if _, _, err := NewSeat(NewRandom(1)).ActPolicy(st, legal, probs); err == nil {
		t.Fatal("a bot without a policy was accepted by ActPolicy")
	}
}

func TestBatchDecidesLikeOneSeatAtATimeAndFindsTheIllegalGame(t *testing.T) {
	const games = 5
	states := make([]*rules.State, games)
	seats := make([]Seat, games)
	for i := range states {
		states[i] = newGameState(t, 4, uint64(i+1))
	}
	spy := &spyBot{pick: 2}
	var b Batch
	for round := 0; round < 30; round++ {
		b.Reset()
		for i := range seats {
			if err := seats[i].Prepare(states[i]); err != nil {
				t.Fatal(err)
			}
			b.Add(&seats[i])
		}
		if b.Len() != games {
			t.Fatalf("Len = %d after %d Adds", b.Len(), games)
		}
		out, err := b.Act(spy)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range states {
			legal := st.LegalActions(nil)
			if want := legal[spy.pick%len(legal)]; out[i] != want {
				t.Fatalf("round %d game %d: batch chose %d, one at a time %d", round, i, out[i], want)
			}
			st.Apply(out[i])
		}
	}
	// An unprepared seat in a batch is refused.
	if _, err := b.Act(spy); err == nil {
		t.Fatal("a batch of already decided seats was asked again")
	}
	// An illegal answer names its position in the batch.
	b.Reset()
	for i := range seats {
		if err := seats[i].Prepare(states[i]); err != nil {
			t.Fatal(err)
		}
		b.Add(&seats[i])
	}
	bad := -7
	liar := &liarBatch{spyBot{pick: 0}, 3, bad}
	_, err := b.Act(liar)
	var be *BatchError
	if !errors.As(err, &be) || be.Index != 3 || !errors.Is(err, ErrIllegalAction) {
		t.Fatalf("err = %v, want a BatchError at index 3 wrapping ErrIllegalAction", err)
	}
	b.Reset()
	if out, err := b.Act(spy); err != nil || len(out) != 0 {
		t.Fatalf("empty batch: %v, %v", out, err)
	}
}

// liarBatch answers bad for the game at index at.
type liarBatch struct {
	spyBot
	at, bad int
}

func (l *liarBatch) ActBatch(views []*rules.State, legal [][]int, out []int) {
	l.spyBot.ActBatch(views, legal, out)
	out[l.at] = l.bad
}

func TestSeatActAllocatesNothingPerDecision(t *testing.T) {
	g, players := seatGame(t, rules.DefaultOptions(), 1)
	for s := range players {
		players[s] = NewRandom(uint64(s))
	}
	seats := make([]Seat, len(players))
	for s := range seats {
		seats[s].Bot = players[s]
	}
	st := g.NewInitialStateSeed(1)
	step := func() {
		if st.IsTerminal() {
			g.ResetState(st, 1)
		}
		a, err := seats[st.CurrentPlayer()].Act(st)
		if err != nil {
			t.Fatal(err)
		}
		st.Apply(a)
	}
	for i := 0; i < 2000; i++ { // warm every seat's buffers
		step()
	}
	if n := testing.AllocsPerRun(500, step); n > 0.05 {
		t.Fatalf("%.2f allocations per decision, want 0", n)
	}
}

// BenchmarkSeatAct measures a decision of a random bot through Seat (legal actions,
// redaction, act, check) plus the unchecked apply; BenchmarkHandLoop is the same loop
// written out by hand, as the game loops were before Seat.
func BenchmarkSeatAct(b *testing.B) {
	g, _ := seatGame(b, rules.DefaultOptions(), 1)
	seats := make([]Seat, 4)
	for s := range seats {
		seats[s].Bot = NewRandom(uint64(s))
	}
	st := g.NewInitialStateSeed(1)
	b.ReportAllocs()
	for b.Loop() {
		if st.IsTerminal() {
			g.ResetState(st, 1)
		}
		a, err := seats[st.CurrentPlayer()].Act(st)
		if err != nil {
			b.Fatal(err)
		}
		st.Apply(a)
	}
}

func BenchmarkHandLoop(b *testing.B) {
	g, _ := seatGame(b, rules.DefaultOptions(), 1)
	players := make([]Bot, 4)
	for s := range players {
		players[s] = NewRandom(uint64(s))
	}
	st := g.NewInitialStateSeed(1)
	var view rules.State
	var legal []int
	b.ReportAllocs()
	for b.Loop() {
		if st.IsTerminal() {
			g.ResetState(st, 1)
		}
		seat := st.CurrentPlayer()
		legal = st.LegalActions(legal)
		st.Redact(seat, &view)
		st.Apply(players[seat].Act(&view, legal))
	}
}
