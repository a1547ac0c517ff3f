package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestLegalListsIdsAndNotation(t *testing.T) {
	var out bytes.Buffer
	if err := runLegal(filepath.Join(positionsDir, "opening-4p.json"), true, nil, &out); err != nil {
		t.Fatal(err)
	}
	s, _, err := loadStateFile(filepath.Join(positionsDir, "opening-4p.json"), nil)
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
