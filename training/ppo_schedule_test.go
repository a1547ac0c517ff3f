package training

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
)

// TrainPPO runs with the smallest settings (one game per iteration, one epoch, minibatches of
// one row, a checkpoint every iteration) and refuses zero of any of them with ErrConfig.
func TestPPOAcceptsOneGameEpochAndRowAndRefusesZero(t *testing.T) {
	smallest := func() PPOOptions {
		o := tinyPPO(t)
		o.Iterations, o.Games, o.Epochs, o.Minibatch, o.CheckpointEvery = 1, 1, 1, 1, 1
		o.EvalEvery, o.PoolEvery, o.SnapshotShare = 0, 0, 0
		o.Rules.TurnLimit = 8
		return o
	}
	res, err := TrainPPO(context.Background(), smallest())
	if err != nil {
		t.Fatalf("one game, epoch and row: %v", err)
	}
	if res.Iterations != 1 || len(res.Metrics) != 1 {
		t.Fatalf("%d iterations, %d metric rows; want 1", res.Iterations, len(res.Metrics))
	}
	for name, zero := range map[string]func(*PPOOptions){
		"games":            func(o *PPOOptions) { o.Games = 0 },
		"epochs":           func(o *PPOOptions) { o.Epochs = 0 },
		"minibatch":        func(o *PPOOptions) { o.Minibatch = 0 },
		"checkpoint-every": func(o *PPOOptions) { o.CheckpointEvery = 0 },
		"opponents":        func(o *PPOOptions) { o.Opponents = nil },
	} {
		o := smallest()
		zero(&o)
		if _, err := TrainPPO(context.Background(), o); !errors.Is(err, ErrConfig) {
			t.Errorf("no %s: %v, want ErrConfig", name, err)
		}
	}
}

