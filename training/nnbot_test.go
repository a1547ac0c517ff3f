package training

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
)

// realBot is an untrained network with the real observation and action sizes.
func realBot(t *testing.T, opts rules.Options) *BotFile {
	t.Helper()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	enc := encoding.NewEncoder(g)
	w, err := NewWeights(NetConfig{ObsDim: enc.Size(), NumActions: enc.NumActions(), ValueDim: opts.Players, Width: 16, Depth: 1, Norm: NormLayer}, 3)
	if err != nil {
		t.Fatal(err)
	}
	return &BotFile{Header: BotHeader{Name: "t", EncodingVersion: encoding.Version, Actions: CurrentActionLayout(), Rules: opts}, Weights: w}
}

func TestNetBotMaskedPolicyNeverPlaysIllegalActions(t *testing.T) {
	opts := rules.DefaultOptions()
	opts.TurnLimit = 60
	b := realBot(t, opts)
	// eval.Run fails with ErrIllegalBotAction on any illegal choice; argmax and sampling both.
	if _, err := EvalWeights(b.Weights, opts, "valuer", 4, 1, 1); err != nil {
		t.Fatal(err)
	}
	nb, err := NewNetBot("t", b, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	nb.Temperature = 2
	g, _ := rules.NewGame(opts)
	st := g.NewInitialStateSeed(5)
	var view rules.State
	var legal []int
	views := make([]*rules.State, 0, 8)
	for step := 0; !st.IsTerminal() && step < 3000; step++ {
		seat := st.CurrentPlayer()
		legal = st.LegalActions(legal)
		st.Redact(seat, &view)
		a := nb.Act(&view, legal)
		// The batched path agrees in legality too.
		out := make([]int, 1)
		nb.ActBatch(append(views[:0], &view), [][]int{legal}, out)
		for _, x := range []int{a, out[0]} {
			if err := st.Clone().ApplyChecked(x); err != nil {
				t.Fatalf("step %d: bot chose illegal action %d: %v", step, x, err)
			}
		}
		st.Apply(a)
	}
	if nb.Err() != nil {
		t.Fatal(nb.Err())
	}
}

func TestLoadedBotForOtherOptionsIsAClearError(t *testing.T) {
	opts := rules.DefaultOptions()
	path := filepath.Join(t.TempDir(), "x.bot")
	if err := realBot(t, opts).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := bots.New(path, opts, 1); err != nil {
		t.Fatalf("loading for the trained options: %v", err)
	}
	five := opts
	five.Players = 5
	_, err := bots.New(path, five, 1)
	if !errors.Is(err, ErrIncompatible) {
		t.Fatalf("loading a 4-player bot for 5 players: got %v, want ErrIncompatible", err)
	}
}

// "default@T" makes the shipped bot sample at temperature T: @0 plays exactly like
// "default", and a high temperature plays differently over a game.
func TestDefaultWithTemperatureSuffixSamples(t *testing.T) {
	opts := rules.DefaultOptions()
	mk := func(spec string) *NetBot {
		b, err := bots.New(spec, opts, 5)
		if err != nil {
			t.Fatal(err)
		}
		nb, ok := b.(*NetBot)
		if !ok {
			t.Fatalf("%s is a %T, want *NetBot", spec, b)
		}
		return nb
	}
	argmax, zero, hot := mk("default"), mk("default@0"), mk("default@5")
	if argmax.Temperature != 0 || zero.Temperature != 0 || hot.Temperature != 5 {
		t.Fatalf("temperatures %v %v %v, want 0 0 5", argmax.Temperature, zero.Temperature, hot.Temperature)
	}
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(3)
	view := &rules.State{}
	differ := 0
	for step := 0; step < 200 && !st.IsTerminal(); step++ {
		legal := st.LegalActions(nil)
		st.Redact(st.CurrentPlayer(), view)
		a, b, c := argmax.Act(view, legal), zero.Act(view, legal), hot.Act(view, legal)
		if a != b {
			t.Fatalf("step %d: default played %d, default@0 played %d", step, a, b)
		}
		if !slices.Contains(legal, c) {
			t.Fatalf("step %d: default@5 played illegal %d", step, c)
		}
		if c != a {
			differ++
		}
		st.Apply(a)
	}
	if differ == 0 {
		t.Fatal("default@5 never chose differently from default in 200 decisions")
	}
}

// A bot trained on observations without opponents' cash reads that variant: its encoder
// hides the cash, so its network's inputs do not change with an opponent's cash, while a
// standard bot's do; a file naming an unknown encoding is refused with ErrIncompatible.
func TestHiddenCashBotReadsTheHiddenCashObservation(t *testing.T) {
	opts := rules.DefaultOptions()
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(9)
	for range 40 {
		st.Apply(st.LegalActions(nil)[0])
	}
	inputs := func(version string, s *rules.State) []float32 {
		f := realBot(t, opts)
		f.Header.EncodingVersion = version
		nb, err := NewNetBot("t", f, &opts, 1)
		if err != nil {
			t.Fatal(err)
		}
		view := &rules.State{}
		s.Redact(s.CurrentPlayer(), view)
		nb.grow(1)
		if !nb.encodeRow(0, view, s.LegalActions(nil)) {
			t.Fatal(nb.Err())
		}
		return slices.Clone(nb.obs[:nb.net.Config().ObsDim])
	}
	richer := st.Clone()
	for p := range richer.Players {
		if p != st.CurrentPlayer() {
			richer.Players[p].Cash += 25
		}
	}
	if !slices.Equal(inputs(encoding.HiddenCashVersion, st), inputs(encoding.HiddenCashVersion, richer)) {
		t.Error("a hidden-cash bot's inputs change with the opponents' cash")
	}
	if slices.Equal(inputs(encoding.Version, st), inputs(encoding.Version, richer)) {
		t.Error("a standard bot's inputs ignore the opponents' cash")
	}
	f := realBot(t, opts)
	f.Header.EncodingVersion = "obs-v0"
	if _, err := NewNetBot("t", f, &opts, 1); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "obs-v0") {
		t.Errorf("unknown encoding: err = %v, want ErrIncompatible naming it", err)
	}
}

