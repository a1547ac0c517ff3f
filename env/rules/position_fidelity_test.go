package rules

import (
	"errors"
	"strings"
	"testing"
)

const minimalPosition = `{"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`

// A position file says exactly one thing (docs/POSITION.md): anything after the JSON object,
// even a second object, is refused rather than ignored.
func TestPositionTrailingDataIsRefused(t *testing.T) {
	if _, err := LoadPosition([]byte(minimalPosition + "\n \t\n")); err != nil {
		t.Fatalf("trailing whitespace: %v", err)
	}
	for _, tail := range []string{"x", "{}", minimalPosition, "]", "1"} {
		_, err := LoadPosition([]byte(minimalPosition + "\n" + tail))
		if !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), "data after the JSON value") {
			t.Errorf("trailing %q: %v", tail, err)
		}
	}
}

// Errors name "rules: bad position" once, however deep the problem is found.
func TestPositionErrorsHaveOnePrefix(t *testing.T) {
	for _, in := range []string{
		`{"options": {"players": 3}, "players": [{"factories": "w", "ship": "9z"}, {"factories": "g"}, {"factories": "r"}]}`,
		`{"options": {"players": 3}, "players": [{"factories": "ww"}, {"factories": "g"}, {"factories": "r"}]}`,
		`{"options": {"players": 3}, "players": [{"factories": "w", "loans": 7}, {"factories": "g"}, {"factories": "r"}]}`,
		`{"options": {"players": 3}, "players": [{"factories": "w", "ship_at": "moon"}, {"factories": "g"}, {"factories": "r"}]}`,
		`{"options": {"players": 3}, "supply": {"white": 300}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}]}`,
		`{"options": {"players": 3, "variant": "odd"}, "players": []}`,
		`{"options": {"players": 3}, "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r"}], "machine": {"phase": "x"}}`,
		`{"options": {"players": 3}, "players": [`,
	} {
		_, err := LoadPosition([]byte(in))
		if !errors.Is(err, ErrBadPosition) {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if n := strings.Count(err.Error(), "bad position"); n != 1 {
			t.Errorf("prefix %d times: %v", n, err)
		}
	}
}

// Classic rules (Rulebook, Classic Game Variant): containers seized in a default leave the
// game. A hand-written Classic position with "removed" and no "supply" derives the supply as
// the total less everything placed and everything removed.
func TestPositionClassicRemovedWithDerivedSupply(t *testing.T) {
	in := `{"options": {"players": 3, "variant": "classic"}, "removed": "2w r",
	 "players": [{"factories": "w"}, {"factories": "g"}, {"factories": "r", "island": "w"}]}`
	s, err := LoadPosition([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	total := s.game.opts.containerTotals()
	if int(s.Supply[White]) != total[White]-3 || int(s.Supply[Red]) != total[Red]-1 || s.Removed != (Counts{White: 2, Red: 1}) {
		t.Fatalf("supply %v removed %v (total %v)", s.Supply, s.Removed, total)
	}
	// More removed than exist: a clear error.
	_, err = LoadPosition([]byte(strings.Replace(in, `"2w r"`, `"20w"`, 1)))
	if !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), "removed") {
		t.Fatalf("too many removed: %v", err)
	}
}
