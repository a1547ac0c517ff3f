package training

import (
	"slices"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
)

// TestLoadSamplesRotatesReturnsToTheDecider writes a two-game Arrow dataset and checks rows,
// masks and that value targets start with the decider's own return.
func TestLoadSamplesRotatesReturnsToTheDecider(t *testing.T) {
	dir := t.TempDir()
	meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 2, NumActions: 5, Seats: 3,
		ActionNames: []string{"a", "b", "c", "d", "e"}, PhaseNames: []string{"turn"}}
	w, err := datasets.NewShardWriter(dir, 0, 0, &meta, datasets.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ret := []float32{1, 0, -1}
	steps := []datasets.Step{
		{GameID: 0, Step: 0, Decider: 0, Obs: []float32{1, 0}, Legal: []int{0, 3}, Action: 3, Returns: ret},
		{GameID: 0, Step: 1, Decider: 2, Obs: []float32{0, 1}, Legal: []int{1, 4}, Action: 4, Returns: ret, Done: true},
	}
	g := datasets.Game{GameID: 0, Agents: []string{"x", "y", "z"}, Scores: make([]datasets.Score, 3), Winners: []int8{0}, Length: 2, Turns: 1, EndReason: "two-colours"}
	if err := w.WriteGame(&g, steps); err != nil {
		t.Fatal(err)
	}
	info, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := &datasets.Manifest{Version: 1, Format: datasets.Format("arrow"), Games: 1, GamesPerShard: 1, Agents: g.Agents, Meta: meta}
	m.AddShard(info)
	if err := datasets.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSamples(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || !slices.Equal(s.Actions, []int32{3, 4}) || !slices.Equal(s.Obs, []float32{1, 0, 0, 1}) {
		t.Fatalf("rows: %+v", s)
	}
	if !slices.Equal(s.Values, []float32{1, 0, -1, -1, 1, 0}) {
		t.Fatalf("value targets %v, want each row to start with its decider's return", s.Values)
	}
	var b Batch
	s.fill(&b, []int{1})
	if !slices.Equal(b.Mask, []float32{0, 1, 0, 0, 1}) {
		t.Fatalf("mask %v", b.Mask)
	}
}
