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

func TestScoreRulebookExample(t *testing.T) {
	var out bytes.Buffer
	if err := runScore(filepath.Join(positionsDir, "rulebook-final-scoring.json"), scoreOptions{}, nil, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"$55", "$62", "$71", "1 WINNER", "-$11", "3 blue"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("score output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := runScore(filepath.Join(positionsDir, "rulebook-final-scoring.json"), scoreOptions{json: true}, nil, &out); err != nil {
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
	err := runScore(bad, scoreOptions{}, nil, &bytes.Buffer{})
	if !errors.Is(err, rules.ErrBadPosition) || !strings.Contains(err.Error(), "6 containers on the ship") {
		t.Errorf("error %v", err)
	}
	if err := runScore(filepath.Join(t.TempDir(), "missing.json"), scoreOptions{}, nil, &bytes.Buffer{}); err == nil {
		t.Error("missing file accepted")
	}
}
