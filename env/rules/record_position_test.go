package rules

import (
	"errors"
	"strings"
	"testing"
)

// A record may start from a position instead of a seeded setup, and may leave its checksum
// out: it then replays without verification; a checksum that is given is verified.
func TestRecordFromPositionWithOptionalChecksum(t *testing.T) {
	in := `{"format": "container-game/1",
	 "position": {"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]},
	 "moves": ["produce", "place:$2", "end"]}`
	r, s, err := LoadRecord([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if r.From == nil || !r.NoChecksum || len(r.Moves) != 3 || s.Active != 1 || s.Players[0].FactoryLots[1][White] != 1 {
		t.Fatalf("record %+v, active %d, lots %v", r, s.Active, s.Players[0].FactoryLots)
	}
	// Written back it keeps the position; with the checksum it verifies, a wrong one fails.
	r.NoChecksum, r.Checksum = false, s.Hash()
	out, err := r.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"position": {`) || strings.Contains(string(out), `"seed"`) {
		t.Fatalf("written record:\n%s", out)
	}
	r2, s2, err := LoadRecord(out)
	if err != nil || s2.Hash() != s.Hash() || r2.NoChecksum {
		t.Fatalf("round trip: %v", err)
	}
	bad := strings.Replace(string(out), `"checksum": "`, `"checksum": "0`, 1)
	bad = bad[:strings.LastIndex(bad, `"`)-1] + `"` + "\n}\n"
	if _, _, err := LoadRecord([]byte(bad)); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("wrong checksum: %v", err)
	}
	if _, err := r.MarshalBinary(); !errors.Is(err, ErrBadRecord) {
		t.Fatalf("binary form of a record from a position: %v", err)
	}
	// NewRecordFrom records the moves made since the position.
	from, _ := LoadPosition([]byte(`{"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`))
	c := from.Clone()
	play(t, c, "produce", "place:$2")
	if rec := NewRecordFrom(from, c); len(rec.Moves) != 2 || rec.From == nil {
		t.Fatalf("NewRecordFrom: %+v", rec)
	}
	// Seeded records may leave the checksum out too; position and options together are refused.
	if _, _, err := LoadRecord([]byte(`{"format": "container-game/1", "options": {"players": 4}, "seed": 3, "moves": ["end"]}`)); err != nil {
		t.Fatalf("seeded record without checksum: %v", err)
	}
	both := `{"format": "container-game/1", "options": {"players": 3}, "position": {"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}, "moves": []}`
	if _, _, err := LoadRecord([]byte(both)); !errors.Is(err, ErrBadRecord) {
		t.Fatalf("position and options: %v", err)
	}
	if _, _, err := LoadRecord([]byte(`{"format": "container-game/1", "moves": []}`)); !errors.Is(err, ErrBadRecord) {
		t.Fatalf("neither options nor position: %v", err)
	}
}
