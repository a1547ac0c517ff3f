package training

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportRunThatIsAFile checks that a file given as the run directory is named as such
// (the message was "open FILE/checkpoint.ckpt: not a directory").
func TestExportRunThatIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ExportRun(file, "x", "")
	if err == nil || !strings.Contains(err.Error(), "notes.txt is a file, not a run directory") {
		t.Fatalf("ExportRun(file) = %v", err)
	}
}
