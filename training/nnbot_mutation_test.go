package training

import (
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Tests written to kill surviving mutants of the trained bot (nnbot.go; docs/TESTING.md).

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
	glob, _ := fs.Glob(defaultFS, "default*.bot")
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
