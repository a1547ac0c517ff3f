package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A manifest whose rules options are written with spaces reads back with a valid checksum
// (the checksum is taken over the compacted options, the form that survives a round trip).
func TestManifestWithSpacedRulesOptionsReadsBack(t *testing.T) {
	dir := t.TempDir()
	meta := testMeta(false, false)
	meta.RulesOptions = []byte(`{ "players": 3,  "turn_limit": 50 }`)
	m := &Manifest{Version: ManifestVersion, Format: Arrow, Games: 2, GamesPerShard: 2, Meta: *meta}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(dir); err != nil {
		t.Fatalf("reading back a manifest with spaced rules options: %v", err)
	}
}

// Reading a manifest from a file given as the dataset directory, or from a manifest.json
// that is a named pipe, is a clear error at once (a pipe would block the read).
func TestReadManifestRefusesAFileForADirectoryAndAPipe(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "data.arrow")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(file); err == nil || !strings.Contains(err.Error(), "is a file, not a dataset directory") {
		t.Fatalf("a file as the directory: %v", err)
	}
	pipeDir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(pipeDir, ManifestName), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if _, err := ReadManifest(pipeDir); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a named pipe as the manifest: %v, want ErrCorrupt", err)
	}
}

// A manifest edited after it was written (here its seed) no longer matches its checksum and
// is refused with ErrCorrupt.
func TestEditedManifestFailsItsChecksum(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{Version: ManifestVersion, Format: Arrow, Seed: 7, Games: 2, GamesPerShard: 2, Meta: *testMeta(false, false)}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"seed": 7,`, `"seed": 8,`, 1)
	if edited == string(b) {
		t.Fatalf("no seed field to edit in %s", b)
	}
	if err := os.WriteFile(name, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(dir); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("edited manifest: %v, want a checksum mismatch", err)
	}
}

// Manifest keys are matched exactly and never given twice: a key in another case or a second
// "seed" is refused in one line naming it (encoding/json alone would take "Seed" for "seed",
// and the last of two keys).
func TestManifestKeysAreMatchedExactly(t *testing.T) {
	for _, c := range []struct{ name, from, to, says string }{
		{"Seed", `"seed": 7,`, `"Seed": 7,`, `unknown key "Seed" at the top level (did you mean "seed"?)`},
		{"GAMES", `"games": 2,`, `"GAMES": 2,`, `unknown key "GAMES"`},
		{"seed twice", `"seed": 7,`, `"seed": 7, "seed": 7,`, `duplicate key "seed"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m := &Manifest{Version: ManifestVersion, Format: Arrow, Seed: 7, Games: 2, GamesPerShard: 2, Meta: *testMeta(false, false)}
			if err := WriteManifest(dir, m); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, ManifestName)
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			edited := strings.Replace(string(b), c.from, c.to, 1)
			if edited == string(b) {
				t.Fatalf("no %s in %s", c.from, b)
			}
			if err := os.WriteFile(name, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = ReadManifest(dir)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v; want one line saying %s", err, c.says)
			}
		})
	}
}
