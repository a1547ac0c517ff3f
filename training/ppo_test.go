package training

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
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
