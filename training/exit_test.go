package training

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
)

// tinyExIt is a run small enough for a test: a tiny network, a few simulations, two games a
// generation, short games (the self-play turn limit ends them; the gating games stop at
// turn 30) and random opponents at the gate.
func tinyExIt(t *testing.T) ExItOptions {
	o := DefaultExItOptions()
	o.Out = t.TempDir()
	o.Generations, o.Games, o.ShardGames = 2, 2, 1
	o.Sims, o.Explore, o.Window, o.Steps, o.Batch = 4, 3, 2, 3, 32
	o.GateEvery, o.GateGames, o.GateOpponent = 1, 3, "random"
	o.SelfplayTurnLimit = 12
	o.Rules.TurnLimit = 30
	o.Net = NetConfig{Width: 8, Depth: 1, Norm: NormLayer}
	return o
}

// A run cancelled in the middle of a generation's self-play keeps the finished shards of
// that generation (nothing lost), and the same command resumes it: it replays only the
// unfinished shard and ends with the same metrics (times aside), the same network and the
// same best network file as a run that was never interrupted.
func TestExItResumeAfterCancelMatchesUninterruptedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a dozen short search games")
	}
	straight := tinyExIt(t)
	want, err := TrainExIt(context.Background(), straight)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Metrics) != 2 {
		t.Fatalf("%d metric rows, want 2", len(want.Metrics))
	}
	for g, row := range want.Metrics {
		if row[14] < 0 || row[18] < 0 || row[13] != 3 {
			t.Fatalf("generation %d was not gated: %v", g+1, row)
		}
	}

	killed := tinyExIt(t)
	killed.Workers = 1 // one game at a time, so the cancel falls between the two shards (and the workers may change)
	ctx, cancel := context.WithCancel(context.Background())
	killed.onGame = func(gen int64, games int) {
		if gen == 2 && games == 1 {
			cancel()
		}
	}
	res, err := TrainExIt(ctx, killed)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v, want context.Canceled", err)
	}
	if res == nil || res.Generations != 1 {
		t.Fatalf("cancelled run finished %+v generations, want 1", res)
	}
	m, err := datasets.ReadManifest(filepath.Join(killed.Out, "buffer", "gen-000002"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Shards) != 1 {
		t.Fatalf("the interrupted generation kept %d shards, want the 1 finished", len(m.Shards))
	}
	killed.onGame, killed.Workers = nil, 2
	got, err := TrainExIt(context.Background(), killed)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Resumed || got.Best != want.Best {
		t.Fatalf("resumed %v, best %s; want a resumed run with best %s", got.Resumed, got.Best, want.Best)
	}
	for i := range want.Metrics {
		for c, name := range ExItMetricNames {
			if name == "seconds" || name == "selfplay_seconds" || name == "gen_seconds" || name == "cpu_seconds" {
				continue
			}
			if got.Metrics[i][c] != want.Metrics[i][c] {
				t.Fatalf("generation %d %s: resumed %v, uninterrupted %v", i+1, name, got.Metrics[i][c], want.Metrics[i][c])
			}
		}
	}
	requireSameWeights(t, straight.Out, killed.Out)
	for _, g := range []string{"gen-000001.bot", "gen-000002.bot"} {
		a, _ := os.ReadFile(filepath.Join(straight.Out, "nets", g))
		b, _ := os.ReadFile(filepath.Join(killed.Out, "nets", g))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("nets/%s differs between the resumed and the uninterrupted run", g)
		}
	}
	// Extending the run continues it; changing a setting that shapes the games is refused.
	more := tinyExIt(t)
	more.Out, more.Generations = killed.Out, 3
	more.Window = 1 // also prunes: generations 1 and 2 leave the window
	if _, err := TrainExIt(context.Background(), more); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--window") {
		t.Fatalf("resume with another --window: %v, want ErrResumeMismatch naming --window", err)
	}
	more.Window = killed.Window
	ext, err := TrainExIt(context.Background(), more)
	if err != nil || ext.Generations != 3 {
		t.Fatalf("extended run: %v, %+v", err, ext)
	}
	if _, err := os.Stat(filepath.Join(killed.Out, "buffer", "gen-000001")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("generation 1 left the window of 2 but its buffer is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(killed.Out, "buffer", "gen-000003", "manifest.json")); err != nil {
		t.Errorf("generation 3's buffer: %v", err)
	}
}

