package training

import (
	"errors"
	"testing"

	"github.com/container-rl/container/encoding"
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
	want, err := TrainPPO(straight)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Metrics) != 3 || want.Metrics[2][13] < 0 {
		t.Fatalf("metrics %v: want 3 rows with an evaluation in the last", want.Metrics)
	}
	killed := tinyPPO(t)
	killed.stopAfter = 2
	killed.CheckpointEvery = 1
	if _, err := TrainPPO(killed); !errors.Is(err, errKilled) {
		t.Fatalf("kill: %v", err)
	}
	killed.stopAfter = 0
	got, err := TrainPPO(killed)
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
