package training

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/models"
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

// The 3-player network shipped until commit faf9b65 (2026-12-02; models/retired/default-3p.bot), playing
// its most likely move all game ("@0"), leaves 4 of these 12 games against two manufacturers
// at the rules' safety limit of 1000 turns: broke opponents, and a position it repeats. With
// the loop breaker every game ends by two colours running out.
func TestLoopBreakerEndsGamesTheMostLikelyMoveStalls(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 24 games, up to 1000 turns each")
	}
	path := onCurrentLayoutPath(t, filepath.Join("..", "models", "retired", "default-3p.bot"))
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

// Edge cases of the trained bot (nnbot.go; the mutation records in docs/results/ name the bug each one catches).

// handBot is a NetBot whose policy ignores the observation: action a's logit is bias[a]
// (0 for the actions not named). It also returns a view of a real position to act in.
func handBot(t *testing.T, bias map[int]float32) (*NetBot, *rules.State) {
	t.Helper()
	opts := rules.DefaultOptions()
	f, _ := biasNet(t, opts)
	for i, p := range f.Weights.Config.Params() {
		if p.Name == "policy_b" {
			clear(f.Weights.Tensors[i])
			for a, v := range bias {
				f.Weights.Tensors[i][a] = v
			}
		}
	}
	nb, err := NewNetBot("hand", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(opts)
	st := g.NewInitialStateSeed(4)
	view := &rules.State{}
	st.Redact(st.CurrentPlayer(), view)
	return nb, view
}

// The temperature of a "bot@T" spec is accepted from 0 to bots.MaxTemperature inclusive;
// anything else (negative, above the maximum, NaN, infinite) is refused and leaves the
// temperature as it was.
func TestNetBotTemperatureRangeIsZeroToMaxInclusive(t *testing.T) {
	nb, _ := handBot(t, nil)
	for _, ok := range []float64{0, 0.5, bots.MaxTemperature} {
		if err := nb.SetTemperature(ok); err != nil || nb.Temperature != float32(ok) {
			t.Errorf("temperature %v: err %v, temperature now %v", ok, err, nb.Temperature)
		}
	}
	for _, bad := range []float64{-0.001, math.Nextafter(bots.MaxTemperature, math.Inf(1)), bots.MaxTemperature + 1, math.NaN(), math.Inf(1)} {
		if err := nb.SetTemperature(bad); err == nil || nb.Temperature != bots.MaxTemperature {
			t.Errorf("temperature %v accepted (err %v, temperature now %v)", bad, err, nb.Temperature)
		}
	}
}

// At temperature 0 the bot plays the first of the legal moves with equal highest logits.
func TestNetBotArgmaxTieGoesToTheFirstLegalMove(t *testing.T) {
	nb, view := handBot(t, map[int]float32{5: 3, 7: 8, 9: 8})
	for _, c := range []struct {
		legal []int
		want  int
	}{
		{[]int{5, 7, 9}, 7},
		{[]int{5, 9}, 9},
		{[]int{1, 2, 3}, 1},
	} {
		if got := nb.Act(view, c.legal); got != c.want {
			t.Errorf("legal %v: played %d, want %d (first of the highest logits)", c.legal, got, c.want)
		}
	}
}

// A legal list that holds an id past the network's action space (a caller's bug) never
// crashes the bot, greedy or sampling, and that id is never played.
func TestNetBotNeverPlaysOrCrashesOnAnIdPastItsActionSpace(t *testing.T) {
	nb, view := handBot(t, map[int]float32{3: 1})
	A := nb.net.Config().NumActions
	for _, temp := range []float64{0, 1} {
		if err := nb.SetTemperature(temp); err != nil {
			t.Fatal(err)
		}
		lists := [][]int{{3, A}, {3, A + 7}, {A, 3}, {-1, 3}}
		for _, legal := range lists {
			for range 20 {
				if got := nb.Act(view, legal); got != 3 {
					t.Fatalf("temperature %v, legal %v: played %d, want 3", temp, legal, got)
				}
			}
			out := []int{-2}
			nb.ActBatch([]*rules.State{view}, [][]int{legal}, out)
			if out[0] != 3 {
				t.Fatalf("temperature %v, legal %v: ActBatch played %d, want 3", temp, legal, out[0])
			}
		}
	}
}

// Sampling at temperature 1 with one legal move holding all the probability (logit 50
// against 0: e^-50) plays that move every time, action id 0 included, whatever its place in
// the legal list.
func TestNetBotSamplesTheMoveThatHoldsAllTheProbability(t *testing.T) {
	for _, hot := range []int{0, 4, 9} {
		nb, view := handBot(t, map[int]float32{hot: 50})
		if err := nb.SetTemperature(1); err != nil {
			t.Fatal(err)
		}
		legal := []int{0, 4, 9}
		for i := range 50 {
			if got := nb.Act(view, legal); got != hot {
				t.Fatalf("draw %d: played %d, want %d (probability 1 - 2e-22)", i, got, hot)
			}
		}
	}
}

// zeroSource makes rand.Rand.Float32 return exactly 0, the smallest draw.
type zeroSource struct{}

func (zeroSource) Uint64() uint64 { return 0 }

// Sampling never plays a legal move whose probability is 0 (its logit so far below the best
// that its softmax weight underflows), even when the uniform draw is exactly 0.
func TestNetBotNeverSamplesAMoveOfProbabilityZero(t *testing.T) {
	nb, view := handBot(t, map[int]float32{2: -200, 5: 0})
	if err := nb.SetTemperature(1); err != nil {
		t.Fatal(err)
	}
	nb.rng = rand.New(zeroSource{})
	if got := nb.Act(view, []int{2, 5}); got != 5 {
		t.Fatalf("played %d (probability 0) on a draw of 0, want 5", got)
	}
}

// A batch of no views is a no-op; a batch whose rows all have no legal action plays -1 in
// every row, like Act.
func TestNetBotActBatchOfNoViewsOrNoLegalMoves(t *testing.T) {
	nb, view := handBot(t, nil)
	nb.ActBatch(nil, nil, nil)
	for _, n := range []int{1, 3, 6} {
		views := make([]*rules.State, n)
		for i := range views {
			views[i] = view
		}
		out := make([]int, n)
		nb.ActBatch(views, make([][]int, n), out)
		for i, a := range out {
			if a != -1 {
				t.Fatalf("%d rows without legal moves: row %d played %d, want -1", n, i, a)
			}
		}
	}
}

// ActBatch evaluates a batch of at least two rows per worker on every worker (the bot keeps
// two), and a smaller batch on the first worker alone; either way it plays what Act plays.
func TestNetBotActBatchSplitsLargeBatchesOverItsWorkers(t *testing.T) {
	opts := rules.DefaultOptions()
	f, _ := biasNet(t, opts)
	g, _ := rules.NewGame(opts)
	views, legal := samplePositions(g, 5, 3)
	single, err := NewNetBot("s", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	used := func(ws *Workspace) bool { return ws.h[0] != nil }
	for n := 1; n <= 5; n++ {
		nb, err := NewNetBot("b", f, &opts, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(nb.wss) != 2 {
			t.Fatalf("%d workers, the test expects 2", len(nb.wss))
		}
		out := make([]int, n)
		nb.ActBatch(views[:n], legal[:n], out)
		for i := range n {
			if want := single.Act(views[i], legal[i]); out[i] != want {
				t.Fatalf("batch of %d, row %d: ActBatch played %d, Act %d", n, i, out[i], want)
			}
		}
		if !used(&nb.wss[0]) || used(&nb.wss[1]) != (n >= 4) {
			t.Errorf("batch of %d: worker 0 used %v, worker 1 used %v; want worker 1 only from 4 rows", n, used(&nb.wss[0]), used(&nb.wss[1]))
		}
	}
}

// After its first move a NetBot's moves allocate nothing (tournaments and self-play make
// millions): the encoder and the buffers are made once per game options.
func TestNetBotMovesAllocateNothingAfterTheFirst(t *testing.T) {
	nb, view := handBot(t, map[int]float32{3: 1})
	legal := []int{1, 3, 8}
	nb.Act(view, legal)
	if allocs := testing.AllocsPerRun(20, func() { nb.Act(view, legal) }); allocs != 0 {
		t.Fatalf("Act allocates %v times per move", allocs)
	}
}

// A bot made for 4-player games and then asked to move in a 5-player game reports
// ErrIncompatible and plays the first legal move instead of reading the view with the
// 4-player encoder; back in a 4-player game it plays its network again.
func TestNetBotMovedToAGameOfOtherOptionsReportsItAndPlaysTheFirstMove(t *testing.T) {
	nb, view := handBot(t, map[int]float32{3: 1})
	if got := nb.Act(view, []int{1, 3}); got != 3 || nb.Err() != nil {
		t.Fatalf("4 players: played %d (err %v), want 3", got, nb.Err())
	}
	five := rules.DefaultOptions()
	five.Players = 5
	g5, _ := rules.NewGame(five)
	st := g5.NewInitialStateSeed(4)
	v5 := &rules.State{}
	st.Redact(st.CurrentPlayer(), v5)
	if got := nb.Act(v5, []int{1, 3}); got != 1 || !errors.Is(nb.Err(), ErrIncompatible) {
		t.Fatalf("5 players: played %d, err %v; want 1 and ErrIncompatible", got, nb.Err())
	}
	out := make([]int, 4)
	nb.ActBatch([]*rules.State{v5, v5, v5, v5}, [][]int{{1, 3}, {1, 3}, {1, 3}, {1, 3}}, out)
	if !slices.Equal(out, []int{1, 1, 1, 1}) {
		t.Fatalf("5 players, batched: played %v, want the first moves", out)
	}
	if got := nb.Act(view, []int{1, 3}); got != 3 || nb.Err() != nil {
		t.Fatalf("back to 4 players: played %d (err %v), want 3", got, nb.Err())
	}
}

// The shipped bots are listed once each, default.bot (4 players) first.
func TestShippedBotNamesListEachFileOnceDefaultFirst(t *testing.T) {
	names, err := defaultNames()
	if err != nil {
		t.Skip("no embedded bots:", err)
	}
	if names[0] != "default.bot" {
		t.Fatalf("first shipped bot %q, want default.bot", names[0])
	}
	glob := models.Embedded()
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	if !slices.Equal(sorted, glob) {
		t.Fatalf("shipped bot names %v, embedded files %v: each must be listed exactly once", names, glob)
	}
}

// The "default" bot's description groups its models by rules and modules: no modules, all
// modules, and a single module by name.
func TestDescribeModelsGroupsByRulesAndModules(t *testing.T) {
	h := func(v rules.Variant, m rules.Modules, p int) BotHeader {
		return BotHeader{Rules: rules.Options{Players: p, Variant: v, Modules: m}}
	}
	got := describeModels([]BotHeader{
		h(rules.Base, 0, 4), h(rules.Base, 0, 3), h(rules.Classic, 0, 4),
		h(rules.Base, rules.AllModules, 5), h(rules.Base, rules.Trucks, 4), h(rules.Base, rules.AllModules, 4),
	})
	base, classic := rules.Base.String(), rules.Classic.String()
	want := base + " 3/4 players, " + classic + " 4 players, " + base + " + all modules 4/5 players, " + base + " + " + rules.Trucks.String() + " 4 players"
	if got != want {
		t.Fatalf("describeModels:\n got %q\nwant %q", got, want)
	}
}

// oneSource makes rand.Rand.Float32 return its largest value, 1 - 2^-24.
type oneSource struct{}

func (oneSource) Uint64() uint64 { return math.MaxUint64 }

// Even the largest uniform draw plays a move of positive probability when rounding of the
// probabilities leaves part of it unspent after the last such move (logits 0.5, 2.5, 4.375,
// 2.75 leave 1.5e-8 of the draw 1 - 2^-24), never the zero-probability move after them.
func TestNetBotLargestDrawStillPlaysAMoveOfPositiveProbability(t *testing.T) {
	nb, view := handBot(t, map[int]float32{1: 0.5, 2: 2.5, 3: 4.375, 4: 2.75, 5: -200})
	if err := nb.SetTemperature(1); err != nil {
		t.Fatal(err)
	}
	nb.rng = rand.New(oneSource{})
	if got := nb.Act(view, []int{1, 2, 3, 4, 5}); got != 4 {
		t.Fatalf("played %d on the largest draw, want 4 (the last move with a probability)", got)
	}
}

func TestNetBotFingerprintTellsNetworksApart(t *testing.T) {
	opts := rules.DefaultOptions()
	f, err := DefaultBotFor(opts)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewNetBot("default", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewNetBot("default", f, &opts, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint() == "" || a.Fingerprint() != b.Fingerprint() {
		t.Fatalf("one network, fingerprints %q and %q", a.Fingerprint(), b.Fingerprint())
	}
	g := *f
	w := *f.Weights
	w.Tensors = append([][]float32{}, f.Weights.Tensors...)
	w.Tensors[0] = append([]float32{}, w.Tensors[0]...)
	w.Tensors[0][0] += 0.5
	g.Weights = &w
	c, err := NewNetBot("default", &g, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Fingerprint() == a.Fingerprint() {
		t.Fatal("a retrained network under the same name has the same fingerprint")
	}
}

// biasNet is a network without hidden layers whose policy ignores the observation: every
// action's logit is its bias, bias[a] = (a*7) mod 31, so the best legal move is known.
func biasNet(t *testing.T, opts rules.Options) (*BotFile, func(a int) float32) {
	t.Helper()
	_, cfg, w := linearNet(t, opts)
	bias := func(a int) float32 { return float32((a * 7) % 31) }
	for i, p := range cfg.Params() {
		switch p.Name {
		case "policy_w":
			clear(w.Tensors[i])
		case "policy_b":
			for a := range w.Tensors[i] {
				w.Tensors[i][a] = bias(a)
			}
		}
	}
	return linearBotFile("bias", opts, w), bias
}

// A trained bot at temperature 0 plays the legal move with the highest logit (the first of
// equals), one at a time (Act) and batched (ActBatch), in every decision of a game.
func TestNetBotAtTemperatureZeroPlaysTheHighestLogitLegalMove(t *testing.T) {
	opts := rules.DefaultOptions()
	opts.TurnLimit = 20
	f, bias := biasNet(t, opts)
	nb, err := NewNetBot("bias", f, &opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(opts)
	st := g.NewInitialStateSeed(9)
	var view rules.State
	out := make([]int, 1)
	choices := 0
	for step := 0; !st.IsTerminal() && step < 2000; step++ {
		legal := st.LegalActions(nil)
		st.Redact(st.CurrentPlayer(), &view)
		want := legal[0]
		for _, a := range legal {
			if bias(a) > bias(want) {
				want = a
			}
		}
		if got := nb.Act(&view, legal); got != want {
			t.Fatalf("step %d: Act played %d (logit %g), the best legal move is %d (logit %g); legal %v", step, got, bias(got), want, bias(want), legal)
		}
		nb.ActBatch([]*rules.State{&view}, [][]int{legal}, out)
		if out[0] != want {
			t.Fatalf("step %d: ActBatch played %d, the best legal move is %d", step, out[0], want)
		}
		if len(legal) > 1 {
			choices++
		}
		st.Apply(want)
	}
	if nb.Err() != nil {
		t.Fatal(nb.Err())
	}
	if choices < 20 {
		t.Fatalf("only %d decisions with a choice: the test proves little", choices)
	}
}

// ActBatch, which encodes and evaluates its rows on two goroutines, plays exactly what Act
// plays row by row, greedy and sampling (the same seed draws in the same order); a row with
// no legal action gets -1 and the others still play.
func TestNetBotActBatchPlaysWhatActPlaysRowByRow(t *testing.T) {
	opts := rules.DefaultOptions()
	f, err := DefaultBotFor(opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	views, legal := samplePositions(g, 37, 11)
	for _, temp := range []float64{0, 0.7} {
		batched, err := NewNetBot("b", f, &opts, 5)
		if err != nil {
			t.Fatal(err)
		}
		single, _ := NewNetBot("s", f, &opts, 5)
		if err := batched.SetTemperature(temp); err != nil {
			t.Fatal(err)
		}
		_ = single.SetTemperature(temp)
		for round := range 3 {
			out := make([]int, len(views))
			batched.ActBatch(views, legal, out)
			for i := range views {
				if want := single.Act(views[i], legal[i]); out[i] != want {
					t.Fatalf("temperature %v, round %d, row %d: ActBatch played %d, Act %d", temp, round, i, out[i], want)
				}
			}
		}
	}
	b, _ := NewNetBot("b", f, &opts, 5)
	s, _ := NewNetBot("s", f, &opts, 5)
	withEmpty := append([][]int{}, legal...)
	withEmpty[3] = nil
	out := make([]int, len(views))
	b.ActBatch(views, withEmpty, out)
	for i := range views {
		if want := s.Act(views[i], withEmpty[i]); out[i] != want {
			t.Fatalf("row %d of a batch with an empty row: %d, want %d", i, out[i], want)
		}
	}
	if out[3] != -1 {
		t.Fatalf("the row without legal actions played %d, want -1", out[3])
	}
}
