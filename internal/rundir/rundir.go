// Package rundir owns the rule every writing command follows: a command deletes or
// overwrites only what it can prove it (or an earlier run of the same kind) wrote.
//
// A command that writes a directory (a dataset, a training run, saved games, the demo) opens
// it with Open, which
//   - creates it when it does not exist;
//   - accepts it when it is empty, when it carries this kind's marker file (.container-run)
//     or, for directories written before markers existed, when it holds this kind's own
//     proof file (Kind.Legacy);
//   - refuses any other non-empty directory with ErrNotOurs, and a directory of another
//     kind with ErrOtherKind, before anything is written;
//   - takes an exclusive lock (ErrBusy when another process holds it) for as long as the
//     Dir is open, and writes the marker.
//
// Files are removed only by name patterns the kind declares (Kind.Files, and the temporary
// names derived from them), and whole directories only by Remove, which refuses a directory
// that holds anything else. A command that writes one file (a bot file, a CSV) checks the
// path with CheckFile: an existing file is replaced only when it is recognisably the
// command's own output, or with --force.
package rundir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/container-rl/container/internal/atomicfile"
)

// MarkerName is the file that says which command owns a directory.
const MarkerName = ".container-run"

// LockName is the lock file of an open directory (an advisory flock, released when the
// process exits, even on a crash).
const LockName = ".container.lock"

const markerFormat = "container-run/1"

var (
	// ErrNotOurs: the directory is not empty and was not written by this kind of command.
	ErrNotOurs = errors.New("not empty and not written by")
	// ErrOtherKind: the directory belongs to another kind of command.
	ErrOtherKind = errors.New("was written by")
	// ErrBusy: another process has the directory open.
	ErrBusy = errors.New("another run is writing this directory")
	// ErrExists: a single-file output exists and is not recognisably ours.
	ErrExists = errors.New("exists and is not")
)

// Kind describes what one command writes into its directory.
type Kind struct {
	// Name is the marker's kind ("selfplay", "train-bc", ...).
	Name string
	// Command is the command line that writes it, for messages ("container selfplay").
	Command string
	// Files are the slash-separated glob patterns (path.Match) of every file and directory
	// the command writes, relative to the directory; a directory pattern covers only the
	// directory itself, its files need their own patterns. The temporary names derived
	// from a file pattern P are P.tmp and .P.*.tmp (atomicfile's names), in P's directory.
	Files []string
	// Legacy, if set, reports whether dir holds the output of an earlier run of this kind
	// made before marker files existed (its own file with its own magic).
	Legacy func(dir string) bool
}

// Marker is the content of the marker file.
type Marker struct {
	Format  string    `json:"format"`
	Kind    string    `json:"kind"`
	Command string    `json:"command"`
	Created time.Time `json:"created"`
}

// Dir is an open, locked directory of one kind.
type Dir struct {
	Path string
	Kind *Kind
	// Fresh is true when the directory held nothing of this kind before Open (it was
	// created, empty, or held only a stale lock file).
	Fresh   bool
	created bool
	lock    *os.File
}

// ignorable entries do not make a directory "not empty": a lock left by a run that died
// before writing its marker, and the marker of another run being written at this moment.
func ignorable(name string) bool { return name == LockName || isTemp(MarkerName, name) }

// state classifies dir for kind k: ours (marker or legacy), empty, or an error.
func state(dir string, k *Kind) (ours, empty bool, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, false, err
	}
	b, err := readRegular(filepath.Join(dir, MarkerName))
	switch {
	case err == nil:
		var m Marker
		if json.Unmarshal(b, &m) != nil || m.Format != markerFormat || m.Kind == "" {
			return false, false, fmt.Errorf("%s: %s is damaged; move it away or pick another directory", dir, MarkerName)
		}
		if m.Kind != k.Name {
			cmd := m.Command
			if cmd == "" {
				cmd = m.Kind
			}
			return false, false, fmt.Errorf("%s %w %s, not %s; pick another directory", dir, ErrOtherKind, cmd, k.Command)
		}
		return true, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return false, false, err
	}
	if k.Legacy != nil && k.Legacy(dir) {
		return true, false, nil
	}
	for _, e := range ents {
		if !ignorable(e.Name()) {
			return false, false, fmt.Errorf("%s is %w %s (it holds %s); pick another directory or empty it",
				dir, ErrNotOurs, k.Command, quoteName(e.Name()))
		}
	}
	return false, true, nil
}

