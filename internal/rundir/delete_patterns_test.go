package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Which files a command may delete in its run directory: exactly the names its patterns
// match, at the level they name. Files that resemble ours but are not (a backup, a file one
// directory down, a symbolic link or a directory under one of our names) stay, byte for byte.

// writeTree writes each name (slash-separated, relative to dir) with its own content.
func writeTree(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("content of "+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listTree returns every regular file and symbolic link under dir (slash-separated), sorted,
// leaving out the marker and the lock.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() || e.Name() == MarkerName || e.Name() == LockName {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func sameList(a, b []string) bool {
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, "|") == strings.Join(b, "|")
}

// RemoveFiles of a dataset's shard patterns deletes the shards and nothing that only looks
// like one: a backup, a name with a prefix, a shard one directory down, a directory named like
// a shard (and the user's file in it), a symbolic link named like a shard (nor its target).
func TestRemoveFilesDeletesOnlyTheShardsNotLookalikes(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, Selfplay)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ours := []string{"steps-00000.arrow", "steps-00001.arrow", "games-00000.arrow", "games-00001.arrow"}
	user := []string{
		"steps-00001.arrow.bak", "shard-0001.arrow.bak", "notes.txt", "my-steps-00001.arrow", "steps-00001.arrowx",
		"old/steps-00000.arrow", "old/games-00000.arrow", "deep/er/steps-00002.arrow",
		"steps-00009.arrow/inside.txt", // a directory under a shard's name
		"manifest.json.bak", "steps-00000.parquet.orig",
	}
	writeTree(t, dir, append(append([]string{}, ours...), user...)...)
	outside := filepath.Join(t.TempDir(), "precious.arrow")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "steps-00005.arrow")); err != nil {
		t.Fatal(err)
	}
	if err := d.RemoveFiles("steps-*.arrow", "games-*.arrow"); err != nil {
		t.Fatal(err)
	}
	want := append(append([]string{}, user...), "steps-00005.arrow")
	if got := listTree(t, dir); !sameList(got, want) {
		t.Errorf("after RemoveFiles the directory holds\n %v\nwant\n %v", got, want)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "precious" {
		t.Errorf("the target of a link named like a shard: %q, %v", b, err)
	}
	for _, n := range user {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n))); err != nil || string(b) != "content of "+n {
			t.Errorf("user file %s: %q, %v", n, b, err)
		}
	}
}

// A filter (RemoveFilesFunc) narrows what is deleted to the names it approves; a pattern the
// kind does not write is refused before anything is deleted, even beside a pattern it does.
func TestRemoveFilesFuncDeletesOnlyApprovedNamesAndRefusesForeignPatterns(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, EvalGames)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	writeTree(t, dir, "game-00000.json", "game-00001.json", "game-00002.json", "notes.txt", "games.json")
	for _, bad := range [][]string{{"*"}, {"game-*.json", "*.txt"}, {"*.json"}, {"notes.txt"}, {"game-*"}} {
		err := d.RemoveFilesFunc(bad, nil)
		if err == nil || !strings.Contains(err.Error(), "does not write") {
			t.Errorf("RemoveFiles(%q): %v, want a refusal naming the pattern", bad, err)
		}
	}
	if got := listTree(t, dir); len(got) != 5 {
		t.Fatalf("a refused RemoveFiles deleted files: %v left", got)
	}
	err = d.RemoveFilesFunc([]string{"game-*.json"}, func(rel string) bool { return rel != "game-00001.json" })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := listTree(t, dir), []string{"game-00001.json", "games.json", "notes.txt"}; !sameList(got, want) {
		t.Errorf("left %v, want %v", got, want)
	}
}

