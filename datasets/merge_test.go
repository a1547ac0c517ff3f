package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Merge's gap detection at its boundaries: one shard missing at the start, at the end, on
// either side of a part boundary, a part one shard short of done, a last shard shorter than
// the others; one shard held twice; and the whole set, which merges.

// writePart writes a part directory of a 10-game plan in shards of 3 (shards 0-3, the last
// of one game) holding the given shards, with shard files of arbitrary bytes whose sizes and
// digests the manifest records (Merge checks those, not the Arrow content). part nil: a
// plain dataset.
func writePart(t *testing.T, dir string, part *Part, shards ...int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Version: ManifestVersion, Format: Arrow, Seed: 7, Games: 10, GamesPerShard: 3, Agents: []string{"a", "b", "c"},
		Meta: *testMeta(false, false), Part: part}
	for _, k := range shards {
		first, n := m.ShardRange(k)
		steps, games := ShardFileNames(k, Arrow)
		s := ShardInfo{Index: k, FirstGame: first, Games: n, Steps: int64(5 * n), StepsFile: steps, GamesFile: games}
		for _, f := range []struct {
			name  string
			size  *int64
			sum   *string
			bytes string
		}{{steps, &s.StepsBytes, &s.StepsSHA256, fmt.Sprintf("steps of shard %d", k)}, {games, &s.GamesBytes, &s.GamesSHA256, fmt.Sprintf("games of shard %d!", k)}} {
			if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.bytes), 0o644); err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256([]byte(f.bytes))
			*f.size, *f.sum = int64(len(f.bytes)), hex.EncodeToString(h[:])
		}
		m.AddShard(s)
	}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}

// mergeErr merges parts (relative to root) into root/out and returns the error text.
func mergeErr(t *testing.T, root string, parts ...string) string {
	t.Helper()
	dirs := make([]string, len(parts))
	for i, p := range parts {
		dirs[i] = filepath.Join(root, "out", p)
	}
	_, err := Merge(filepath.Join(root, "out"), dirs, MergeOptions{})
	if err == nil {
		return ""
	}
	if !errors.Is(err, ErrMerge) {
		t.Errorf("merge error %v does not wrap ErrMerge", err)
	}
	return err.Error()
}

func TestMergeRefusesOneMissingShardWhereverItIs(t *testing.T) {
	// Two parts of a 4-shard plan: part 0/2 owns shards 0-1, part 1/2 shards 2-3.
	for _, tc := range []struct {
		p0, p1 []int
		want   string
		parts  int // parts named: those owning a shard of the gap
	}{
		{[]int{1}, []int{2, 3}, "1 of 4 shards missing: games [0,3) (shard 0): part 0/2 in ", 1},
		{[]int{0}, []int{2, 3}, "1 of 4 shards missing: games [3,6) (shard 1): part 0/2 in ", 1},
		{[]int{0, 1}, []int{3}, "1 of 4 shards missing: games [6,9) (shard 2): part 1/2 in ", 1},
		{[]int{0, 1}, []int{2}, "1 of 4 shards missing: games [9,10) (shard 3): part 1/2 in ", 1},
		{[]int{0}, []int{3}, "2 of 4 shards missing: games [3,9) (shards 1-2): part 0/2 in ", 2},
		{[]int{}, []int{2, 3}, "2 of 4 shards missing: games [0,6) (shards 0-1): part 0/2 in ", 1},
		{[]int{0, 1}, []int{}, "2 of 4 shards missing: games [6,10) (shards 2-3): part 1/2 in ", 1},
	} {
		root := t.TempDir()
		writePart(t, filepath.Join(root, "out", "p0"), &Part{Index: 0, Count: 2}, tc.p0...)
		writePart(t, filepath.Join(root, "out", "p1"), &Part{Index: 1, Count: 2}, tc.p1...)
		got := mergeErr(t, root, "p0", "p1")
		if !strings.Contains(got, tc.want) || !strings.Contains(got, "is unfinished (continue it with --resume)") {
			t.Errorf("parts with shards %v and %v: %q\nwant it to contain %q", tc.p0, tc.p1, got, tc.want)
		}
		if strings.Count(got, "part ") != tc.parts {
			t.Errorf("parts with shards %v and %v: %q names %d parts, want the %d that own shards of the gap", tc.p0, tc.p1, got, strings.Count(got, "part "), tc.parts)
		}
		if _, err := os.Stat(filepath.Join(root, "out", ManifestName)); err == nil {
			t.Errorf("a refused merge wrote a manifest")
		}
	}
	// Both parts complete: merged, every shard once.
	root := t.TempDir()
	writePart(t, filepath.Join(root, "out", "p0"), &Part{Index: 0, Count: 2}, 0, 1)
	writePart(t, filepath.Join(root, "out", "p1"), &Part{Index: 1, Count: 2}, 2, 3)
	if got := mergeErr(t, root, "p0", "p1"); got != "" {
		t.Fatalf("complete parts: %s", got)
	}
	m, err := ReadManifest(filepath.Join(root, "out"))
	if err != nil || len(m.Shards) != 4 || !m.Complete() {
		t.Fatalf("merged manifest: %+v, %v", m, err)
	}
	if g, _ := m.GamesDone(); g != 10 {
		t.Errorf("merged %d games, want 10", g)
	}
}

