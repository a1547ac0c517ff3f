package bridge

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// WriteString needs room for the string and its NUL: a buffer of exactly that size is
// enough, one byte less is "too small" with the size to retry with, and a string holding a
// NUL (even as its first byte) is refused.
func TestWriteStringNeedsRoomForTheNUL(t *testing.T) {
	dst := []byte("xxxx")
	need, err := WriteString("abc", dst)
	if err != nil || need != 4 || string(dst) != "abc\x00" {
		t.Errorf("abc into 4 bytes: need %d, %v, wrote %q", need, err, dst)
	}
	need, err = WriteString("abc", make([]byte, 3))
	if !errors.Is(err, ErrBufferSmall) || Code(err) != CodeBufferSmall || need != 4 {
		t.Errorf("abc into 3 bytes: need %d, %v; want 4 and a buffer-too-small error", need, err)
	}
	for _, s := range []string{"\x00abc", "a\x00"} {
		if _, err := WriteString(s, make([]byte, 8)); Code(err) != CodeInternal {
			t.Errorf("%q: %v, want an internal error", s, err)
		}
	}
}

func TestScoreAndObservePositions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "env", "rules", "testdata", "positions", "rulebook-final-scoring.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := ScoreJSON(string(data))
	if err != nil {
		t.Fatal(err)
	}
	var scores []rules.Score
	if err := json.Unmarshal([]byte(out), &scores); err != nil || len(scores) != 3 {
		t.Fatalf("%s: %v", out, err)
	}
	// The rulebook's final-scoring example (reference-game-end-and-scoring.txt): Orange $55,
	// Purple $62, Blue $71.
	got := []int{scores[0].Total, scores[1].Total, scores[2].Total}
	if !slices.Equal(got, []int{55, 62, 71}) {
		t.Errorf("totals %v, want [55 62 71]", got)
	}
	if _, err := ScoreJSON(`{"format": "container-position/1", "options": {"players": 9}}`); Code(err) != CodeInvalid {
		t.Errorf("bad position: %v", err)
	}
	if _, err := WriteString("hello", make([]byte, 3)); Code(err) != CodeBufferSmall {
		t.Errorf("small buffer: %v", err)
	}
}
