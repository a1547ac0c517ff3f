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

// A manifest with shards 0 and 2 written lacks shard 1: HasShard says so exactly (a resumed
// run writes the shards it lacks), and AddShard fills the gap in order.
func TestManifestWithAGapReportsExactlyTheMissingShard(t *testing.T) {
	m := &Manifest{Games: 9, GamesPerShard: 3}
	m.AddShard(ShardInfo{Index: 2, Games: 3})
	m.AddShard(ShardInfo{Index: 0, Games: 3})
	for k, want := range []bool{true, false, true, false} {
		if got := m.HasShard(k); got != want {
			t.Errorf("shards 0 and 2 written: HasShard(%d) = %v, want %v", k, got, want)
		}
	}
	if m.Complete() {
		t.Fatal("a manifest with a gap is complete")
	}
	m.AddShard(ShardInfo{Index: 1, Games: 3})
	for i, s := range m.Shards {
		if s.Index != i {
			t.Fatalf("shards out of order: %+v", m.Shards)
		}
	}
	if !m.Complete() || !m.HasShard(1) {
		t.Fatal("filling the gap does not complete the manifest")
	}
	if g, _ := m.GamesDone(); g != 9 {
		t.Fatalf("%d games done, want 9", g)
	}
}

// Recording a shard again (a rewritten shard) replaces its entry instead of listing it twice.
func TestAddShardReplacesAShardRecordedAgain(t *testing.T) {
	m := &Manifest{Games: 6, GamesPerShard: 3}
	m.AddShard(ShardInfo{Index: 0, Games: 3, Steps: 10})
	m.AddShard(ShardInfo{Index: 1, Games: 3, Steps: 20})
	m.AddShard(ShardInfo{Index: 0, Games: 3, Steps: 11})
	if len(m.Shards) != 2 || m.Shards[0].Steps != 11 || m.Shards[1].Steps != 20 {
		t.Fatalf("shards %+v, want shard 0 replaced (11 steps) and shard 1 kept", m.Shards)
	}
	if g, s := m.GamesDone(); g != 6 || s != 31 {
		t.Fatalf("%d games and %d steps done, want 6 and 31", g, s)
	}
}

// Manifest.Validate accepts a plan of zero games and refuses shards of zero games (no shard
// range can be computed), a shard listed twice and a shard index one past the plan, each
// with ErrCorrupt.
func TestManifestValidateBoundaries(t *testing.T) {
	valid := func() *Manifest {
		return &Manifest{Version: ManifestVersion, Format: Arrow, Games: 4, GamesPerShard: 2, Meta: *testMeta(false, false),
			Shards: []ShardInfo{{Index: 1, FirstGame: 2, Games: 2, StepsFile: "steps-00001.arrow", GamesFile: "games-00001.arrow"}}}
	}
	if err := valid().Validate(); err != nil {
		t.Fatalf("valid manifest: %v", err)
	}
	none := valid()
	none.Games, none.Shards = 0, nil
	if err := none.Validate(); err != nil {
		t.Fatalf("a plan of zero games: %v", err)
	}
	zero := valid()
	zero.GamesPerShard = 0
	if err := zero.Validate(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("shards of zero games: %v, want ErrCorrupt", err)
	}
	dup := valid()
	dup.Shards = append(dup.Shards, dup.Shards[0])
	if err := dup.Validate(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("shard 1 listed twice: %v, want ErrCorrupt", err)
	}
	past := valid()
	past.Shards[0].Index, past.Shards[0].FirstGame, past.Shards[0].Games = 2, 4, 0
	if err := past.Validate(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("shard index 2 of a 2-shard plan: %v, want ErrCorrupt", err)
	}
}
