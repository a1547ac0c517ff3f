package datasets

import "testing"

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
