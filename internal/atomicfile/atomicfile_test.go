package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesContentAndLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, content := range []string{"first", "second, longer"} {
		if err := Write(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the file", len(entries))
	}
}

func TestWriteIntoMissingDirectoryFails(t *testing.T) {
	if err := Write(filepath.Join(t.TempDir(), "no", "such", "f"), []byte("x")); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
}

func TestWrittenFileIsReadableByOthers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.bot")
	if err := Write(path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o644 {
		t.Fatalf("permissions %v, want -rw-r--r--", fi.Mode().Perm())
	}
}
