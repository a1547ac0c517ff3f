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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const positionsDir = "../../env/rules/testdata/positions"

func TestScoreRulebookExample(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runScore(filepath.Join(positionsDir, "rulebook-final-scoring.json"), scoreOptions{}, nil, &out))
	for _, want := range []string{"$55", "$62", "$71", "1 WINNER", "-$11", "3 blue"} {
		assert.True(t, strings.Contains(out.String(), want), "score output lacks %q:\n%s", want, out.String())
	}
	out.Reset()
	require.NoError(t, runScore(filepath.Join(positionsDir, "rulebook-final-scoring.json"), scoreOptions{json: true}, nil, &out))
	var scores []rules.Score
	err := json.Unmarshal(out.Bytes(), &scores)
	assert.False(t, err != nil || len(scores) != 3 || scores[2].Total != 71, "JSON scores %v (%v)", scores, err)
}

func TestScoreBadFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"options": {"players": 3}, "players": [{"factories": "w", "ship": "wwwwww"}, {"factories": "g"}, {"factories": "r"}]}`), 0o644)
	err := runScore(bad, scoreOptions{}, nil, &bytes.Buffer{})
	assert.False(t, !errors.Is(err, rules.ErrBadPosition) || !strings.Contains(err.Error(), "6 containers on the ship"), "error %v", err)
	err = runScore(filepath.Join(t.TempDir(), "missing.json"), scoreOptions{}, nil, &bytes.Buffer{})
	assert.Error(t, err, "missing file accepted")
}
