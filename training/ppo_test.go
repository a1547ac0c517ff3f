package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
)

func tinyPPO(t *testing.T) PPOOptions {
	o := DefaultPPOOptions()
	o.Out = t.TempDir()
	o.Games, o.Iterations, o.Epochs, o.Minibatch = 3, 3, 1, 256
	o.PoolEvery, o.PoolSize, o.SnapshotShare = 1, 2, 0.5
	o.EvalEvery, o.EvalGames = 3, 4
	o.Opponents = []string{"valuer"}
	o.Net = NetConfig{Width: 8, Depth: 1, Norm: NormLayer}
	o.Rules.TurnLimit = 40
	return o
}

// testLearner sizes o.Net for o's games and returns the game and a learner network (weights
// from seed 2) for calling a collector directly.
func testLearner(t *testing.T, o *PPOOptions) (*rules.Game, *Weights, *Net) {
	t.Helper()
	g, err := rules.NewGame(o.Rules)
	if err != nil {
		t.Fatal(err)
	}
	enc := encoding.NewEncoder(g)
	o.Net.ObsDim, o.Net.NumActions, o.Net.ValueDim = enc.Size(), enc.NumActions(), o.Rules.Players
	w, err := NewWeights(o.Net, 2)
	if err != nil {
		t.Fatal(err)
	}
	net, err := NewNet(w)
	if err != nil {
		t.Fatal(err)
	}
	return g, w, net
}

func TestPPOResumeAfterKillMatchesUninterruptedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a few dozen games")
	}
	straight := tinyPPO(t)
	want, err := TrainPPO(context.Background(), straight)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Metrics) != 3 || want.Metrics[2][13] < 0 {
		t.Fatalf("metrics %v: want 3 rows with an evaluation in the last", want.Metrics)
	}
	killed := tinyPPO(t)
	killed.stopAfter = 2
	killed.CheckpointEvery = 1
	if _, err := TrainPPO(context.Background(), killed); !errors.Is(err, errKilled) {
		t.Fatalf("kill: %v", err)
	}
	killed.stopAfter = 0
	got, err := TrainPPO(context.Background(), killed)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Resumed {
		t.Fatal("second run did not resume")
	}
	for i := range want.Metrics {
		for c, name := range PPOMetricNames {
			if name == "seconds" || name == "collect_steps_per_s" {
				continue
			}
			if got.Metrics[i][c] != want.Metrics[i][c] {
				t.Fatalf("iteration %d %s: resumed %v, uninterrupted %v", i+1, name, got.Metrics[i][c], want.Metrics[i][c])
			}
		}
	}
	requireSameWeights(t, straight.Out, killed.Out)
}

// cancelOnLine cancels when a line containing mark has been written (the run's log).
type cancelOnLine struct {
	mark   string
	cancel context.CancelFunc
}

func (c *cancelOnLine) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.mark) {
		c.cancel()
	}
	return len(p), nil
}

func TestPPOCollectionGivesUpWhenItsContextIsCancelled(t *testing.T) {
	o := tinyPPO(t)
	g, _, net := testLearner(t, &o)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	col := &collector{opts: &o, game: g, scheme: env.Rank, ctx: ctx}
	if _, err := col.collect(net, nil, rand.New(rand.NewPCG(5, 6)), 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("collect with a cancelled context: %v, want context.Canceled", err)
	}
}