func quoteName(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// Check reports, without creating, locking or writing anything, whether Open would accept
// dir for kind k (a missing directory is accepted).
func Check(dir string, k *Kind) error {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	_, _, err = state(dir, k)
	return err
}

// Open checks, creates and locks dir for kind k and writes its marker (see the package
// comment). Close releases it. A directory another process holds is refused (ErrBusy).
func Open(dir string, k *Kind) (*Dir, error) { return open(dir, k, false) }

// OpenWait is Open that waits for another process to release the directory instead of
// refusing it: for commands whose runs may share a directory (eval --save of several
// tournament shards) and hold it only while they write.
func OpenWait(dir string, k *Kind) (*Dir, error) { return open(dir, k, true) }

func open(dir string, k *Kind, wait bool) (*Dir, error) {
	if dir == "" {
		return nil, errors.New("no directory given")
	}
	created := false
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		created = true
	case err != nil:
		return nil, err
	case !st.IsDir():
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	if _, _, err := state(dir, k); err != nil {
		return nil, err // nothing written
	}
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_EX | syscall.LOCK_NB
	if wait {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w (%s)", dir, ErrBusy, k.Command)
	}
	d := &Dir{Path: dir, Kind: k, created: created, lock: f}
	// Check again under the lock: another process may have claimed the directory meanwhile.
	ours, empty, err := state(dir, k)
	if err != nil {
		d.release()
		return nil, err
	}
	d.Fresh = empty
	if !ours {
		m, _ := json.MarshalIndent(Marker{Format: markerFormat, Kind: k.Name, Command: k.Command, Created: time.Now().UTC()}, "", "  ")
		if err := atomicfile.Write(filepath.Join(dir, MarkerName), append(m, '\n')); err != nil {
			d.release()
			return nil, err
		}
	}
	return d, nil
}

func (d *Dir) release() {
	if d.lock != nil {
		_ = syscall.Flock(int(d.lock.Fd()), syscall.LOCK_UN)
		d.lock.Close()
		d.lock = nil
	}
}

// Close releases the lock. The lock file stays (removing it would race with a waiting run).
func (d *Dir) Close() { d.release() }

// Abandon undoes a fresh Open after a refused start: it removes the given files (relative
// names the command wrote), the marker and the lock file, and the directory itself when Open
// created it and it is now empty. On a directory that was not fresh it only closes.
func (d *Dir) Abandon(files ...string) {
	if !d.Fresh {
		d.Close()
		return
	}
	for _, f := range files {
		if d.Kind.owns(f) {
			os.Remove(filepath.Join(d.Path, filepath.FromSlash(f)))
		}
	}
	os.Remove(filepath.Join(d.Path, MarkerName))
	os.Remove(filepath.Join(d.Path, LockName))
	d.release()
	if d.created {
		os.Remove(d.Path) // fails, harmlessly, when anything is left
	}
}

// owns reports whether the relative slash path rel is one of the kind's names (its files,
// their temporary names, the marker and the lock).
func (k *Kind) owns(rel string) bool {
	if rel == MarkerName || rel == LockName || isTemp(MarkerName, rel) {
		return true
	}
	for _, p := range k.Files {
		if ok, _ := path.Match(p, rel); ok {
			return true
		}
		if isTemp(p, rel) {
			return true
		}
	}
	return false
}

// isTemp reports whether rel is a temporary name of pattern p: P.tmp or .P.*.tmp in P's
// directory.
func isTemp(p, rel string) bool {
	dir, base := path.Split(p)
	rdir, rbase := path.Split(rel)
	if dir != rdir {
		return false
	}
	if ok, _ := path.Match(base+".tmp", rbase); ok {
		return true
	}
	ok, _ := path.Match("."+base+".*.tmp", rbase)
	return ok
}

// IsTemp reports whether the relative slash path rel is a temporary name of one of the
// kind's files.
func (k *Kind) IsTemp(rel string) bool {
	if isTemp(MarkerName, rel) {
		return true
	}
	for _, p := range k.Files {
		if isTemp(p, rel) {
			return true
		}
	}
	return false
}

// RemoveTemps deletes the kind's temporary files left in the directory (and in the
// subdirectories its patterns name) by an interrupted run. Nothing else is touched.
func (d *Dir) RemoveTemps() error {
	return d.removeMatching(d.Kind.IsTemp)
}

// RemoveFiles deletes the regular files whose relative slash path matches one of patterns;
// each pattern must be one of the kind's own (a programming error otherwise).
func (d *Dir) RemoveFiles(patterns ...string) error {
	return d.RemoveFilesFunc(patterns, nil)
}

// RemoveFilesFunc is RemoveFiles that removes a matching file only when del (if not nil)
// approves its relative slash path.
func (d *Dir) RemoveFilesFunc(patterns []string, del func(rel string) bool) error {
	for _, p := range patterns {
		if !d.Kind.owns(p) {
			return fmt.Errorf("rundir: %s does not write %q", d.Kind.Command, p)
		}
	}
	return d.removeMatching(func(rel string) bool {
		for _, p := range patterns {
			if ok, _ := path.Match(p, rel); ok {
				return del == nil || del(rel)
			}
		}
		return false
	})
}

func (d *Dir) removeMatching(match func(rel string) bool) error {
	return walk(d.Path, func(rel string, e fs.DirEntry) error {
		if e.Type().IsRegular() && match(rel) {
			return os.Remove(filepath.Join(d.Path, filepath.FromSlash(rel)))
		}
		return nil
	})
}

// walk calls fn for every entry under dir, depth first (a directory after its contents).
func walk(dir string, fn func(rel string, e fs.DirEntry) error) error {
	var rec func(rel string) error
	rec = func(rel string) error {
		ents, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		for _, e := range ents {
			r := path.Join(rel, e.Name())
			if e.IsDir() {
				if err := rec(r); err != nil {
					return err
				}
			}
			if err := fn(r, e); err != nil {
				return err
			}
		}
		return nil
	}
	return rec("")
}

// Remove deletes dir, a directory of kind k, and everything in it, so that a new run can
// start afresh. It refuses
// (deleting nothing) a directory that is not of kind k or that holds anything k does not
// write, and one that another process has open. A missing dir is not an error.
func Remove(dir string, k *Kind) error {
	if err := Removable(dir, k); err != nil {
		return err
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	d, err := Open(dir, k) // the lock: never remove a directory another run is writing
	if err != nil {
		return err
	}
	defer d.Close()
	if err := walk(dir, func(rel string, e fs.DirEntry) error {
		return os.Remove(filepath.Join(dir, filepath.FromSlash(rel)))
	}); err != nil {
		return err
	}
	os.Remove(dir) // may fail harmlessly (a mount point): then it stays, empty
	return nil
}

// Removable reports (with Remove's error) whether Remove would delete dir, without
// deleting anything.
func Removable(dir string, k *Kind) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory written by %s; move it away", dir, k.Command)
	}
	ours, empty, err := state(dir, k)
	if err != nil {
		return err
	}
	if !ours && !empty {
		return fmt.Errorf("%s is %w %s; move it away", dir, ErrNotOurs, k.Command)
	}
	var foreign []string
	if err := walk(dir, func(rel string, e fs.DirEntry) error {
		if !k.owns(rel) || !(e.IsDir() || e.Type().IsRegular()) {
			foreign = append(foreign, rel)
		}
		return nil
	}); err != nil {
		return err
	}
	if len(foreign) > 0 {
		return fmt.Errorf("%s holds files %s did not write (%s); move them away first", dir, k.Command, quoteName(foreign[0]))
	}
	return nil
}

