package datasets

import (
	"errors"
	"testing"
)

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