// RemoveTemps deletes the kind's temporary names (P.tmp and .P.*.tmp, in P's directory) and no
// file that merely ends in .tmp, sits one directory off, or extends a temporary name.
func TestRemoveTempsDeletesOnlyTheKindsTemporaryNames(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, Selfplay)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	temps := []string{"manifest.json.tmp", ".manifest.json.8817.tmp", ".steps-00003.arrow.12.tmp", "games-00001.parquet.tmp",
		"." + MarkerName + ".5.tmp"}
	user := []string{
		"notes.tmp", "x.tmp", "manifest.json.tmp.bak", ".manifest.json.tmp", "manifest.json.8817.tmp",
		".notes.txt.1.tmp", "sub/manifest.json.tmp", "sub/.manifest.json.1.tmp", ".manifest.json.1.tmpx",
		"steps-00003.arrow", "manifest.json",
	}
	writeTree(t, dir, append(append([]string{}, temps...), user...)...)
	if err := d.RemoveTemps(); err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, dir); !sameList(got, user) {
		t.Errorf("after RemoveTemps the directory holds\n %v\nwant\n %v", got, user)
	}
}

// Remove walks every subdirectory: a foreign file in the last of several nested directories
// stops it before anything is deleted, and without it the whole tree of the kind's own files
// goes.
func TestRemoveLooksIntoEveryNestedDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	d, err := Open(dir, TrainExIt)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	ours := []string{"checkpoint.ckpt", "run.json", "nets/gen-000001.bot", "nets/gen-000002.bot", "metrics.csv"}
	writeTree(t, dir, ours...)
	if err := os.MkdirAll(filepath.Join(dir, "buffer", "gen-000001"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The foreign file sits in the last directory the walk reaches (nets after buffer).
	writeTree(t, dir, "nets/zz-mine.txt")
	err = Remove(dir, TrainExIt)
	if err == nil || !strings.Contains(err.Error(), "nets/zz-mine.txt") {
		t.Fatalf("Remove with a foreign file in nets/: %v, want a refusal naming it", err)
	}
	if got := listTree(t, dir); len(got) != len(ours)+1 {
		t.Fatalf("a refused Remove deleted files: %v left", got)
	}
	os.Remove(filepath.Join(dir, "nets", "zz-mine.txt"))
	if err := Remove(dir, TrainExIt); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run directory is still there after Remove: %v", err)
	}
}

// A symbolic link inside a run directory, even under one of the kind's names, makes Remove
// refuse (a link's target is not ours to delete, and removing the link is not what a user
// expects of "start afresh").
func TestRemoveRefusesALinkUnderOneOfItsNames(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, EvalGames)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	target := filepath.Join(t.TempDir(), "mine.json")
	os.WriteFile(target, []byte("mine"), 0o644)
	if err := os.Symlink(target, filepath.Join(dir, "game-00000.json")); err != nil {
		t.Fatal(err)
	}
	if err := Remove(dir, EvalGames); err == nil {
		t.Fatal("Remove accepted a directory holding a symbolic link")
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "mine" {
		t.Errorf("the link's target: %q, %v", b, err)
	}
}

// A directory of another kind whose marker names no command is reported by its kind name.
func TestOtherKindWithoutACommandIsNamedByItsKind(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, MarkerName), []byte(`{"format":"`+markerFormat+`","kind":"train-bc"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Check(dir, Selfplay)
	if !errors.Is(err, ErrOtherKind) || !strings.Contains(err.Error(), "written by train-bc, not container selfplay") {
		t.Errorf("Check: %v", err)
	}
}

// A foreign file is named whole up to 60 characters, and cut with "..." beyond.
func TestForeignFileNamesAreQuotedWholeUpToSixtyCharacters(t *testing.T) {
	for _, n := range []int{59, 60, 61, 200} {
		dir := t.TempDir()
		name := strings.Repeat("a", n)
		writeTree(t, dir, name)
		err := Check(dir, Selfplay)
		if !errors.Is(err, ErrNotOurs) {
			t.Fatalf("%d: %v", n, err)
		}
		want := `"` + name + `"`
		if n > 60 {
			want = `"` + name[:57] + `..."`
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("a %d-character name: %v, want it quoted as %s", n, err, want)
		}
	}
}