// CheckFile checks that a command may write the single output file p (written later with
// atomicfile.WriteOutput): "-" (standard output), a character device, a named pipe or the
// file standard output already is are written through and always accepted; a symbolic link
// is judged by the file it leads to; a missing file needs a writable directory; an existing
// regular file is replaced only when it is one the command wrote (ours reports that from the
// file's first bytes) or with force. Anything else (a directory, a socket, a block device, a
// link to nothing) is refused, force or not. what names the command's output for messages
// ("a bot file").
func CheckFile(p string, what string, ours func(head []byte) bool, force bool) error {
	if p == "-" {
		return nil
	}
	t, err := atomicfile.Resolve(p)
	if err != nil {
		return err
	}
	if t.Stream {
		return nil
	}
	dir := filepath.Dir(t.Path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: directory %s does not exist", p, dir)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s: %s is not a directory", p, dir)
	}
	if !t.Exists {
		// Writable? A temporary file under atomicfile's naming, removed at once.
		f, err := os.CreateTemp(dir, "."+filepath.Base(t.Path)+".*.tmp")
		if err != nil {
			return fmt.Errorf("%s: cannot write in %s: %w", p, dir, errors.Unwrap(err))
		}
		f.Close()
		os.Remove(f.Name())
		return nil
	}
	if force {
		return nil
	}
	if f, err := os.Open(t.Path); err == nil {
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if ours(head[:n]) {
			return nil
		}
	}
	return fmt.Errorf("%s %w %s; add --force to overwrite it or pick another name", p, ErrExists, what)
}

// HasPrefix returns an ours function for CheckFile that recognises files starting with
// prefix.
func HasPrefix(prefix string) func([]byte) bool {
	return func(head []byte) bool { return bytes.HasPrefix(head, []byte(prefix)) }
}

// FileHasPrefix reports whether the file name in dir starts with prefix (for Kind.Legacy).
func FileHasPrefix(dir, name, prefix string) bool {
	f, err := openRegular(filepath.Join(dir, name))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(prefix))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == prefix
}

// FileContains reports whether the first 4 KiB of the file name in dir contain s.
func FileContains(dir, name, s string) bool {
	f, err := openRegular(filepath.Join(dir, name))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return strings.Contains(string(head[:n]), s)
}

// openRegular opens path for reading if it is a regular file: opening a named pipe would
// wait for a writer forever, and a device need not end.
func openRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return os.Open(path)
}

// readRegular reads path if it is a regular file (see openRegular).
func readRegular(path string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
