package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// container apply plays moves (notation or ids) from a position and prints the resulting
// position, which loads back; --record writes a record from the position that replay reads.
func TestApplyPrintsResultingPositionAndRecord(t *testing.T) {
	pos := filepath.Join(positionsDir, "opening-4p.json")
	var out bytes.Buffer
	require.NoError(t, runApply(pos, []string{"produce", "48", "done"}, applyOptions{}, nil, &out))
	s, err := rules.LoadPosition(out.Bytes())
	require.NoError(t, err, "printed position does not load: %v\n%s", err, out.String())
	require.False(t, s.Players[0].FactoryLots[1][rules.White] != 2 || s.Steps != 3, "resulting position: lots %v steps %d", s.Players[0].FactoryLots, s.Steps)
	// Standard input, and --record.
	data, err := os.ReadFile(pos)
	require.NoError(t, err)
	out.Reset()
	require.NoError(t, runApply("-", []string{"produce", "place:$2"}, applyOptions{record: true}, bytes.NewReader(data), &out))
	rec := filepath.Join(t.TempDir(), "line.json")
	require.NoError(t, os.WriteFile(rec, out.Bytes(), 0o644))
	out.Reset()
	require.NoError(t, runReplay(rec, replayOptions{viewer: -1, json: true}, nil, &out))
	var j replayJSON
	err = json.Unmarshal(out.Bytes(), &j)
	require.NoError(t, err, "replay --json: %v\n%s", err, out.String())
	require.False(t, !j.FromPosition || len(j.Moves) != 2 || j.Moves[0].Move != "produce" || j.Moves[0].ID != 11 || j.Moves[1].Phase != "place" || len(j.Scores) != 4, "replay --json: %+v", j)
}

// The first illegal or unreadable move is an error naming it with the legal moves; nothing
// is printed.
func TestApplyIllegalMoveNamesItAndListsLegalMoves(t *testing.T) {
	pos := filepath.Join(positionsDir, "opening-4p.json")
	for _, moves := range [][]string{{"produce", "sail:island"}, {"produce", "bogus"}, {"produce", "999"}} {
		var out bytes.Buffer
		err := runApply(pos, moves, applyOptions{}, nil, &out)
		if err == nil || !strings.Contains(err.Error(), "move 2 (") || !strings.Contains(err.Error(), "legal: ") ||
			!strings.Contains(err.Error(), "48=place:$2") || strings.Contains(err.Error(), "\n") {
			assert.Fail(t, fmt.Sprintf("%v: %v", moves, err))
		}
		assert.True(t, out.Len() == 0, "%v: printed %q", moves, out.String())
	}
	err := runApply("-", []string{"end"}, applyOptions{}, strings.NewReader(`{"options": {"players": 3}} x`), &bytes.Buffer{})
	assert.Error(t, err, "a bad position on standard input was accepted")
}

// container legal --json lists the decision and every legal action with id and notation.
func TestLegalJSON(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runLegalJSON(filepath.Join(positionsDir, "opening-4p.json"), nil, &out))
	var j legalJSON
	err := json.Unmarshal(out.Bytes(), &j)
	require.NoError(t, err, "%v\n%s", err, out.String())
	require.False(t, j.Terminal || j.Decider != 0 || j.Phase != "turn" || len(j.Actions) == 0 || j.Actions[0] != (legalAction{ID: 0, Move: "end"}), "legal --json: %+v", j)
}
