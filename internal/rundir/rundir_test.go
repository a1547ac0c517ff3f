package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// userFiles writes files a user might keep in a directory and returns a check that they
// survived byte for byte.
func userFiles(t *testing.T, dir string) func() {
	t.Helper()
	files := map[string]string{"model.py": "print('mine')\n", "notes.tmp": "draft\n", "sub/data.csv": "a,b\n1,2\n"}
	for n, c := range files {
		p := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		t.Helper()
		for n, c := range files {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil || string(b) != c {
				t.Errorf("user file %s changed: %q, %v", n, b, err)
			}
		}
		for _, n := range []string{MarkerName, LockName} {
			if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
				t.Errorf("%s left in the user's directory", n)
			}
		}
	}
}

func TestOpenRefusesDirectoryOfUserFilesWritingNothing(t *testing.T) {
	dir := t.TempDir()
	same := userFiles(t, dir)
	for _, k := range []*Kind{Selfplay, TrainBC, TrainPPO, EvalGames, Demo} {
		if _, err := Open(dir, k); !errors.Is(err, ErrNotOurs) {
			t.Errorf("%s: Open = %v, want ErrNotOurs", k.Name, err)
		}
		if err := Check(dir, k); !errors.Is(err, ErrNotOurs) {
			t.Errorf("%s: Check = %v, want ErrNotOurs", k.Name, err)
		}
		if err := Remove(dir, k); err == nil {
			t.Errorf("%s: Remove of a user directory succeeded", k.Name)
		}
	}
	same()
}

func TestOpenCreatesLocksAndRecognisesItsOwnKind(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	d, err := Open(dir, TrainBC)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Fresh {
		t.Error("a new directory is not Fresh")
	}
	if _, err := Open(dir, TrainBC); !errors.Is(err, ErrBusy) {
		t.Errorf("second Open while the first holds the lock = %v, want ErrBusy", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.Close()
	d, err = Open(dir, TrainBC)
	if err != nil {
		t.Fatalf("reopening our own directory: %v", err)
	}
	if d.Fresh {
		t.Error("a reopened directory is Fresh")
	}
	d.Close()
	if _, err := Open(dir, TrainPPO); !errors.Is(err, ErrOtherKind) {
		t.Errorf("Open of a train-bc directory as train-ppo = %v, want ErrOtherKind", err)
	}
}

func TestOpenWritesTheMarkerOfEveryKind(t *testing.T) {
	for _, k := range []*Kind{Selfplay, TrainBC, TrainPPO, EvalGames, Demo} {
		dir := filepath.Join(t.TempDir(), k.Name)
		d, err := Open(dir, k)
		if err != nil {
			t.Fatal(err)
		}
		d.Close()
		if _, err := os.Stat(filepath.Join(dir, MarkerName)); err != nil {
			t.Errorf("%s: no marker after Open: %v", k.Name, err)
		}
	}
}

func TestAbandonRemovesOnlyWhatTheRefusedStartMade(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "new")
	d, err := Open(dir, Selfplay)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.Abandon("manifest.json")
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the directory Open created survives a refused start: %v", err)
	}
	// An existing empty directory stays, empty.
	d, err = Open(parent, Selfplay)
	if err != nil {
		t.Fatal(err)
	}
	d.Abandon()
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

func TestRemoveTempsAndRemoveFilesTouchOnlyOwnNames(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, TrainPPO)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	own := []string{"steps-00001.arrow.tmp", ".metrics.csv.123.tmp", "pool/.iter-000005.bot.9.tmp"}
	keep := []string{"mine.tmp", "pool/notes.tmp", "run.json", "pool/iter-000005.bot"}
	for _, n := range append(append([]string{}, own...), keep...) {
		p := filepath.Join(dir, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.RemoveTemps(); err != nil {
		t.Fatal(err)
	}
	for _, n := range keep {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s removed", n)
		}
	}
	for _, n := range own[1:] {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("temporary %s kept", n)
		}
	}
	// steps-*.tmp is selfplay's, not a training run's: kept.
	if _, err := os.Stat(filepath.Join(dir, own[0])); err != nil {
		t.Errorf("another kind's temporary name was removed")
	}
	if err := d.RemoveFiles("mine.tmp"); err == nil {
		t.Error("RemoveFiles accepted a pattern the kind does not own")
	}
}