// TestNetBotAdvise checks the default bot's advice: one probability per legal action summing
// to 1, its best move is the move Act plays, and one value per seat.
func TestNetBotAdvise(t *testing.T) {
	opts := rules.DefaultOptions()
	b, err := bots.New(bots.DefaultName, opts, 1)
	if err != nil {
		t.Skip("no default bot in this build:", err)
	}
	adv, ok := b.(bots.Advisor)
	if !ok {
		t.Fatalf("%T does not implement bots.Advisor", b)
	}
	g, _ := rules.NewGame(opts)
	s := g.NewInitialStateSeed(3)
	view := g.NewInitialState()
	for i := 0; i < 40 && !s.IsTerminal(); i++ {
		legal := s.LegalActions(nil)
		s.Redact(s.CurrentPlayer(), view)
		a, err := adv.Advise(view, legal)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Probs) != len(legal) || len(a.Values) != opts.Players {
			t.Fatalf("step %d: %d probs for %d legal, %d values", i, len(a.Probs), len(legal), len(a.Values))
		}
		sum, best := 0.0, 0
		for k, p := range a.Probs {
			sum += p
			if p > a.Probs[best] {
				best = k
			}
		}
		if sum < 0.999 || sum > 1.001 {
			t.Fatalf("step %d: probabilities sum to %v", i, sum)
		}
		if act := b.Act(view, legal); act != legal[best] {
			t.Fatalf("step %d: Act plays %d, the most probable move is %d", i, act, legal[best])
		}
		s.Apply(legal[best])
	}
}

// A bot that plays its most likely move samples at temperature 1 from turn LoopBreakTurn on
// (a repeated position cannot repeat forever), never before; "@0" (SetTemperature) turns
// that off and plays the most likely move all game.
func TestNetBotSamplesOnlyFromTheLoopBreakTurn(t *testing.T) {
	opts := rules.DefaultOptions()
	f := realBot(t, opts)
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewInitialStateSeed(3)
	legal := st.LegalActions(nil)
	view := &rules.State{}
	st.Redact(st.CurrentPlayer(), view)
	strict, err := NewNetBot("t", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.SetTemperature(0); err != nil || strict.LoopBreakTurn != 0 {
		t.Fatalf("SetTemperature(0): %v, loop break turn %d, want 0", err, strict.LoopBreakTurn)
	}
	best := strict.Act(view, legal)
	differ := 0
	for seed := range uint64(64) {
		b, err := NewNetBot("t", f, &opts, seed)
		if err != nil {
			t.Fatal(err)
		}
		if b.LoopBreakTurn != DefaultLoopBreakTurn {
			t.Fatalf("a new bot breaks loops from turn %d, want %d", b.LoopBreakTurn, DefaultLoopBreakTurn)
		}
		view.Turn = int32(DefaultLoopBreakTurn - 1)
		if a := b.Act(view, legal); a != best {
			t.Fatalf("seed %d, turn %d: played %d, the most likely move is %d", seed, view.Turn, a, best)
		}
		strict.Seed(seed)
		view.Turn = int32(DefaultLoopBreakTurn)
		if a := strict.Act(view, legal); a != best {
			t.Fatalf("@0, seed %d, turn %d: played %d, the most likely move is %d", seed, view.Turn, a, best)
		}
		a := b.Act(view, legal)
		if !slices.Contains(legal, a) {
			t.Fatalf("seed %d: illegal %d", seed, a)
		}
		if a != best {
			differ++
		}
	}
	if differ == 0 {
		t.Fatalf("from turn %d no seed of 64 played other than the most likely move among %d", DefaultLoopBreakTurn, len(legal))
	}
}

// The 3-player network shipped until commit faf9b65 (2026-12-02; training/retired/default-3p.bot), playing
// its most likely move all game ("@0"), leaves 4 of these 12 games against two manufacturers
// at the rules' safety limit of 1000 turns: broke opponents, and a position it repeats. With
// the loop breaker every game ends by two colours running out.
func TestLoopBreakerEndsGamesTheMostLikelyMoveStalls(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 24 games, up to 1000 turns each")
	}
	path := filepath.Join("retired", "default-3p.bot")
	opts := rules.DefaultOptions()
	opts.Players = 3
	ends := func(agent string) map[string]int {
		res, err := eval.Run(context.Background(), eval.Config{Agents: []string{agent, "manufacturer", "manufacturer"}, Games: 12, Options: opts, Seed: 7, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return eval.Summarize(res).EndReason
	}
	if got := ends(path + "@0"); got["turn-limit"] != 4 {
		t.Fatalf("@0: end reasons %v, want 4 games at the turn limit", got)
	}
	if got := ends(path); got["turn-limit"] != 0 {
		t.Fatalf("with the loop breaker: end reasons %v, want none at the turn limit", got)
	}
}
