package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzPositionMachine loads a position (seeded with the example positions and, under
// testdata/fuzz/FuzzPositionMachine, the mutants the machine mutation harness found crashing
// or dead-ending before validation covered them) and, when it loads, lists its legal moves,
// applies each of them, and then walks the game on (path picks one legal action per byte),
// checking after every step that nothing panics, the position stays valid and a game that is
// not over has legal moves. Plain `go test` runs the seed corpus; `go test -fuzz
// FuzzPositionMachine ./env/rules` searches further.
func FuzzPositionMachine(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "positions", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no example positions: %v", err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, []byte{0, 1, 2, 3, 4, 5, 6, 7})
	}
	f.Fuzz(func(t *testing.T, pos []byte, path []byte) {
		loaded, err := exercisePosition(pos)
		if err != nil {
			t.Fatal(err)
		}
		if !loaded {
			return
		}
		s, err := LoadPosition(pos)
		if err != nil {
			t.Fatalf("loaded once, refused the second time: %v", err)
		}
		var ids []int
		for i, b := range path {
			if i >= 64 || s.IsTerminal() {
				break
			}
			ids = s.LegalActions(ids)
			id := ids[int(b)%len(ids)]
			if err := s.ApplyChecked(id); err != nil {
				t.Fatalf("step %d: legal action %d refused: %v", i, id, err)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("step %d: the engine produced an invalid position: %v", i, err)
			}
			if err := checkPlayable(s); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
	})
}
