package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTestRecord plays a short random game and saves it as JSON and binary records.

func TestBenchJSON(t *testing.T) {
	var out bytes.Buffer
	o := benchOptions{gameFlags: gameFlags{players: 3, variant: "base", length: "short"}, games: 4, workers: 2, seed: 1, json: true}
	require.NoError(t, runBench(o, &out))
	var res map[string]float64
	err := json.Unmarshal(out.Bytes(), &res)
	require.NoError(t, err, "%v: %s", err, out.String())
	for _, k := range []string{"games", "players", "steps", "seconds", "games_per_s", "steps_per_s", "allocs_per_step"} {
		_, ok := res[k]
		assert.True(t, ok, "bench JSON lacks %q: %s", k, out.String())
	}
	assert.False(t, res["games"] != 4 || res["players"] != 3 || res["steps"] < 4, "bench result %v", res)
}

// TestBenchGamesIsDeterministicAndCallsStep: the per-step hook sees every step, and the step

// count does not depend on the number of workers.

func TestBenchGamesIsDeterministicAndCallsStep(t *testing.T) {
	o := rules.Options{Players: 4, Variant: rules.Classic}
	calls := make([]int64, 3)
	res3, err := BenchGames(o, 6, 3, 9, func(w int, s *rules.State, id int) { calls[w]++ })
	require.NoError(t, err)
	res1, err := BenchGames(o, 6, 1, 9, nil)
	require.NoError(t, err)
	assert.False(t, res1.Steps != res3.Steps || calls[0]+calls[1]+calls[2] != res3.Steps, "steps %d (1 worker) vs %d (3 workers), hook saw %v", res1.Steps, res3.Steps, calls)
}

func TestBenchRejectsBadFlags(t *testing.T) {
	for _, o := range []benchOptions{
		{gameFlags: gameFlags{players: 6}, games: 1, workers: 1},
		{gameFlags: gameFlags{players: 4}, games: 0, workers: 1},
		{gameFlags: gameFlags{players: 4}, games: 1, workers: 0},
		{gameFlags: gameFlags{players: 4, variant: "deluxe"}, games: 1, workers: 1},
		{gameFlags: gameFlags{players: 4, modules: "dragons"}, games: 1, workers: 1},
	} {
		err := runBench(o, &bytes.Buffer{})
		assert.ErrorIs(t, err, ErrBenchOptions, "%+v: error %v, want ErrBenchOptions", o, err)
	}
}

func TestRulesSupportCommandsRegistered(t *testing.T) {
	root := NewRoot()
	for _, name := range []string{"bench", "replay", "score", "legal"} {
		c, _, err := root.Find([]string{name})
		assert.False(t, err != nil || c.Name() != name || !strings.Contains(c.Example, "container "+name), "command %s: %v", name, err)
	}
	var out, errOut bytes.Buffer
	code := Main([]string{"bench", "--players", "9"}, nil, &out, &errOut)
	assert.False(t, code == 0 || strings.Count(errOut.String(), "\n") != 1, "bad flag: exit %d, stderr %q", code, errOut.String())
}

func TestBenchEncodeEncodesEveryDecision(t *testing.T) {
	var out bytes.Buffer
	o := benchOptions{gameFlags: gameFlags{players: 3, variant: "base", length: "standard"}, games: 3, workers: 2, seed: 1, encode: true, json: true}
	require.NoError(t, runBench(o, &out))
	var res BenchResult
	err := json.Unmarshal(out.Bytes(), &res)
	require.False(t, err != nil || res.Steps == 0 || res.AllocsPerStep > 0.1, "bench --encode: %+v, %v", res, err)
}

// bench --train reports BC samples/s and batched decisions/s on the default backend, as JSON
// with every field, and refuses bad flags.
func TestBenchTrainMeasuresTrainingAndInference(t *testing.T) {
	var out bytes.Buffer
	o := benchOptions{gameFlags: gameFlags{players: 3, variant: "base", length: "standard"}, games: 1, workers: 1, seed: 1, json: true, train: true, batch: 16, steps: 2, width: 8}
	require.NoError(t, runBench(o, &out))
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
	err := json.Unmarshal(out.Bytes(), &res)
	require.NoError(t, err, "%v: %s", err, out.String())
	if res.Backend == "" || res.Players != 3 || res.Batch != 16 || res.Steps != 2 || !(res.BCSamplesPerS > 0) ||
		res.Decisions < 256 || !(res.DecisionsPerS > 0) || !(res.SamplesPerCPU > 0) || !(res.DecisionsCPU > 0) {
		require.Fail(t, fmt.Sprintf("bench --train: %s", out.String()))
	}
	for name, mut := range map[string]func(*benchOptions){
		"encode too": func(o *benchOptions) { o.encode = true },
		"batch 0":    func(o *benchOptions) { o.batch = 0 },
		"bad rules":  func(o *benchOptions) { o.variant = "deluxe" },
	} {
		bad := o
		mut(&bad)
		err := runBench(bad, &bytes.Buffer{})
		assert.ErrorIs(t, err, ErrBenchOptions, "%s: err = %v, want ErrBenchOptions", name, err)
	}
}
