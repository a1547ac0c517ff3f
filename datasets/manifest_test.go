package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A manifest whose rules options are written with spaces reads back with a valid checksum
// (the checksum is taken over the compacted options, the form that survives a round trip).
func TestManifestWithSpacedRulesOptionsReadsBack(t *testing.T) {
	dir := t.TempDir()
	meta := testMeta(false, false)
	meta.RulesOptions = []byte(`{ "players": 3,  "turn_limit": 50 }`)
	m := &Manifest{Version: ManifestVersion, Format: Arrow, Games: 2, GamesPerShard: 2, Meta: *meta}
	require.NoError(t, WriteManifest(dir, m))
	_, err := ReadManifest(dir)
	require.NoError(t, err, "reading back a manifest with spaced rules options: %v", err)
}

// Reading a manifest from a file given as the dataset directory, or from a manifest.json
// that is a named pipe, is a clear error at once (a pipe would block the read).
func TestReadManifestRefusesAFileForADirectoryAndAPipe(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "data.arrow")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	_, err := ReadManifest(file)
	require.False(t, err == nil || !strings.Contains(err.Error(), "is a file, not a dataset directory"), "a file as the directory: %v", err)
	pipeDir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(pipeDir, ManifestName), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	_, err = ReadManifest(pipeDir)
	require.ErrorIs(t, err, ErrCorrupt, "a named pipe as the manifest: %v, want ErrCorrupt", err)
}

// A manifest edited after it was written (here its seed) no longer matches its checksum and
// is refused with ErrCorrupt.
func TestEditedManifestFailsItsChecksum(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{Version: ManifestVersion, Format: Arrow, Seed: 7, Games: 2, GamesPerShard: 2, Meta: *testMeta(false, false)}
	require.NoError(t, WriteManifest(dir, m))
	name := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	edited := strings.Replace(string(b), `"seed": 7,`, `"seed": 8,`, 1)
	require.False(t, edited == string(b), "no seed field to edit in %s", b)
	require.NoError(t, os.WriteFile(name, []byte(edited), 0o644))
	_, err = ReadManifest(dir)
	require.False(t, !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "checksum"), "edited manifest: %v, want a checksum mismatch", err)
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
			require.NoError(t, WriteManifest(dir, m))
			name := filepath.Join(dir, ManifestName)
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			edited := strings.Replace(string(b), c.from, c.to, 1)
			require.False(t, edited == string(b), "no %s in %s", c.from, b)
			require.NoError(t, os.WriteFile(name, []byte(edited), 0o644))
			_, err = ReadManifest(dir)
			require.False(t, !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n"), "error %v; want one line saying %s", err, c.says)
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
		got := m.HasShard(k)
		assert.True(t, got == want, "shards 0 and 2 written: HasShard(%d) = %v, want %v", k, got, want)
	}
	require.False(t, m.Complete(), "a manifest with a gap is complete")
	m.AddShard(ShardInfo{Index: 1, Games: 3})
	for i, s := range m.Shards {
		require.True(t, s.Index == i, "shards out of order: %+v", m.Shards)
	}
	require.False(t, !m.Complete() || !m.HasShard(1), "filling the gap does not complete the manifest")
	g, _ := m.GamesDone()
	require.True(t, g == 9, "%d games done, want 9", g)
}

// Recording a shard again (a rewritten shard) replaces its entry instead of listing it twice.
func TestAddShardReplacesAShardRecordedAgain(t *testing.T) {
	m := &Manifest{Games: 6, GamesPerShard: 3}
	m.AddShard(ShardInfo{Index: 0, Games: 3, Steps: 10})
	m.AddShard(ShardInfo{Index: 1, Games: 3, Steps: 20})
	m.AddShard(ShardInfo{Index: 0, Games: 3, Steps: 11})
	require.False(t, len(m.Shards) != 2 || m.Shards[0].Steps != 11 || m.Shards[1].Steps != 20, "shards %+v, want shard 0 replaced (11 steps) and shard 1 kept", m.Shards)
	g, s := m.GamesDone()
	require.False(t, g != 6 || s != 31, "%d games and %d steps done, want 6 and 31", g, s)
}

// Manifest.Validate accepts a plan of zero games and refuses shards of zero games (no shard
// range can be computed), a shard listed twice and a shard index one past the plan, each
// with ErrCorrupt.
func TestManifestValidateBoundaries(t *testing.T) {
	valid := func() *Manifest {
		return &Manifest{Version: ManifestVersion, Format: Arrow, Games: 4, GamesPerShard: 2, Meta: *testMeta(false, false),
			Shards: []ShardInfo{{Index: 1, FirstGame: 2, Games: 2, StepsFile: "steps-00001.arrow", GamesFile: "games-00001.arrow"}}}
	}
	err := valid().Validate()
	require.NoError(t, err, "valid manifest: %v", err)
	none := valid()
	none.Games, none.Shards = 0, nil
	err = none.Validate()
	require.NoError(t, err, "a plan of zero games: %v", err)
	zero := valid()
	zero.GamesPerShard = 0
	err = zero.Validate()
	require.ErrorIs(t, err, ErrCorrupt, "shards of zero games: %v, want ErrCorrupt", err)
	dup := valid()
	dup.Shards = append(dup.Shards, dup.Shards[0])
	err = dup.Validate()
	require.ErrorIs(t, err, ErrCorrupt, "shard 1 listed twice: %v, want ErrCorrupt", err)
	past := valid()
	past.Shards[0].Index, past.Shards[0].FirstGame, past.Shards[0].Games = 2, 4, 0
	err = past.Validate()
	require.ErrorIs(t, err, ErrCorrupt, "shard index 2 of a 2-shard plan: %v, want ErrCorrupt", err)
}
