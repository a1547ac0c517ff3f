package training

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// LoadSamples keeps the rules options a dataset was played with (a bot cloned from it is
// made for those rules), and each row's value targets come from that row's own returns
// (rotated to its decider): a three-step dataset of a 3-player luxury game, each step with
// other returns, loads with exactly those options and targets.
func TestLoadSamplesKeepsTheDatasetsRulesOptionsAndEachRowsReturns(t *testing.T) {
	want := rules.Options{Players: 3, Modules: rules.Luxury, Length: rules.Short, TurnLimit: 50}
	opts, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 2, NumActions: 3, Seats: 3, RulesOptions: opts,
		ActionNames: []string{"a", "b", "c"}, PhaseNames: []string{"turn"}}
	writeOneGameDataset(t, dir, meta, []datasets.Step{
		{GameID: 0, Step: 0, Decider: 1, Obs: []float32{1, 0}, Legal: []int{0, 2}, Action: 2, Returns: []float32{1, 2, 3}},
		{GameID: 0, Step: 1, Decider: 2, Obs: []float32{0, 1}, Legal: []int{1}, Action: 1, Returns: []float32{4, 5, 6}},
		{GameID: 0, Step: 2, Decider: 0, Obs: []float32{1, 1}, Legal: []int{0}, Action: 0, Returns: []float32{7, 8, 9}, Done: true},
	})
	s, err := LoadSamples(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rules != want {
		t.Fatalf("rules %+v, want the dataset's %+v", s.Rules, want)
	}
	if wantV := []float32{2, 3, 1, 6, 4, 5, 7, 8, 9}; !slices.Equal(s.Values, wantV) {
		t.Fatalf("value targets %v, want %v (each row's returns, decider first)", s.Values, wantV)
	}
}
