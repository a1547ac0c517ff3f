package training

import "testing"

// Tests written to kill surviving mutants of the sharded training step (shard.go;
// docs/TESTING.md).

// A batch is split into as many shards as allowed (SetShards) while every shard keeps at
// least minShardRows (64) rows, and never into fewer than one: the split depends only on the
// batch size and the setting, so a run computes the same numbers on any machine.
func TestShardCountGivesEveryShardAtLeast64Rows(t *testing.T) {
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWeights(exitTestNet, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(backend, w, DefaultBCOptions().Hyper)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ shards, rows, want int }{
		{1, 0, 1}, {1, 10_000, 1},
		{2, 0, 1}, {2, 1, 1}, {2, 63, 1}, {2, 64, 1}, {2, 100, 1}, {2, 127, 1}, {2, 128, 2}, {2, 129, 2}, {2, 10_000, 2},
		{4, 1, 1}, {4, 100, 1}, {4, 128, 2}, {4, 191, 2}, {4, 192, 3}, {4, 255, 3}, {4, 256, 4}, {4, 10_000, 4},
	} {
		tr.SetShards(c.shards)
		if got := tr.shardCount(c.rows); got != c.want {
			t.Errorf("%d rows, up to %d shards: %d shards, want %d", c.rows, c.shards, got, c.want)
		}
	}
}