// Ctrl-C (a cancelled context) after iteration 1 stops the run with the iteration
// checkpointed, although the run checkpoints only every 5; the same call then resumes and
// ends with the uninterrupted run's network.
func TestPPOStoppedByItsContextResumesToTheUninterruptedNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a few dozen games")
	}
	straight := tinyPPO(t)
	straight.CheckpointEvery = 5
	if _, err := TrainPPO(context.Background(), straight); err != nil {
		t.Fatal(err)
	}
	stopped := tinyPPO(t)
	stopped.CheckpointEvery = 5
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped.Log = &cancelOnLine{mark: "iteration 1:", cancel: cancel}
	res, err := TrainPPO(ctx, stopped)
	var se *StoppedError
	if !errors.As(err, &se) || !errors.Is(err, context.Canceled) || se.Step != 1 || se.Steps != 3 || res == nil || res.Iterations != 1 {
		t.Fatalf("stopped run: %v (result %+v), want a StoppedError after iteration 1 of 3", err, res)
	}
	stopped.Log = nil
	got, err := TrainPPO(context.Background(), stopped)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Resumed || got.Iterations != 3 {
		t.Fatalf("second run: resumed %v, %d iterations", got.Resumed, got.Iterations)
	}
	requireSameWeights(t, straight.Out, stopped.Out)
}

// Edge cases of training/ppo.go (the mutation records in docs/results/ name the bug each one catches).

// toyRollout is a rollout of n distinct rows for a network with D features, A actions and V
// values: every row has its own observation, legal set, action, value targets, behaviour
// log-probability and advantage.
func toyRollout(n, D, A, V int, seed uint64) *rollout {
	rng := rand.New(rand.NewPCG(seed, 99))
	ro := &rollout{rows: n}
	b := &ro.b
	b.Rows = n
	for range n {
		for range D {
			b.Obs = append(b.Obs, float32(rng.NormFloat64()))
		}
		mask := make([]float32, A)
		var legal []int
		for a := range A {
			if rng.IntN(2) == 0 || a == A-1 {
				mask[a] = 1
				legal = append(legal, a)
			}
		}
		b.Mask = append(b.Mask, mask...)
		b.Actions = append(b.Actions, int32(legal[rng.IntN(len(legal))]))
		for range V {
			b.Values = append(b.Values, float32(rng.Float64()*2-1))
		}
		b.OldLogp = append(b.OldLogp, float32(-rng.Float64()*2))
		b.Advantages = append(b.Advantages, float32(rng.NormFloat64()))
	}
	return ro
}

// rowsBatch builds a PPO batch of the rollout's rows idx, row by row.
func rowsBatch(ro *rollout, idx []int, D, A, V int) *Batch {
	src := &ro.b
	b := &Batch{Rows: len(idx)}
	for _, i := range idx {
		b.Obs = append(b.Obs, src.Obs[i*D:i*D+D]...)
		b.Mask = append(b.Mask, src.Mask[i*A:i*A+A]...)
		b.Values = append(b.Values, src.Values[i*V:i*V+V]...)
		b.Actions = append(b.Actions, src.Actions[i])
		b.OldLogp = append(b.OldLogp, src.OldLogp[i])
		b.Advantages = append(b.Advantages, src.Advantages[i])
	}
	return b
}

