package datasets_test

import (
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/container-rl/container/datasets"
)

// Example writes a one-game, one-shard dataset from plain records and reads it back as a
// training batch.
func Example() {
	dir, _ := os.MkdirTemp("", "dataset")
	defer os.RemoveAll(dir)

	meta := &datasets.Meta{EncodingVersion: "example-v1", ObsDim: 3, NumActions: 4, Seats: 2, ToolVersion: "example",
		PhaseNames: []string{"turn"}}
	w, err := datasets.NewShardWriter(dir, 0, 0, meta, datasets.WriteOptions{Format: datasets.Parquet})
	if err != nil {
		panic(err)
	}
	// Two decisions; seat 1 wins, so its reward (+1) arrives on the last step.
	rewards := []float32{0, 0, 0, 1} // [step][seat]
	returns := make([]float32, 4)
	datasets.ReturnsToGo(rewards, 2, returns)
	steps := []datasets.Step{
		{Step: 0, Decider: 0, Obs: []float32{1, 0, 0}, Legal: []int{0, 2}, Action: 2, ActionText: "b", Returns: returns[0:2]},
		{Step: 1, Decider: 1, Obs: []float32{0, 1, 0}, Legal: []int{1, 3}, Action: 3, ActionText: "d", Reward: 1, Done: true, Returns: returns[2:4]},
	}
	game := &datasets.Game{Agents: []string{"a", "b"}, Scores: make([]datasets.Score, 2), Winners: []int8{1}, Length: 2}
	if err := w.WriteGame(game, steps); err != nil {
		panic(err)
	}
	info, err := w.Close()
	if err != nil {
		panic(err)
	}
	m := &datasets.Manifest{Version: datasets.ManifestVersion, Format: datasets.Parquet, Games: 1, GamesPerShard: 1, Meta: *meta}
	m.AddShard(info)
	if err := datasets.WriteManifest(dir, m); err != nil {
		panic(err)
	}

	ds, err := datasets.Open(dir, datasets.AcceptEncodings("example-v1"))
	if err != nil {
		panic(err)
	}
	rp, err := ds.Load()
	if err != nil {
		panic(err)
	}
	var b datasets.Batch
	if err := rp.Slice(0, 2, &b); err != nil {
		panic(err)
	}
	fmt.Println("obs:", b.Obs)
	fmt.Println("mask:", b.Mask)
	fmt.Println("actions:", b.Actions, "returns:", b.Returns, "decider returns:", b.DeciderReturns(nil))
	_ = rp.Sample(rand.New(rand.NewPCG(1, 2)), 8, &b)
	fmt.Println("sampled rows:", b.Size)
	// Output:
	// obs: [1 0 0 0 1 0]
	// mask: [true false true false false true false true]
	// actions: [2 3] returns: [0 1 0 1] decider returns: [0 1]
	// sampled rows: 8
}
