package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// container apply plays moves (notation or ids) from a position and prints the resulting
// position, which loads back; --record writes a record from the position that replay reads.
func TestApplyPrintsResultingPositionAndRecord(t *testing.T) {
	pos := filepath.Join(positionsDir, "opening-4p.json")
	var out bytes.Buffer
	if err := runApply(pos, []string{"produce", "48", "done"}, applyOptions{}, nil, &out); err != nil {
		t.Fatal(err)
	}
	s, err := rules.LoadPosition(out.Bytes())
	if err != nil {
		t.Fatalf("printed position does not load: %v\n%s", err, out.String())
	}
	if s.Players[0].FactoryLots[1][rules.White] != 2 || s.Steps != 3 {
		t.Fatalf("resulting position: lots %v steps %d", s.Players[0].FactoryLots, s.Steps)
	}
	// Standard input, and --record.
	data, err := os.ReadFile(pos)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := runApply("-", []string{"produce", "place:$2"}, applyOptions{record: true}, bytes.NewReader(data), &out); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(t.TempDir(), "line.json")
	if err := os.WriteFile(rec, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := runReplay(rec, replayOptions{viewer: -1, json: true}, nil, &out); err != nil {
		t.Fatal(err)
	}
	var j replayJSON
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, out.String())
	}
	if !j.FromPosition || len(j.Moves) != 2 || j.Moves[0].Move != "produce" || j.Moves[0].ID != 11 || j.Moves[1].Phase != "place" || len(j.Scores) != 4 {
		t.Fatalf("replay --json: %+v", j)
	}
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
			t.Errorf("%v: %v", moves, err)
		}
		if out.Len() != 0 {
			t.Errorf("%v: printed %q", moves, out.String())
		}
	}
	if err := runApply("-", []string{"end"}, applyOptions{}, strings.NewReader(`{"options": {"players": 3}} x`), &bytes.Buffer{}); err == nil {
		t.Error("a bad position on standard input was accepted")
	}
}

// container legal --json lists the decision and every legal action with id and notation.
func TestLegalJSON(t *testing.T) {
	var out bytes.Buffer
	if err := runLegalJSON(filepath.Join(positionsDir, "opening-4p.json"), nil, &out); err != nil {
		t.Fatal(err)
	}
	var j legalJSON
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if j.Terminal || j.Decider != 0 || j.Phase != "turn" || len(j.Actions) == 0 || j.Actions[0] != (legalAction{ID: 0, Move: "end"}) {
		t.Fatalf("legal --json: %+v", j)
	}
}