// The replay buffer holds the search's targets: every kept row's policy is a distribution
// over its legal actions, forced moves are left out, and a game that reached the self-play
// turn limit gives every seat the value target -1 (a loss); with --value-mix the decider's
// target moves towards the search's value.
func TestExItBufferTargetsAreVisitSharesAndATurnLimitIsALoss(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	o := tinyExIt(t)
	o.Generations, o.GateEvery = 1, 0
	if _, err := TrainExIt(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(o.Out, "buffer", "gen-000001")
	w, _, err := WeightsFromRun(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	cfg := w.Config
	rows, err := loadExitRows(dir, cfg.ObsDim, cfg.NumActions, o.Rules.Players, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Games != 2 || rows.TurnLimitGames != 2 || rows.Len() == 0 || rows.Skipped == 0 {
		t.Fatalf("games %d (%d at the turn limit), %d rows, %d forced skipped; want 2 games both stopped at turn 12, rows and skipped forced moves",
			rows.Games, rows.TurnLimitGames, rows.Len(), rows.Skipped)
	}
	A, mb := rows.NumActions, rows.maskBytes()
	for i := range rows.Len() {
		sum, legal := 0.0, 0
		for a := range A {
			p := rows.Policy[i*A+a]
			on := rows.Mask[i*mb+a/8]&(1<<(a%8)) != 0
			if on {
				legal++
			}
			if p != 0 && !on {
				t.Fatalf("row %d: share %v on illegal action %d", i, p, a)
			}
			sum += float64(p)
		}
		if legal < 2 || math.Abs(sum-1) > 1e-4 {
			t.Fatalf("row %d: %d legal actions, shares sum to %v", i, legal, sum)
		}
		for k := range rows.ValueDim {
			if v := rows.Values[i*rows.ValueDim+k]; v != -1 {
				t.Fatalf("row %d seat %d: value target %v in a turn-limit game, want -1", i, k, v)
			}
		}
	}
	mixed, err := loadExitRows(dir, cfg.ObsDim, cfg.NumActions, o.Rules.Players, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	moved := false
	for i := range mixed.Len() {
		v0 := mixed.Values[i*mixed.ValueDim]
		if v0 < -1 || v0 > 0 {
			t.Fatalf("row %d: mixed target %v outside [-1, 0] (half of -1 plus half a value in -1..1)", i, v0)
		}
		moved = moved || v0 != -1
		if mixed.Values[i*mixed.ValueDim+1] != -1 {
			t.Fatalf("row %d: the mix changed another seat's target", i)
		}
	}
	if !moved {
		t.Error("--value-mix 0.5 left every decider's target at -1")
	}
	if _, err := loadExitRows(dir, cfg.ObsDim+1, cfg.NumActions, o.Rules.Players, 0); !errors.Is(err, ErrIncompatible) {
		t.Errorf("a buffer for another network: %v, want ErrIncompatible", err)
	}
}

// The search-target step learns: on a fixed batch whose targets put all weight on one legal
// action, the cross-entropy falls and the network comes to prefer that action.
func TestExItStepLearnsTheVisitDistribution(t *testing.T) {
	cfg := NetConfig{ObsDim: 20, NumActions: 12, ValueDim: 3, Width: 16, Depth: 1, Norm: NormLayer}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(backend, w, Hyper{LearningRate: 1e-2, ValueCoef: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	s, err := newExitStepper(tr)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const rows = 160 // two shards on the pure-Go backend
	b := &exitBatch{Rows: rows, Obs: make([]float32, rows*20), Mask: make([]float32, rows*12),
		Policy: make([]float32, rows*12), Values: make([]float32, rows*3)}
	for r := range rows {
		for j := range 20 {
			if rng.IntN(3) == 0 {
				b.Obs[r*20+j] = 1
			}
		}
		for _, a := range []int{1, 4, 7} {
			b.Mask[r*12+a] = 1
		}
		b.Policy[r*12+4] = 0.9
		b.Policy[r*12+7] = 0.1
		b.Values[r*3] = 0.5
	}
	first, err := s.Step(b)
	if err != nil {
		t.Fatal(err)
	}
	var last StepMetrics
	for range 60 {
		if last, err = s.Step(b); err != nil {
			t.Fatal(err)
		}
	}
	if !(last.PolicyLoss < first.PolicyLoss-0.2) || last.Accuracy != 1 || !(last.ValueLoss < first.ValueLoss) {
		t.Fatalf("first %+v, last %+v: want the policy loss down, accuracy 1, value error down", first, last)
	}
}

// Bad settings are refused before anything is written, each with one line naming it, and
// an initial network made for other games is refused.
func TestExItRefusesBadSettings(t *testing.T) {
	for name, edit := range map[string]func(*ExItOptions){
		"sims":           func(o *ExItOptions) { o.Sims = 0 },
		"value mix":      func(o *ExItOptions) { o.ValueMix = 1.5 },
		"gate":           func(o *ExItOptions) { o.GateGames = 0 },
		"bot":            func(o *ExItOptions) { o.GateOpponent = "nosuchbot" },
		"window":         func(o *ExItOptions) { o.Window = 0 },
		"turn limit":     func(o *ExItOptions) { o.SelfplayTurnLimit = -1 },
		"gate turn cap":  func(o *ExItOptions) { o.GateTurnLimitShare = math.NaN() },
		"rollout":        func(o *ExItOptions) { o.Rollout = "greedy" },
		"expert bot":     func(o *ExItOptions) { o.Expert = "valuer" },
		"expert key":     func(o *ExItOptions) { o.Expert = "ismcts:sims=0" },
		"expert value":   func(o *ExItOptions) { o.Expert = "ismcts:value=value-4p" },
		"expert no net":  func(o *ExItOptions) { o.Expert = "ismcts:net=default,value=nothere" },
		"expert 3p net":  func(o *ExItOptions) { o.Expert, o.Rules.Players = "ismcts:net=default,value=value-4p", 3 },
		"expert+rollout": func(o *ExItOptions) { o.Expert, o.Rollout = "ismcts", "valuer" },
		"opponent drop":  func(o *ExItOptions) { o.GateOpponentDrop = math.NaN() },
		"drop above 1":   func(o *ExItOptions) { o.GateOpponentDrop = 1.5 },
		"drop no opp":    func(o *ExItOptions) { o.GateOpponentDrop, o.GateOpponent = 0.1, "" },
		"drop no gate":   func(o *ExItOptions) { o.GateOpponentDrop, o.GateEvery = 0.1, 0 },
	} {
		o := tinyExIt(t)
		edit(&o)
		_, err := TrainExIt(context.Background(), o)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line error", name, err)
		}
		if ents, _ := os.ReadDir(o.Out); len(ents) != 0 {
			t.Errorf("%s: a refused start left %d entries in the run directory", name, len(ents))
		}
	}
	o := tinyExIt(t)
	f, err := DefaultBot() // 4 players
	if err != nil {
		t.Fatal(err)
	}
	o.Rules.Players = 3
	o.Init, o.InitEncoding, o.InitRules, o.InitFrom = f.Weights, f.Header.EncodingVersion, &f.Header.Rules, "default.bot"
	if _, err := TrainExIt(context.Background(), o); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "4 players") {
		t.Errorf("a 4-player network for 3-player games: %v, want ErrIncompatible naming the players", err)
	}
}

// With Rollout set, every self-play seat is the network-guided search with that rollout
// policy scoring the leaves (the network stays the prior): the buffer's agents say so, and
// a resume may not change it. Without it the agents name no rollout (the value head).
func TestExItRolloutReachesTheSelfPlaySearch(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	for _, rollout := range []string{"valuer", ""} {
		o := tinyExIt(t)
		o.Generations, o.GateEvery, o.Rollout = 1, 0, rollout
		if _, err := TrainExIt(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		m, err := datasets.ReadManifest(filepath.Join(o.Out, "buffer", "gen-000001"))
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Agents) != o.Rules.Players {
			t.Fatalf("rollout %q: agents %v", rollout, m.Agents)
		}
		for _, a := range m.Agents {
			has := strings.Contains(a, "rollout=valuer")
			if !strings.HasPrefix(a, "ismcts:") || !strings.Contains(a, "net=") || has != (rollout == "valuer") {
				t.Errorf("rollout %q: self-play agent %q", rollout, a)
			}
		}
		if rollout != "" {
			// The teacher cannot change on resume: the buffer would mix two searches' targets.
			o2 := o
			o2.Generations, o2.Rollout = 2, ""
			if _, err := TrainExIt(context.Background(), o2); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "rollout") {
				t.Errorf("resume without the rollout: %v, want ErrResumeMismatch naming rollout", err)
			}
		}
	}
}

// With Expert set, every self-play seat is that plain search (no network, one worker, the
// run's explore turns) whatever the best network is, its visit shares fill the policy
// column, and a resume may not change the expert (the buffer would mix two teachers).
func TestExItExpertPlaysTheSelfPlaySeats(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	o := tinyExIt(t)
	o.Generations, o.GateEvery, o.Expert = 1, 0, "ismcts:sims=6,workers=2,rollout=shipper"
	if _, err := TrainExIt(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(o.Out, "buffer", "gen-000001")
	m, err := datasets.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := "ismcts:sims=6,workers=1,rollout=shipper,depth=0,c=0.7,explore=3"
	if len(m.Agents) != o.Rules.Players {
		t.Fatalf("agents %v", m.Agents)
	}
	for _, a := range m.Agents {
		if a != want {
			t.Errorf("self-play agent %q, want %q", a, want)
		}
	}
	w, _, err := WeightsFromRun(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := loadExitRows(dir, w.Config.ObsDim, w.Config.NumActions, o.Rules.Players, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rows.Len() == 0 {
		t.Fatal("the expert's games left no decision with a choice")
	}
	o2 := o
	o2.Generations, o2.Expert = 2, "ismcts:sims=7"
	if _, err := TrainExIt(context.Background(), o2); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "expert") {
		t.Errorf("resume with another expert: %v, want ErrResumeMismatch naming the expert", err)
	}
}

// An expert may be guided by fixed networks (default's prior, a value network's leaves):
// every self-play seat plays that spec as given, and training moves the learner only.
func TestExItExpertWithFixedNetworksPlaysTheSelfPlaySeats(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	o := tinyExIt(t)
	o.Generations, o.GateEvery, o.Expert = 1, 0, "ismcts:sims=4,net=default,value=value-4p,leaf=mix,depth=5"
	if _, err := TrainExIt(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	m, err := datasets.ReadManifest(filepath.Join(o.Out, "buffer", "gen-000001"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range m.Agents {
		if !strings.HasPrefix(a, "ismcts:sims=4,workers=1,") || !strings.Contains(a, "net=default,value=value-4p,leaf=mix") || !strings.Contains(a, "explore=3") {
			t.Errorf("self-play agent %q, want the expert's spec with one worker and explore=3", a)
		}
	}
}

// Edge cases of the search-target (train exit) step and run
// (the mutation records in docs/results/ name the bug each one catches).

// exitTestNet is the network of the search-target step tests: 20 features, 12 actions, 3
// seats.
var exitTestNet = NetConfig{ObsDim: 20, NumActions: 12, ValueDim: 3, Width: 16, Depth: 1, Norm: NormLayer}

// randomExitBatch is a batch of rows search targets: sparse observations, 2 to 6 legal
// actions per row, a visit distribution over the legal ones and value targets in [-1, 1].
func randomExitBatch(rng *rand.Rand, rows int) *exitBatch {
	D, A, V := exitTestNet.ObsDim, exitTestNet.NumActions, exitTestNet.ValueDim
	b := &exitBatch{Rows: rows, Obs: make([]float32, rows*D), Mask: make([]float32, rows*A),
		Policy: make([]float32, rows*A), Values: make([]float32, rows*V)}
	for r := range rows {
		for j := range D {
			if rng.IntN(3) == 0 {
				b.Obs[r*D+j] = float32(rng.IntN(4))
			}
		}
		legal := rng.Perm(A)[:2+rng.IntN(5)]
		sum := float32(0)
		for _, a := range legal {
			b.Mask[r*A+a] = 1
			b.Policy[r*A+a] = float32(1 + rng.IntN(9))
			sum += b.Policy[r*A+a]
		}
		for _, a := range legal {
			b.Policy[r*A+a] /= sum
		}
		for s := range V {
			b.Values[r*V+s] = float32(rng.IntN(3) - 1)
		}
	}
	return b
}

func newTestExitStepper(t *testing.T, w *Weights, shards int, noCompact bool) (*Trainer, *exitStepper) {
	t.Helper()
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(backend, w, Hyper{LearningRate: 1e-2, ValueCoef: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	tr.SetShards(shards)
	tr.noCompact = noCompact
	s, err := newExitStepper(tr)
	if err != nil {
		t.Fatal(err)
	}
	return tr, s
}

// A train exit run steps on batches of whatever size its buffer yields (the last batch of a
// window, a short first generation): search-target steps on batches of several sizes, small
// ones in one execution and large ones split into shards, one after another on the same
// stepper, all run and give finite metrics.
func TestExItStepsOnBatchesOfEverySizeRun(t *testing.T) {
	w, err := NewWeights(exitTestNet, 3)
	if err != nil {
		t.Fatal(err)
	}
	tr, s := newTestExitStepper(t, w, 2, false)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, rows := range []int{3, 40, 100, 130, 200} {
		if k := tr.shardCount(rows); (k > 1) != (rows >= 2*minShardRows) {
			t.Fatalf("%d rows: %d shards", rows, k)
		}
		m, err := s.Step(randomExitBatch(rng, rows))
		if err != nil {
			t.Fatalf("a step on %d rows after smaller ones: %v", rows, err)
		}
		for i, v := range []float64{m.Loss, m.PolicyLoss, m.ValueLoss, m.Accuracy, m.Entropy} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%d rows: metric %d is %v", rows, i, v)
			}
		}
	}
}

// The search-target step split over shards, with observation columns and actions compacted,
// computes what the plain step computes (shard.go): the same metrics before each update and,
// after several updates, the same weights up to float rounding.
func TestShardedExItStepMatchesThePlainStep(t *testing.T) {
	w, err := NewWeights(exitTestNet, 5)
	if err != nil {
		t.Fatal(err)
	}
	fastTr, fast := newTestExitStepper(t, w, 2, false)
	plainTr, plain := newTestExitStepper(t, w, 1, true)
	rng := rand.New(rand.NewPCG(9, 10))
	const rows = 160 // two shards of 80
	if k := fastTr.shardCount(rows); k != 2 {
		t.Fatalf("%d rows split into %d shards, want 2", rows, k)
	}
	for step := range 3 {
		b := randomExitBatch(rng, rows)
		mf, err := fast.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		mp, err := plain.Step(b)
		if err != nil {
			t.Fatal(err)
		}
		for i, pair := range [][2]float64{{mf.Loss, mp.Loss}, {mf.PolicyLoss, mp.PolicyLoss}, {mf.ValueLoss, mp.ValueLoss},
			{mf.Accuracy, mp.Accuracy}, {mf.Entropy, mp.Entropy}} {
			if !closeRel(pair[0], pair[1], 1e-4) {
				t.Fatalf("step %d metric %d: sharded %.7f, plain %.7f", step, i, pair[0], pair[1])
			}
		}
	}
	wf, err := fastTr.Weights()
	if err != nil {
		t.Fatal(err)
	}
	wp, err := plainTr.Weights()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range exitTestNet.Params() {
		for k := range wf.Tensors[i] {
			if d := math.Abs(float64(wf.Tensors[i][k] - wp.Tensors[i][k])); d > 1e-4 {
				t.Fatalf("%s[%d]: sharded %v, plain %v", p.Name, k, wf.Tensors[i][k], wp.Tensors[i][k])
			}
		}
	}
}

// A context cancelled before train exit starts stops it before the first generation: the
// result counts no generation and the error is the cancellation, with the run directory
// left to resume.
func TestTrainExItWithACancelledContextTrainsNoGeneration(t *testing.T) {
	o := tinyExIt(t)
	o.Generations = 1
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := TrainExIt(ctx, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before the start: %v, want context.Canceled", err)
	}
	if res == nil || res.Generations != 0 {
		t.Fatalf("cancelled before the start: %+v, want no generation", res)
	}
	if _, err := os.Stat(filepath.Join(o.Out, "nets", genName(0)+".bot")); err != nil {
		t.Errorf("the initial network of the cancelled run: %v", err)
	}
}

// An initial network read from a bot file of another observation encoding is refused with
// ErrIncompatible naming both encodings, before anything is written; one of this build's
// encoding is accepted (the run starts).
func TestExItRefusesAnInitialNetworkOfAnotherEncoding(t *testing.T) {
	o := tinyExIt(t)
	f, err := DefaultBot()
	if err != nil {
		t.Fatal(err)
	}
	o.Rules = f.Header.Rules
	o.Rules.TurnLimit = 30
	o.Init, o.InitRules, o.InitFrom = f.Weights, &f.Header.Rules, "old.bot"
	o.InitEncoding = encoding.VersionV1
	_, err = TrainExIt(context.Background(), o)
	if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), encoding.VersionV1) || !strings.Contains(err.Error(), encoding.Version) {
		t.Fatalf("an initial network reading %s: %v, want ErrIncompatible naming both encodings", encoding.VersionV1, err)
	}
	if ents, _ := os.ReadDir(o.Out); len(ents) != 0 {
		t.Errorf("a refused start left %d entries in the run directory", len(ents))
	}
	// The same network with this build's encoding gets past the check: a cancelled context
	// then stops the run before its first generation.
	o.Out, o.InitEncoding = t.TempDir(), encoding.Version
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TrainExIt(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("an initial network reading %s: %v, want the run to start (and stop at once)", encoding.Version, err)
	}
}

// The replay buffer window streams from its files through a shuffle buffer: with a buffer
// of 5 decisions, far fewer than the window holds, a run trains every generation, counts
// the window's decisions with a choice exactly (as loading them would), and never holds more
// than 5 rows; a buffer of 0 is refused.
func TestExItStreamsTheWindowThroughItsBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("plays short search games")
	}
	o := tinyExIt(t)
	o.Buffer, o.KeepBuffer, o.GateEvery = 5, true, 0
	res, err := TrainExIt(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := WeightsFromRun(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	for g := int64(1); g <= 2; g++ {
		r, err := loadExitRows(filepath.Join(o.Out, "buffer", genName(g)), w.Config.ObsDim, w.Config.NumActions, o.Rules.Players, 0)
		if err != nil {
			t.Fatal(err)
		}
		rows += r.Len()
		col := slices.Index(ExItMetricNames, "window_rows")
		if got := res.Metrics[g-1][col]; got != float64(rows) {
			t.Fatalf("generation %d: window_rows %v, want %d (loaded)", g, got, rows)
		}
	}
	s, err := openExitStream([]string{filepath.Join(o.Out, "buffer", genName(1)), filepath.Join(o.Out, "buffer", genName(2))},
		w.Config.ObsDim, w.Config.NumActions, o.Rules.Players, 0, 5, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var b Batch
	for range 3 * rows / 32 {
		if err := s.Next(&b, 32); err != nil {
			t.Fatal(err)
		}
		if len(b.Policy) != 32*w.Config.NumActions {
			t.Fatalf("batch of %d policy floats", len(b.Policy))
		}
	}
	if s.maxWindow > 5 || cap(s.win.Policy) > 5*w.Config.NumActions {
		t.Fatalf("the buffer of 5 held %d rows", s.maxWindow)
	}
	o.Buffer, o.Out = 0, t.TempDir()
	if _, err := TrainExIt(context.Background(), o); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "buffer 0") {
		t.Fatalf("buffer 0: %v", err)
	}
}

// The gating rule promotes on the win rate against the best and the turn-limit share, and
// with GateOpponentDrop set refuses exactly a candidate more than that far below the best's
// rate against the gate opponent, naming the drop; an unknown best rate is not compared.
func TestGateDecisionRefusesADropAgainstTheGateOpponent(t *testing.T) {
	o := DefaultExItOptions() // 4 players, margin 0.02, turn-limit share 0.01
	o.GateOpponent = "ismcts:sims=50,workers=1"
	for _, c := range []struct {
		name                             string
		drop, vsBest, stalls, cand, best float64
		promoted                         bool
		reason                           string
	}{
		{"off, league generation 5", 0, 0.30, 0, 0.05, 0.075, true, ""},
		{"off, a large drop", 0, 0.30, 0, 0.05, 0.275, true, ""},
		{"27.5% to 5.0%", 0.1, 0.30, 0, 0.05, 0.275, false, "dropped against ismcts:sims=50,workers=1 from 27.5% to 5.0%"},
		{"27.5% to 25.0%", 0.1, 0.35, 0, 0.25, 0.275, true, ""},
		{"exactly the drop allowed", 0.1, 0.30, 0, 0.175, 0.275, true, ""},
		{"just past it", 0.1, 0.30, 0, 0.15, 0.275, false, "dropped against ismcts:sims=50,workers=1 from 27.5% to 15.0%"},
		{"a rise", 0.1, 0.30, 0, 0.40, 0.275, true, ""},
		{"best unknown", 0.1, 0.30, 0, 0.0, -1, true, ""},
		{"weak against the best", 0.1, 0.25, 0, 0.30, 0.275, false, ""},
		{"stalls", 0.1, 0.30, 0.05, 0.30, 0.275, false, ""},
		{"stalls and a drop", 0.1, 0.30, 0.05, 0.0, 0.275, false, ""},
	} {
		o.GateOpponentDrop = c.drop
		promoted, reason := gateDecision(&o, c.vsBest, c.stalls, c.cand, c.best)
		if promoted != c.promoted || reason != c.reason {
			t.Errorf("%s: promoted %v %q, want %v %q", c.name, promoted, reason, c.promoted, c.reason)
		}
	}
}

// The best network's rate against the gate opponent is its promoting generation's
// gate_opp_rate, or the one measured for generation 0, or unknown.
func TestBestOppRateIsThePromotingGenerationsRate(t *testing.T) {
	row := func(g, opp float64) []float64 {
		r := make([]float64, len(ExItMetricNames))
		r[0], r[18] = g, opp
		return r
	}
	metrics := [][]float64{row(1, 0.275), row(2, 0.25), row(3, 0.1875)}
	measured := 0.3
	for _, c := range []struct {
		st   exitState
		want float64
	}{
		{exitState{Best: "nets/gen-000002.bot", BestGeneration: 2}, 0.25},
		{exitState{Best: "nets/gen-000000.bot"}, -1},
		{exitState{Best: "nets/gen-000000.bot", BestOppRate: &measured}, 0.3},
		{exitState{Best: "nets/gen-000004.bot", BestGeneration: 4}, -1},
	} {
		if got := bestOppRate(metrics, c.st); got != c.want {
			t.Errorf("best generation %d: %g, want %g", c.st.BestGeneration, got, c.want)
		}
	}
}

// --gate-opponent-drop is recorded in run.json, the first gating measures generation 0
// against the gate opponent, and a resume with another value (or without it) is refused
// with the checkpoint untouched; a run started without it refuses a resume that sets it.
func TestExItGateOpponentDropIsRecordedAndResumeRefusesAnother(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	o := tinyExIt(t)
	o.Generations, o.GateOpponentDrop = 1, 0.1
	var log bytes.Buffer
	o.Log = &log
	if _, err := TrainExIt(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "best (nets/gen-000000.bot) vs random: ") {
		t.Errorf("the first gating did not measure generation 0 against the gate opponent: %s", log.String())
	}
	b, err := os.ReadFile(filepath.Join(o.Out, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"gate_opponent_drop":0.1`) {
		t.Fatalf("run.json does not record the drop: %s", b)
	}
	before, err := os.ReadFile(filepath.Join(o.Out, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, drop := range []float64{0.2, 0} {
		o2 := o
		o2.Generations, o2.GateOpponentDrop, o2.Log = 2, drop, nil
		_, err := TrainExIt(context.Background(), o2)
		if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--gate-opponent-drop") {
			t.Fatalf("resume with drop %g: %v", drop, err)
		}
	}
	after, err := os.ReadFile(filepath.Join(o.Out, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("a refused resume changed the checkpoint")
	}

	off := tinyExIt(t)
	off.Generations = 1
	if _, err := TrainExIt(context.Background(), off); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join(off.Out, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "gate_opponent_drop") {
		t.Errorf("a run without the drop records it: %s", b)
	}
	off.Generations, off.GateOpponentDrop = 2, 0.1
	if _, err := TrainExIt(context.Background(), off); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--gate-opponent-drop") {
		t.Fatalf("turning the drop on when resuming: %v", err)
	}
}