func TestRemoveRefusesForeignFilesAndRemovesOwnDirectory(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, EvalGames)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "game-00000.json"), []byte("{}"), 0o644)
	d.Close()
	os.WriteFile(filepath.Join(dir, "README"), []byte("mine"), 0o644)
	if err := Remove(dir, EvalGames); err == nil {
		t.Fatal("Remove deleted a directory holding a foreign file")
	}
	if _, err := os.Stat(filepath.Join(dir, "game-00000.json")); err != nil {
		t.Error("a refused Remove deleted files")
	}
	os.Remove(filepath.Join(dir, "README"))
	if err := Remove(dir, EvalGames); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("directory left after Remove: %v", err)
	}
}

func TestLegacyDirectoriesAreRecognisedByTheirOwnFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "checkpoint.ckpt"), []byte(CheckpointMagic+"\x10\x00\x00\x00{\"format\":\"container-checkpoint\",\"method\":\"ppo\"}"), 0o644)
	if err := Check(dir, TrainPPO); err != nil {
		t.Errorf("legacy PPO run refused: %v", err)
	}
	if err := Check(dir, TrainBC); !errors.Is(err, ErrNotOurs) {
		t.Errorf("legacy PPO run accepted as a BC run: %v", err)
	}
	// Saved games without a marker may have been collected by hand: not proof enough for
	// eval --save, which replaces the game files of its directory.
	games := t.TempDir()
	os.WriteFile(filepath.Join(games, "game-00000.json"), []byte("{}"), 0o644)
	if err := Check(games, EvalGames); !errors.Is(err, ErrNotOurs) {
		t.Errorf("a directory of unmarked game files accepted by eval --save: %v", err)
	}
	// A foreign file of the same name (another tool's checkpoint) proves nothing.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "checkpoint.ckpt"), []byte("PK\x03\x04 torch"), 0o644)
	if err := Check(other, TrainBC); !errors.Is(err, ErrNotOurs) {
		t.Errorf("another tool's checkpoint.ckpt accepted: %v", err)
	}
}

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	ours := HasPrefix("OURS")
	if err := CheckFile(filepath.Join(dir, "nodir", "x.csv"), "ours", ours, false); err == nil {
		t.Error("missing directory accepted")
	}
	if err := CheckFile(dir, "ours", ours, false); err == nil {
		t.Error("a directory accepted as a file")
	}
	p := filepath.Join(dir, "x.csv")
	if err := CheckFile(p, "ours", ours, false); err != nil {
		t.Errorf("new file: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("CheckFile left %v", ents)
	}
	os.WriteFile(p, []byte("user data"), 0o644)
	if err := CheckFile(p, "ours", ours, false); !errors.Is(err, ErrExists) {
		t.Errorf("foreign file: %v, want ErrExists", err)
	}
	if err := CheckFile(p, "ours", ours, true); err != nil {
		t.Errorf("--force: %v", err)
	}
	os.WriteFile(p, []byte("OURS..."), 0o644)
	if err := CheckFile(p, "ours", ours, false); err != nil {
		t.Errorf("own file: %v", err)
	}
}

func TestOpenWaitWaitsForTheOtherWriter(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, EvalGames)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		d2, err := OpenWait(dir, EvalGames)
		if err == nil {
			d2.Close()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("OpenWait returned (%v) while the directory was held", err)
	case <-time.After(50 * time.Millisecond):
	}
	d.Close()
	if err := <-got; err != nil {
		t.Fatalf("OpenWait after the release: %v", err)
	}
}

// Two runs starting at once into one new directory: the second may look while the first is
// writing its marker (under atomicfile's temporary name). That is not a foreign file.
func TestAMarkerBeingWrittenIsNotAForeignFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "."+MarkerName+".12345.tmp"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Check(dir, EvalGames); err != nil {
		t.Fatalf("a marker being written refused the directory: %v", err)
	}
}

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
