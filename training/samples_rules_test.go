package training

import (
	"encoding/json"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// LoadSamples keeps the rules options a dataset was played with (a bot cloned from it is
// made for those rules): a one-step dataset of 3-player luxury games loads with exactly them.
func TestLoadSamplesKeepsTheDatasetsRulesOptions(t *testing.T) {
	want := rules.Options{Players: 3, Modules: rules.Luxury, Length: rules.Short, TurnLimit: 50}
	opts, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 2, NumActions: 3, Seats: 3, RulesOptions: opts,
		ActionNames: []string{"a", "b", "c"}, PhaseNames: []string{"turn"}}
	w, err := datasets.NewShardWriter(dir, 0, 0, &meta, datasets.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steps := []datasets.Step{{GameID: 0, Step: 0, Decider: 1, Obs: []float32{1, 0}, Legal: []int{0, 2}, Action: 2, Returns: []float32{1, 0, -1}, Done: true}}
	g := datasets.Game{GameID: 0, Agents: []string{"x", "y", "z"}, Scores: make([]datasets.Score, 3), Winners: []int8{0}, Length: 1, Turns: 1, EndReason: "two-colours"}
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
	if s.Rules != want {
		t.Fatalf("rules %+v, want the dataset's %+v", s.Rules, want)
	}
}
