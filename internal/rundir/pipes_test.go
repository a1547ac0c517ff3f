package rundir

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipesDoNotBlockOpen checks that a named pipe called like the marker or like a
// kind's legacy file (manifest.json, checkpoint.ckpt) is refused at once: reading a pipe
// waits for a writer forever, and Open hung.
func TestNamedPipesDoNotBlockOpen(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind *Kind
	}{{MarkerName, Selfplay}, {"manifest.json", Selfplay}, {"checkpoint.ckpt", TrainBC}} {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, tc.name), 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- Check(dir, tc.kind) }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: a directory holding a pipe named %s was accepted", tc.kind.Name, tc.name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Check blocked on a pipe named %s", tc.kind.Name, tc.name)
		}
	}
}
