package training

import (
	"errors"
	"testing"
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
