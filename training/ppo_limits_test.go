package training

import (
	"errors"
	"testing"
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
	res, err := TrainPPO(smallest())
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
		if _, err := TrainPPO(o); !errors.Is(err, ErrConfig) {
			t.Errorf("no %s: %v, want ErrConfig", name, err)
		}
	}
}
