package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLegalListsIdsAndNotation(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runLegal(filepath.Join(positionsDir, "opening-4p.json"), true, nil, &out))
	s, _, err := loadStateFile(filepath.Join(positionsDir, "opening-4p.json"), nil)
	require.NoError(t, err)
	ids := s.LegalActions(nil)
	assert.False(t, !strings.Contains(out.String(), "p1 decides turn") || !strings.Contains(out.String(), "legal actions"), "legal output:\n%s", out.String())
	for _, id := range ids {
		m := s.ActionToMove(id)
		assert.True(t, strings.Contains(out.String(), m.String()), "legal output lacks %d %s", id, m)
	}
	assert.True(t, strings.Contains(out.String(), "Bank: containers I:wy"), "--board did not draw the board:\n%s", out.String())
}

// writePosition writes an opening 4-player position with seat 0's cash, the auctions and
// the machine given.
func writePosition(t *testing.T, cash0 int, auctions, machine string) string {
	t.Helper()
	pos := `{"options": {"players": 4},
  "players": [
    {"cash": ` + strconv.Itoa(cash0) + `, "factories": "w", "factory_lots": {"2": "w"}},
    {"factories": "g", "factory_lots": {"2": "g"}},
    {"factories": "r", "factory_lots": {"2": "r"}},
    {"factories": "b", "factory_lots": {"2": "b"}}
  ],
  "bank": {"container_lots": ["wy", "g", ""], "cash_lots": [1, 2, 3]},
  "auctions": ` + auctions + `,
  "machine": ` + machine + `}`
	path := filepath.Join(t.TempDir(), "pos.json")
	require.NoError(t, os.WriteFile(path, []byte(pos), 0o644))
	return path
}

// TestLegalRefusesImpossibleMachine: a Factory Purchase from seat 9 (a machine the engine
// cannot produce; it crashed `legal` before 2026-12-01) is refused on load with one line that
// names the machine field.
func TestLegalRefusesImpossibleMachine(t *testing.T) {
	path := writePosition(t, 20, `[]`, `{"phase": 5, "decider": 0, "action": 7, "actions_used": 1, "district": 1, "counterpart": 9}`)
	var out bytes.Buffer
	err := runLegal(path, true, nil, &out)
	require.False(t, err == nil || !strings.Contains(err.Error(), "machine: counterpart") || strings.Contains(err.Error(), "\n"), "legal: %v, want a one-line machine: counterpart error", err)
}

// TestLegalSummarisesLargeAmountRanges: a cash bid with $500,000 in hand lists the amounts
// with ids and summarises the rest from the decision's range without listing half a million
// moves.
func TestLegalSummarisesLargeAmountRanges(t *testing.T) {
	path := writePosition(t, 500000, `[{"kind": "container-lot", "target": 0, "bidder": 0}]`,
		`{"phase": 12, "decider": 0, "actions_used": 1, "called_bank": true, "bid_kind": 0, "to_beat": 0}`)
	var out bytes.Buffer
	require.NoError(t, runLegal(path, false, nil, &out))
	require.True(t, strings.Contains(out.String(), "$100..$500000 (499901 amounts without an action id)"), "legal output:\n%s", out.String())
}