// PPO evaluates every EvalEvery iterations and after the last one, and writes a pool snapshot
// every PoolEvery iterations; a row without an evaluation has eval_win_rate -1 and eval_games
// 0, and every row's seconds is the time since the start. With both set to 0 it never
// evaluates and writes no snapshot.
func TestPPOEvaluatesAndSnapshotsOnSchedule(t *testing.T) {
	o := tinyPPO(t)
	o.Iterations, o.Games, o.Epochs, o.CheckpointEvery = 5, 1, 1, 5
	o.EvalEvery, o.EvalGames, o.PoolEvery, o.PoolSize, o.SnapshotShare = 2, 2, 2, 1, 0
	o.Rules.TurnLimit = 8
	res, err := TrainPPO(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	rate, games := slices.Index(PPOMetricNames, "eval_win_rate"), slices.Index(PPOMetricNames, "eval_games")
	secs := slices.Index(PPOMetricNames, "seconds")
	for i, row := range res.Metrics {
		it := i + 1
		if row[secs] <= 0 || (i > 0 && row[secs] < res.Metrics[i-1][secs]) {
			t.Errorf("iteration %d: seconds %v, want the time since the start (positive, growing)", it, row[secs])
		}
		evaluated := it%2 == 0 || it == 5
		if evaluated != (row[rate] >= 0) || (evaluated && row[games] != 2) || (!evaluated && (row[rate] != -1 || row[games] != 0)) {
			t.Errorf("iteration %d: eval_win_rate %v, eval_games %v (evaluated: %v)", it, row[rate], row[games], evaluated)
		}
		_, err := os.Stat(filepath.Join(o.Out, "pool", fmt.Sprintf("iter-%06d.bot", it)))
		if snap := it%2 == 0; snap != (err == nil) {
			t.Errorf("iteration %d: pool snapshot written = %v, want %v", it, err == nil, snap)
		}
	}
	never := tinyPPO(t)
	never.Iterations, never.Games, never.Epochs, never.CheckpointEvery = 2, 1, 1, 2
	never.EvalEvery, never.PoolEvery, never.SnapshotShare = 0, 0, 0
	never.Rules.TurnLimit = 8
	res, err = TrainPPO(context.Background(), never)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range res.Metrics {
		if row[rate] != -1 || row[games] != 0 {
			t.Errorf("eval every 0, iteration %d: eval_win_rate %v, eval_games %v", i+1, row[rate], row[games])
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(never.Out, "pool")); len(ents) != 0 {
		t.Errorf("pool every 0 wrote %d snapshots", len(ents))
	}
}

// SnapshotEvery keeps the learner as snapshots/iter-N.bot every N iterations without adding
// it to the pool (the pool is off here, so no opponent is a snapshot): each file is the
// network of its iteration (the last one equals the checkpoint's weights), says its
// iteration and time, and plays as a bot. A resume may change SnapshotEvery (and only it
// besides Iterations); a negative one is refused.
func TestPPOSnapshotEveryKeepsNetworksOutsideThePool(t *testing.T) {
	o := tinyPPO(t)
	o.Iterations, o.Games, o.Epochs, o.CheckpointEvery = 4, 1, 1, 1
	o.EvalEvery, o.PoolEvery, o.SnapshotShare, o.SnapshotEvery = 0, 0, 0, 2
	o.Rules.TurnLimit = 8
	if _, err := TrainPPO(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(o.Out, "pool")); len(ents) != 0 {
		t.Errorf("pool every 0 wrote %d pool files", len(ents))
	}
	snap := func(it int) string { return filepath.Join(o.Out, "snapshots", fmt.Sprintf("iter-%06d.bot", it)) }
	for it := 1; it <= 4; it++ {
		b, err := ReadBotFile(snap(it))
		if (err == nil) != (it%2 == 0) {
			t.Fatalf("iteration %d: snapshot read error %v, want one every 2 iterations", it, err)
		}
		if err == nil && (b.Header.Training.Method != "ppo" || b.Header.Training.Steps != int64(it) || b.Header.Training.Seconds <= 0) {
			t.Errorf("iteration %d: snapshot says %+v", it, b.Header.Training)
		}
	}
	ck, _, err := WeightsFromRun(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	last, err := ReadBotFile(snap(4))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(last.Weights.Tensors, ck.Tensors) {
		t.Error("the last snapshot is not the network of the last iteration")
	}
	prev, err := ReadBotFile(snap(2))
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(prev.Weights.Tensors, ck.Tensors) {
		t.Error("the snapshots of iterations 2 and 4 hold the same network")
	}
	if _, err := NewNetBot("snap", last, &o.Rules, 1); err != nil {
		t.Errorf("snapshot does not play as a bot: %v", err)
	}
	// Extend the run with snapshots every iteration: allowed, and written from iteration 5.
	o.Iterations, o.SnapshotEvery = 6, 1
	res, err := TrainPPO(context.Background(), o)
	if err != nil {
		t.Fatalf("resume with another SnapshotEvery: %v", err)
	}
	if !res.Resumed {
		t.Fatal("not resumed")
	}
	for it := 5; it <= 6; it++ {
		if _, err := os.Stat(snap(it)); err != nil {
			t.Errorf("iteration %d after the resume: %v", it, err)
		}
	}
	bad := tinyPPO(t)
	bad.SnapshotEvery = -1
	if _, err := TrainPPO(context.Background(), bad); !errors.Is(err, ErrConfig) {
		t.Errorf("SnapshotEvery -1: %v, want ErrConfig", err)
	}
}

// PPO checkpoints every CheckpointEvery iterations and always after the last one, recording
// the iteration and the (positive) training time; the result reports the same time.
func TestPPOCheckpointsAfterTheLastIteration(t *testing.T) {
	o := tinyPPO(t)
	o.Iterations, o.Games, o.Epochs, o.CheckpointEvery = 3, 1, 1, 2
	o.EvalEvery, o.PoolEvery, o.SnapshotShare = 0, 0, 0
	o.Rules.TurnLimit = 8
	res, err := TrainPPO(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	h, _, found, err := loadCheckpoint(o.Out)
	if err != nil || !found {
		t.Fatalf("no checkpoint: %v", err)
	}
	if h.Step != 3 {
		t.Fatalf("checkpoint at iteration %d, want the last (3)", h.Step)
	}
	last := res.Metrics[len(res.Metrics)-1][slices.Index(PPOMetricNames, "seconds")]
	if h.Seconds <= 0 || res.Seconds < h.Seconds || res.Seconds < last {
		t.Fatalf("seconds: checkpoint %v, result %v, last metrics row %v", h.Seconds, res.Seconds, last)
	}
}

// Each opponent seat of a rollout game is a pool snapshot with probability SnapshotShare:
// never at 0, always at 1.
func TestPPOSnapshotShareDecidesTheOpponents(t *testing.T) {
	o := tinyPPO(t)
	o.Games, o.Opponents = 3, []string{"random"}
	g, w, net := testLearner(t, &o)
	pool := []*BotFile{newBotFile("snap", encoding.Version, o.Rules, w, TrainingInfo{Method: "ppo", Steps: 1})}
	for _, share := range []float64{0, 1} {
		o.SnapshotShare = share
		col := &collector{opts: &o, game: g, scheme: env.Rank}
		ro, err := col.collect(net, pool, rand.New(rand.NewPCG(5, 6)), 1)
		if err != nil {
			t.Fatal(err)
		}
		for gi, tr := range ro.trajs {
			for s, b := range tr.oppBatch {
				if s == tr.seat {
					continue
				}
				if snap := b >= 0; snap != (share == 1) {
					t.Fatalf("share %v, game %d seat %d: snapshot opponent = %v", share, gi, s, snap)
				}
			}
		}
	}
}
