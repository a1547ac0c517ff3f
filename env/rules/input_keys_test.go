package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// A misspelt key never goes unnoticed (docs/POSITION.md): keys are matched exactly, and no
// key may be given twice. Each refusal is one line naming the key.
func TestPositionKeysAreMatchedExactly(t *testing.T) {
	for _, c := range []struct{ name, in, says string }{
		{"OPTIONS", `{"OPTIONS": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`, `unknown key "OPTIONS" at the top level (did you mean "options"?)`},
		{"Players", `{"options": {"players": 3}, "Players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`, `unknown key "Players" at the top level (did you mean "players"?)`},
		{"nested Cash", `{"options": {"players": 3}, "players": [{"factories": "w", "Cash": 5}, {"factories": "g"}, {"factories": "r"}]}`, `unknown key "Cash" at players[0]`},
		{"option key", `{"options": {"Players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`, `unknown key "Players" at options`},
		{"duplicate options", `{"options": {"players": 4}, "options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`, `duplicate key "options" at the top level`},
		{"duplicate cash", `{"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g", "cash": 1, "cash": 9}, {"factories": "r"}]}`, `duplicate key "cash" at players[1]`},
		{"machine key", minimalMachine(`{"Phase": 1}`), `unknown key "Phase" at the top level (did you mean "phase"?)`},
		{"colour twice", `{"options": {"players": 3}, "players": [{"factories": "w", "ship": {"white": 1, "w": 1}}, {"factories": "g"}, {"factories": "r"}]}`, `"w" and "white" are the same colour`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadPosition([]byte(c.in))
			if !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v; want one line saying %s", err, c.says)
			}
		})
	}
}

func minimalMachine(m string) string {
	return strings.TrimSuffix(minimalPosition, "}") + `, "machine": ` + m + `}`
}

func TestRecordKeysAreMatchedExactly(t *testing.T) {
	for _, c := range []struct{ name, in, says string }{
		{"Moves", `{"format": "container-game/1", "options": {"players": 3}, "seed": 1, "Moves": []}`, `unknown key "Moves" at the top level (did you mean "moves"?)`},
		{"duplicate seed", `{"format": "container-game/1", "options": {"players": 3}, "seed": 1, "seed": 2, "moves": []}`, `duplicate key "seed"`},
		{"option key in a record", `{"format": "container-game/1", "options": {"PLAYERS": 3}, "seed": 1, "moves": []}`, `unknown key "PLAYERS" at options`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := LoadRecord([]byte(c.in))
			if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("error %v; want one saying %s", err, c.says)
			}
		})
	}
}

// Load tells a record from a position by its format: a record cut short is truncated JSON
// (not a position of the wrong size), a record of another version names the version.
func TestLoadNamesTheRealProblem(t *testing.T) {
	rec, err := os.ReadFile("testdata/records/4p-all-modules-short-seed5.json")
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Replace(string(rec), `"moves": [`, `"moves": [`+strings.Repeat(`"end", `, 200_000), 1) // past a position's size limit
	for _, c := range []struct{ name, in, says string }{
		{"record cut in the middle", string(rec[:len(rec)/2]), "truncated JSON"},
		{"large record cut in the middle", big[:len(big)/2], "truncated JSON"},
		{"record of version 9", strings.Replace(string(rec), "container-game/1", "container-game/9", 1), `unsupported record format version 9 ("container-game/9"); this build reads container-game/1`},
		{"position of version 2", `{"format": "container-position/2", "options": {"players": 3}}`, `unsupported position format version 2 ("container-position/2"); this build reads container-position/1`},
		{"another format", `{"format": "chess/1"}`, `format "chess/1" is neither a position`},
		{"position cut short", minimalPosition[:40], "truncated JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Load([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "at most") {
				t.Fatalf("error %v; want one saying %s", err, c.says)
			}
		})
	}
	if s, r, err := Load(rec); err != nil || r == nil || s == nil {
		t.Fatalf("whole record: %v", err)
	}
	if s, r, err := Load([]byte(minimalPosition)); err != nil || r != nil || s == nil {
		t.Fatalf("position: %v", err)
	}
	r, _, err := LoadRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, r2, err := Load(bin); err != nil || len(r2.Moves) != len(r.Moves) {
		t.Fatalf("binary record: %v", err)
	}
}

// The "format" key tells a record from a position wherever it stands in the object: a
// record whose keys are in alphabetical order ("checksum" first) still loads as a record,
// and a version named after other keys is still named.
func TestLoadFindsTheFormatAfterOtherKeys(t *testing.T) {
	rec, err := os.ReadFile("testdata/records/4p-all-modules-short-seed5.json")
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(rec, &keys); err != nil {
		t.Fatal(err)
	}
	sorted, err := json.Marshal(keys) // keys in alphabetical order
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(sorted, []byte(`{"format"`)) {
		t.Fatalf("format is still the first key: %.40s", sorted)
	}
	if s, r, err := Load(sorted); err != nil || r == nil || s == nil {
		t.Fatalf("record with format after other keys: %v", err)
	}
	for _, c := range []struct{ name, in, says string }{
		{"record of version 9", strings.Replace(string(sorted), "container-game/1", "container-game/9", 1), `unsupported record format version 9`},
		{"position of version 2", `{"options": {"players": 3}, "format": "container-position/2"}`, `unsupported position format version 2`},
	} {
		if _, _, err := Load([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v; want one saying %s", c.name, err, c.says)
		}
	}
}
