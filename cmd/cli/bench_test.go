package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// writeTestRecord plays a short random game and saves it as JSON and binary records.

func TestBenchJSON(t *testing.T) {
	var out bytes.Buffer
	o := benchOptions{gameFlags: gameFlags{players: 3, variant: "base", length: "short"}, games: 4, workers: 2, seed: 1, json: true}
	if err := runBench(o, &out); err != nil {
		t.Fatal(err)
	}
	var res map[string]float64
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, k := range []string{"games", "players", "steps", "seconds", "games_per_s", "steps_per_s", "allocs_per_step"} {
		if _, ok := res[k]; !ok {
			t.Errorf("bench JSON lacks %q: %s", k, out.String())
		}
	}
	if res["games"] != 4 || res["players"] != 3 || res["steps"] < 4 {
		t.Errorf("bench result %v", res)
	}
}

// TestBenchGamesIsDeterministicAndCallsStep: the per-step hook sees every step, and the step

// count does not depend on the number of workers.

func TestBenchGamesIsDeterministicAndCallsStep(t *testing.T) {
	o := rules.Options{Players: 4, Variant: rules.Classic}
	calls := make([]int64, 3)
	res3, err := BenchGames(o, 6, 3, 9, func(w int, s *rules.State, id int) { calls[w]++ })
	if err != nil {
		t.Fatal(err)
	}
	res1, err := BenchGames(o, 6, 1, 9, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res1.Steps != res3.Steps || calls[0]+calls[1]+calls[2] != res3.Steps {
		t.Errorf("steps %d (1 worker) vs %d (3 workers), hook saw %v", res1.Steps, res3.Steps, calls)
	}
}

func TestBenchRejectsBadFlags(t *testing.T) {
	for _, o := range []benchOptions{
		{gameFlags: gameFlags{players: 6}, games: 1, workers: 1},
		{gameFlags: gameFlags{players: 4}, games: 0, workers: 1},
		{gameFlags: gameFlags{players: 4}, games: 1, workers: 0},
		{gameFlags: gameFlags{players: 4, variant: "deluxe"}, games: 1, workers: 1},
		{gameFlags: gameFlags{players: 4, modules: "dragons"}, games: 1, workers: 1},
	} {
		if err := runBench(o, &bytes.Buffer{}); !errors.Is(err, ErrBenchOptions) {
			t.Errorf("%+v: error %v, want ErrBenchOptions", o, err)
		}
	}
}

func TestRulesSupportCommandsRegistered(t *testing.T) {
	root := NewRoot()
	for _, name := range []string{"bench", "replay", "score", "legal"} {
		c, _, err := root.Find([]string{name})
		if err != nil || c.Name() != name || !strings.Contains(c.Example, "container "+name) {
			t.Errorf("command %s: %v", name, err)
		}
	}
	var out, errOut bytes.Buffer
	if code := Main([]string{"bench", "--players", "9"}, nil, &out, &errOut); code == 0 || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("bad flag: exit %d, stderr %q", code, errOut.String())
	}
}

func TestBenchEncodeEncodesEveryDecision(t *testing.T) {
	var out bytes.Buffer
	o := benchOptions{gameFlags: gameFlags{players: 3, variant: "base", length: "standard"}, games: 3, workers: 2, seed: 1, encode: true, json: true}
	if err := runBench(o, &out); err != nil {
		t.Fatal(err)
	}
	var res BenchResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Steps == 0 || res.AllocsPerStep > 0.1 {
		t.Fatalf("bench --encode: %+v, %v", res, err)
	}
}

// bench --train reports BC samples/s and batched decisions/s on the default backend, as JSON
// with every field, and refuses bad flags.
func TestBenchTrainMeasuresTrainingAndInference(t *testing.T) {
	var out bytes.Buffer
	o := benchOptions{gameFlags: gameFlags{players: 3, variant: "base", length: "standard"}, games: 1, workers: 1, seed: 1, json: true, train: true, batch: 16, steps: 2, width: 8}
	if err := runBench(o, &out); err != nil {
		t.Fatal(err)
	}
	var res struct {
		Backend       string  `json:"backend"`
		Players       int     `json:"players"`
		Batch         int     `json:"batch"`
		Steps         int     `json:"steps"`
		BCSamplesPerS float64 `json:"bc_samples_per_s"`
		Decisions     int     `json:"decisions"`
		DecisionsPerS float64 `json:"decisions_per_s"`
		SamplesPerCPU float64 `json:"bc_samples_per_cpu_s"`
		DecisionsCPU  float64 `json:"decisions_per_cpu_s"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res.Backend == "" || res.Players != 3 || res.Batch != 16 || res.Steps != 2 || !(res.BCSamplesPerS > 0) ||
		res.Decisions < 256 || !(res.DecisionsPerS > 0) || !(res.SamplesPerCPU > 0) || !(res.DecisionsCPU > 0) {
		t.Fatalf("bench --train: %s", out.String())
	}
	for name, mut := range map[string]func(*benchOptions){
		"encode too": func(o *benchOptions) { o.encode = true },
		"batch 0":    func(o *benchOptions) { o.batch = 0 },
		"bad rules":  func(o *benchOptions) { o.variant = "deluxe" },
	} {
		bad := o
		mut(&bad)
		if err := runBench(bad, &bytes.Buffer{}); !errors.Is(err, ErrBenchOptions) {
			t.Errorf("%s: err = %v, want ErrBenchOptions", name, err)
		}
	}
}