// Plain datasets (no part) with a gap: no part is named, the gap is.
func TestMergeOfPlainDatasetsNamesAGapNoDirectoryHolds(t *testing.T) {
	root := t.TempDir()
	writePart(t, filepath.Join(root, "out", "a"), nil, 0, 1)
	writePart(t, filepath.Join(root, "out", "b"), nil, 3)
	got := mergeErr(t, root, "a", "b")
	if !strings.Contains(got, "1 of 4 shards missing: games [6,9) (shard 2): no directory named holds them") {
		t.Errorf("got %q", got)
	}
	// A part directory that names no part beside one that does: only the part is named.
	root = t.TempDir()
	writePart(t, filepath.Join(root, "out", "a"), nil, 0, 1, 2)
	writePart(t, filepath.Join(root, "out", "p1"), &Part{Index: 1, Count: 2}, 2)
	got = mergeErr(t, root, "a", "p1")
	if !strings.Contains(got, "shard 2 (games [6,9)) is in both ") {
		t.Errorf("shard 2 twice: %q", got)
	}
}

// Nine gaps list the first eight and count the rest; eight are listed whole.
func TestMergeListsAtMostEightGaps(t *testing.T) {
	write := func(dir string, have ...int) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		m := &Manifest{Version: ManifestVersion, Format: Arrow, Seed: 7, Games: 40, GamesPerShard: 2, Agents: []string{"a"}, Meta: *testMeta(false, false)}
		for _, k := range have {
			steps, games := ShardFileNames(k, Arrow)
			first, n := m.ShardRange(k)
			s := ShardInfo{Index: k, FirstGame: first, Games: n, StepsFile: steps, GamesFile: games, StepsBytes: 1, GamesBytes: 1}
			os.WriteFile(filepath.Join(dir, steps), []byte("s"), 0o644)
			os.WriteFile(filepath.Join(dir, games), []byte("g"), 0o644)
			m.AddShard(s)
		}
		if err := WriteManifest(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		gaps int
		more bool
	}{{8, false}, {9, true}} {
		root := t.TempDir()
		var have []int
		for k := 0; k < 20; k++ {
			if k%2 == 0 || k/2 >= tc.gaps { // shards 1, 3, 5, ... missing, tc.gaps of them
				have = append(have, k)
			}
		}
		write(filepath.Join(root, "out", "a"), have...)
		got := mergeErr(t, root, "a")
		if n := strings.Count(got, "no directory named holds them"); n != 8 {
			t.Errorf("%d gaps: %d listed, want 8: %q", tc.gaps, n, got)
		}
		if strings.Contains(got, "more ranges") != tc.more || tc.more && !strings.Contains(got, "and 1 more ranges") {
			t.Errorf("%d gaps: %q", tc.gaps, got)
		}
		if !strings.Contains(got, fmt.Sprintf("%d of 20 shards missing", tc.gaps)) {
			t.Errorf("%d gaps: %q", tc.gaps, got)
		}
	}
}

// Two parts of a split run whose bot-file agent was re-exported between them hold two
// networks under one name: merge refuses them.
func TestMergePlansDifferWhenTheNetworksBehindAnAgentDiffer(t *testing.T) {
	a := &Manifest{Agents: []string{"x.bot"}, AgentFiles: []AgentFile{{Agent: "x.bot", SHA256: "aa"}}}
	b := &Manifest{Agents: []string{"x.bot"}, AgentFiles: []AgentFile{{Agent: "x.bot", SHA256: "bb"}}}
	if d := planDiff(a, b); !strings.Contains(d, "agent networks") {
		t.Fatalf("planDiff = %q, want the agent networks named", d)
	}
	if d := planDiff(a, a); d != "" {
		t.Fatalf("planDiff of one plan = %q", d)
	}
}