// A PPO update makes Epochs passes over the rollout; each pass shuffles the rows and takes
// minibatches of exactly Minibatch rows in the shuffled order (every whole minibatch, the
// remainder left out; a rollout smaller than one minibatch is cycled through to fill one).
// The network ends as a step-by-step reference leaves it, and the reported metrics are the
// means over the minibatches. An empty rollout changes nothing and reports zeros.
func TestPPOUpdateStepsOnWholeShuffledMinibatchesAndAveragesTheirMetrics(t *testing.T) {
	const D, A, V = 6, 5, 3
	cfg := NetConfig{ObsDim: D, NumActions: A, ValueDim: V, Width: 8, Depth: 1, Norm: NormNone}
	w, err := NewWeights(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	hp := Hyper{LearningRate: 1e-2, ValueCoef: 0.5, EntropyCoef: 0.01, ClipEps: 0.2}
	got, err := NewTrainer(backend, w, hp)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := NewTrainer(backend, w, hp)
	if err != nil {
		t.Fatal(err)
	}
	for ci, c := range []struct{ n, minibatch, epochs, steps int }{
		{n: 8, minibatch: 4, epochs: 1, steps: 2},  // the rollout splits exactly
		{n: 11, minibatch: 4, epochs: 2, steps: 4}, // two whole minibatches a pass, 3 rows left out
		{n: 3, minibatch: 5, epochs: 1, steps: 1},  // one minibatch cycling through 3 rows
		{n: 0, minibatch: 4, epochs: 2, steps: 0},  // nothing to learn from
	} {
		ro := toyRollout(c.n, D, A, V, uint64(ci))
		o := &PPOOptions{Epochs: c.epochs, Minibatch: c.minibatch}
		m, err := ppoUpdate(got, ro, o, rand.New(rand.NewPCG(7, uint64(ci))))
		if err != nil {
			t.Fatal(err)
		}
		// The reference: the same shuffles, minibatches built row by row, one step each.
		rng := rand.New(rand.NewPCG(7, uint64(ci)))
		perm := make([]int, c.n)
		for i := range perm {
			perm[i] = i
		}
		var want StepMetrics
		steps := 0
		for range c.epochs {
			if c.n == 0 {
				break
			}
			rng.Shuffle(c.n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			order := perm
			for len(order) < c.minibatch {
				order = append(slices.Clone(order), perm...)
			}
			for lo := 0; lo+c.minibatch <= len(order); lo += c.minibatch {
				sm, err := ref.PPOStep(rowsBatch(ro, order[lo:lo+c.minibatch], D, A, V))
				if err != nil {
					t.Fatal(err)
				}
				want.Loss += sm.Loss
				want.PolicyLoss += sm.PolicyLoss
				want.ValueLoss += sm.ValueLoss
				want.Entropy += sm.Entropy
				want.ClipFrac += sm.ClipFrac
				steps++
			}
		}
		if steps != c.steps {
			t.Fatalf("case %d: the reference made %d steps, want %d", ci, steps, c.steps)
		}
		k := float64(max(steps, 1))
		want.Loss, want.PolicyLoss, want.ValueLoss, want.Entropy, want.ClipFrac = want.Loss/k, want.PolicyLoss/k, want.ValueLoss/k, want.Entropy/k, want.ClipFrac/k
		for _, f := range []struct {
			name      string
			got, want float64
		}{{"loss", m.Loss, want.Loss}, {"policy loss", m.PolicyLoss, want.PolicyLoss}, {"value loss", m.ValueLoss, want.ValueLoss},
			{"entropy", m.Entropy, want.Entropy}, {"clip fraction", m.ClipFrac, want.ClipFrac}} {
			if math.Abs(f.got-f.want) > 1e-9*max(1, math.Abs(f.want)) {
				t.Errorf("case %d (%d rows, minibatch %d, %d epochs): %s %v, want the mean over %d minibatches %v",
					ci, c.n, c.minibatch, c.epochs, f.name, f.got, steps, f.want)
			}
		}
		if c.n > 0 && m.Entropy <= 0 {
			t.Errorf("case %d: entropy %v, want positive", ci, m.Entropy)
		}
		gw, err := got.Weights()
		if err != nil {
			t.Fatal(err)
		}
		rw, err := ref.Weights()
		if err != nil {
			t.Fatal(err)
		}
		for i := range gw.Tensors {
			if !slices.Equal(gw.Tensors[i], rw.Tensors[i]) {
				t.Fatalf("case %d (%d rows, minibatch %d, %d epochs): weights %s differ from the step-by-step reference",
					ci, c.n, c.minibatch, c.epochs, cfg.Params()[i].Name)
			}
		}
	}
}

// Each iteration's log line reports the evaluation (when one ran) as "eval vs <players-1>
// <opponent>: <rate in percent>% wins", also when the learner won nothing; an iteration
// without an evaluation has no eval part. The collection throughput metric is the env steps
// over the collection time, which is part of the iteration's time: env_steps /
// collect_steps_per_s is positive and at most the row's seconds.
func TestPPOLogLineReportsTheEvaluationAndTheThroughput(t *testing.T) {
	o := tinyPPO(t)
	o.Iterations, o.Games, o.Epochs, o.CheckpointEvery = 2, 1, 1, 2
	o.EvalEvery, o.EvalGames, o.EvalOpponent, o.PoolEvery, o.SnapshotShare = 2, 2, "valuer", 0, 0
	o.Rules.TurnLimit = 8
	var log bytes.Buffer
	o.Log = &log
	res, err := TrainPPO(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(PPOMetricNames, name) }
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	var its []string
	for _, l := range lines {
		if strings.HasPrefix(l, "iteration ") {
			its = append(its, l)
		}
	}
	if len(its) != 2 || len(res.Metrics) != 2 {
		t.Fatalf("%d iteration lines, %d metric rows; want 2:\n%s", len(its), len(res.Metrics), log.String())
	}
	if strings.Contains(its[0], "eval") {
		t.Errorf("iteration 1 was not evaluated, its log line says %q", its[0])
	}
	rate := res.Metrics[1][col("eval_win_rate")]
	if rate != 0 {
		t.Fatalf("the learner won %v of its evaluation: the test needs a lost evaluation (change the seed)", rate)
	}
	if want := fmt.Sprintf(" | eval vs %d valuer: %.1f%% wins", o.Rules.Players-1, 100*rate); !strings.HasSuffix(its[1], want) {
		t.Errorf("iteration 2 log line %q, want it to end with %q", its[1], want)
	}
	for i, row := range res.Metrics {
		steps, perSec, secs := row[col("env_steps")], row[col("collect_steps_per_s")], row[col("seconds")]
		if steps <= 0 || perSec <= 0 || steps/perSec > secs {
			t.Errorf("iteration %d: %v env steps at %v per second take %v s, more than the iteration's %v s",
				i+1, steps, perSec, steps/perSec, secs)
		}
	}
}

// The snapshot pool a run checkpoints holds the PoolSize latest snapshots, oldest first
// (all of them while there are fewer), each one written to pool/.
func TestPPOPoolKeepsThePoolSizeLatestSnapshots(t *testing.T) {
	for _, c := range []struct {
		iterations int64
		size       int
		want       []int
	}{
		{iterations: 2, size: 3, want: []int{1, 2}},
		{iterations: 4, size: 3, want: []int{2, 3, 4}},
	} {
		o := tinyPPO(t)
		o.Iterations, o.Games, o.Epochs, o.CheckpointEvery = c.iterations, 1, 1, c.iterations
		o.EvalEvery, o.PoolEvery, o.PoolSize, o.SnapshotShare = 0, 1, c.size, 0
		o.Rules.TurnLimit = 8
		if _, err := TrainPPO(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		h, _, found, err := loadCheckpoint(o.Out)
		if err != nil || !found {
			t.Fatalf("no checkpoint: %v", err)
		}
		var st ppoState
		if err := json.Unmarshal(h.Extra, &st); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, it := range c.want {
			want = append(want, filepath.Join("pool", fmt.Sprintf("iter-%06d.bot", it)))
		}
		if !slices.Equal(st.Pool, want) {
			t.Errorf("%d iterations, pool size %d: pool %v, want %v", c.iterations, c.size, st.Pool, want)
		}
		for _, p := range st.Pool {
			if _, err := ReadBotFile(filepath.Join(o.Out, p)); err != nil {
				t.Errorf("pool snapshot %s: %v", p, err)
			}
		}
	}
}

// A run's pool is read back snapshot by snapshot, in order; a missing snapshot file is an
// error, not a smaller pool.
func TestLoadPoolReadsEverySnapshotAndRefusesAMissingOne(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "pool"), 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, name := range []string{"iter-000001.bot", "iter-000002.bot"} {
		b := testBot(t)
		b.Header.Name = fmt.Sprintf("snap%d", i+1)
		if err := b.WriteFile(filepath.Join(dir, "pool", name)); err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Join("pool", name))
	}
	pool, err := loadPool(dir, names)
	if err != nil {
		t.Fatal(err)
	}
	if len(pool) != 2 || pool[0].Header.Name != "snap1" || pool[1].Header.Name != "snap2" {
		t.Fatalf("read %d snapshots, want snap1 and snap2 in order", len(pool))
	}
	if _, err := loadPool(dir, append(names, filepath.Join("pool", "iter-000003.bot"))); err == nil {
		t.Fatal("a pool with a missing snapshot file was read without an error")
	}
}

// EvalWeights reports the win rate that a tournament of the network's bot file in one seat
// against players-1 copies of the opponent gives it (what `container eval` reports for the
// exported bot), seats rotating from game to game.
func TestEvalWeightsIsTheBotFilesRateAgainstPlayersMinusOneOpponents(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 10}
	const games, seed = 6, 4
	f, _ := biasNet(t, opts)
	rate, err := EvalWeights(f.Weights, opts, "random", games, seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "learner.bot")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	res, err := eval.Run(context.Background(), eval.Config{Agents: []string{path, "random", "random"}, Games: games,
		Options: opts, Seed: seed, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := eval.Summarize(res).Agents[0].Rate.Rate
	if want <= 0 || want >= 1 {
		t.Fatalf("the bot file's rate %v: the test needs one strictly between 0 and 1 (change the seed)", want)
	}
	if rate != want {
		t.Fatalf("EvalWeights rate %v, the bot file's tournament rate %v", rate, want)
	}
}

// pinnedPPORun is the digest of the tiny PPO run below, one line per iteration: games, env
// steps, learner steps, learner reward and evaluation win rate. A run's seed fixes every
// iteration's games, seats, sampling and minibatch order and its evaluation games
// (docs/TRAINING.md: from (seed, iteration)), so the same command gives the same run; change
// this only on purpose (a rules, bot or training change), with the reason in the commit.
var pinnedPPORun = []string{
	"iteration 1: games 2, env steps 90, learner steps 26, reward -0.6667, eval 0.0000",
	"iteration 2: games 2, env steps 95, learner steps 28, reward -0.3333, eval 0.1667",
	"iteration 3: games 2, env steps 97, learner steps 23, reward 0.0000, eval 0.1667",
}

// A PPO run from a seed is the same run in every version (pinned digest of its metrics).
func TestPPORunFromASeedIsPinned(t *testing.T) {
	o := tinyPPO(t)
	o.Iterations, o.Games, o.Epochs, o.Minibatch, o.CheckpointEvery = 3, 2, 1, 8, 3
	o.EvalEvery, o.EvalGames, o.EvalOpponent, o.PoolEvery, o.SnapshotShare = 1, 6, "random", 0, 0
	o.Opponents = []string{"random"}
	o.Rules.TurnLimit = 8
	res, err := TrainPPO(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(PPOMetricNames, name) }
	var got []string
	for _, row := range res.Metrics {
		got = append(got, fmt.Sprintf("iteration %v: games %v, env steps %v, learner steps %v, reward %.4f, eval %.4f",
			row[col("iteration")], row[col("games")], row[col("env_steps")], row[col("learner_steps")], row[col("learner_reward")], row[col("eval_win_rate")]))
	}
	if !slices.Equal(got, pinnedPPORun) {
		t.Fatalf("run digest\n\t%q\npinned\n\t%q\nthe same command now gives another run", got, pinnedPPORun)
	}
}

// A PPO start whose opponent or evaluation opponent is a bot file that cannot be read (or a
// bot that does not exist) is refused before run.json is written, and the run directory it
// created is removed again: no marker, lock, pool/ or run.json is left behind. A directory
// that existed before (empty) stays, empty.
func TestPPOWithAnUnreadableOpponentLeavesNoRunDirectory(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.bot")
	if err := os.WriteFile(garbage, []byte("not a bot file, just some bytes\x00\xff"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		set  func(o *PPOOptions)
		want error
	}{
		{"garbage opponent", func(o *PPOOptions) { o.Opponents = []string{"random", garbage} }, ErrCorrupt},
		{"missing opponent", func(o *PPOOptions) { o.Opponents = []string{filepath.Join(t.TempDir(), "missing.bot")} }, os.ErrNotExist},
		{"garbage eval opponent", func(o *PPOOptions) { o.EvalOpponent = garbage }, ErrCorrupt},
		{"unknown opponent", func(o *PPOOptions) { o.Opponents = []string{"nosuchbot"} }, bots.ErrUnknownBot},
	} {
		for _, existed := range []bool{false, true} {
			o := tinyPPO(t)
			o.Out = filepath.Join(t.TempDir(), "run")
			if existed {
				if err := os.Mkdir(o.Out, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			o.Iterations, o.Games, o.EvalEvery, o.PoolEvery = 1, 1, 1, 0
			c.set(&o)
			_, err := TrainPPO(context.Background(), o)
			if err == nil {
				t.Fatalf("%s: no error", c.name)
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("%s: %v, want %v", c.name, err, c.want)
			}
			if n := strings.Count(err.Error(), "\n") + 1; n != 1 {
				t.Fatalf("%s: one line: %d lines", c.name, n)
			}
			ents, statErr := os.ReadDir(o.Out)
			if !existed {
				if !errors.Is(statErr, os.ErrNotExist) {
					t.Fatalf("%s: %s left behind (%v)", c.name, o.Out, ents)
				}
				continue
			}
			if statErr != nil {
				t.Fatal(statErr)
			}
			if len(ents) != 0 {
				t.Fatalf("%s: left in the user's empty directory: %v", c.name, ents)
			}
		}
	}
}

func TestPPOInitForOtherGamesIsRefused(t *testing.T) {
	o := tinyPPO(t)
	game, err := rules.NewGame(o.Rules)
	if err != nil {
		t.Fatal(err)
	}
	_ = game
	w, err := NewWeights(NetConfig{ObsDim: 771, NumActions: rules.NumDistinctActions(), ValueDim: 4, Width: 8, Depth: 1, Norm: NormLayer}, 1)
	if err != nil {
		t.Fatal(err)
	}
	classic := o.Rules
	classic.Variant = rules.Classic
	o.Init, o.InitFrom, o.InitRules = w, "classic.bot", &classic
	if _, err := TrainPPO(context.Background(), o); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "classic") {
		t.Fatalf("init from a Classic network: %v, want ErrIncompatible naming classic", err)
	}
	o.InitRules, o.InitEncoding = nil, "obs-v1-hidden-cash"
	if _, err := TrainPPO(context.Background(), o); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "hidden-cash") {
		t.Fatalf("init from a hidden-cash network: %v, want ErrIncompatible", err)
	}
	if ents, _ := os.ReadDir(o.Out); len(ents) != 0 {
		t.Errorf("a refused start left %d entries in the run directory", len(ents))
	}
}

func TestPPOResumeRefusesOtherSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a PPO iteration")
	}
	o := tinyPPO(t)
	o.Iterations, o.PoolEvery, o.EvalEvery = 1, 0, 0
	if _, err := TrainPPO(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	o2 := o
	o2.Iterations = 2
	o2.Hyper.LearningRate *= 3
	if _, err := TrainPPO(context.Background(), o2); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--lr") {
		t.Fatalf("resume with another --lr: %v", err)
	}
	o2 = o
	o2.Iterations, o2.Rules.Variant = 2, rules.Classic
	if _, err := TrainPPO(context.Background(), o2); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--rules") {
		t.Fatalf("resume with --rules classic: %v", err)
	}
}
