package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

const positionsDir = "../../env/rules/testdata/positions"

// writeTestRecord plays a short random game and saves it as JSON and binary records.
func writeTestRecord(t *testing.T) (jsonPath, binPath string, final *rules.State) {
	t.Helper()
	g, err := rules.NewGame(rules.Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(4)
	var ids []int
	for i := 0; i < 150 && !s.IsTerminal(); i++ {
		ids = s.LegalActions(ids)
		s.Apply(ids[(i*31)%len(ids)])
	}
	rec := rules.NewRecord(s, 4)
	js, err := rec.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jsonPath, binPath = filepath.Join(dir, "game.json"), filepath.Join(dir, "game.ctnr")
	if err := os.WriteFile(jsonPath, js, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(binPath, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	return jsonPath, binPath, s
}

func TestBenchJSON(t *testing.T) {
	var out bytes.Buffer
	o := benchOptions{players: 3, games: 4, workers: 2, variant: "base", length: "short", seed: 1, json: true}
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
		{players: 6, games: 1, workers: 1},
		{players: 4, games: 0, workers: 1},
		{players: 4, games: 1, workers: 0},
		{players: 4, games: 1, workers: 1, variant: "deluxe"},
		{players: 4, games: 1, workers: 1, modules: "dragons"},
	} {
		if err := runBench(o, &bytes.Buffer{}); !errors.Is(err, ErrBenchOptions) {
			t.Errorf("%+v: error %v, want ErrBenchOptions", o, err)
		}
	}
}

func TestScoreRulebookExample(t *testing.T) {
	var out bytes.Buffer
	if err := runScore(filepath.Join(positionsDir, "rulebook-final-scoring.json"), scoreOptions{}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"$55", "$62", "$71", "1 WINNER", "-$11", "3 blue"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("score output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runScore(filepath.Join(positionsDir, "rulebook-final-scoring.json"), scoreOptions{json: true}, &out); err != nil {
		t.Fatal(err)
	}
	var scores []rules.Score
	if err := json.Unmarshal(out.Bytes(), &scores); err != nil || len(scores) != 3 || scores[2].Total != 71 {
		t.Errorf("JSON scores %v (%v)", scores, err)
	}
}

func TestScoreBadFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"options": {"players": 3}, "players": [{"factories": "w", "ship": "wwwwww"}, {"factories": "g"}, {"factories": "r"}]}`), 0o644)
	err := runScore(bad, scoreOptions{}, &bytes.Buffer{})
	if !errors.Is(err, rules.ErrBadPosition) || !strings.Contains(err.Error(), "6 containers on the ship") {
		t.Errorf("error %v", err)
	}
	if err := runScore(filepath.Join(t.TempDir(), "missing.json"), scoreOptions{}, &bytes.Buffer{}); err == nil {
		t.Error("missing file accepted")
	}
}

func TestLegalListsIdsAndNotation(t *testing.T) {
	var out bytes.Buffer
	if err := runLegal(filepath.Join(positionsDir, "opening-4p.json"), true, &out); err != nil {
		t.Fatal(err)
	}
	s, _, err := loadStateFile(filepath.Join(positionsDir, "opening-4p.json"))
	if err != nil {
		t.Fatal(err)
	}
	ids := s.LegalActions(nil)
	if !strings.Contains(out.String(), "p1 decides turn") || !strings.Contains(out.String(), "legal actions") {
		t.Errorf("legal output:\n%s", out.String())
	}
	for _, id := range ids {
		m := s.ActionToMove(id)
		if !strings.Contains(out.String(), m.String()) {
			t.Errorf("legal output lacks %d %s", id, m)
		}
	}
	if !strings.Contains(out.String(), "Bank: containers I:wy") {
		t.Errorf("--board did not draw the board:\n%s", out.String())
	}
}

func TestReplayJSONAndBinary(t *testing.T) {
	js, bin, final := writeTestRecord(t)
	for _, path := range []string{js, bin} {
		var out bytes.Buffer
		if err := runReplay(path, replayOptions{viewer: -1, boards: true}, &out); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if !strings.Contains(text, "== turn 1:") || !strings.Contains(text, "== final position ==") || !strings.Contains(text, "rank") {
			t.Errorf("%s: replay output:\n%s", path, text)
		}
		if n := strings.Count(text, "\n"); n < len(final.History()) {
			t.Errorf("%s: %d lines for %d moves", path, n, len(final.History()))
		}
	}
	// A corrupted record is an error naming the problem.
	data, _ := os.ReadFile(js)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, bytes.Replace(data, []byte(`"checksum": "`), []byte(`"checksum": "f`), 1), 0o644)
	if err := runReplay(bad, replayOptions{viewer: -1}, &bytes.Buffer{}); !errors.Is(err, rules.ErrBadRecord) {
		t.Errorf("bad checksum: %v", err)
	}
	if err := runReplay(filepath.Join(positionsDir, "opening-4p.json"), replayOptions{viewer: -1}, &bytes.Buffer{}); err == nil {
		t.Error("replay accepted a position")
	}
	if err := runReplay(js, replayOptions{viewer: 7}, &bytes.Buffer{}); err == nil {
		t.Error("replay accepted --viewer 7")
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
