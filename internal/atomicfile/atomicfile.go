// Package atomicfile is the one place the commands write files. A regular file is written
// so that readers see either the old content or the whole new content: a temporary file in
// the same directory, synced, then renamed over the target. What is at the path decides
// the rest (docs/FILES.md, "Output files"):
//
//   - nothing, or a regular file: replaced atomically (temporary file and rename);
//   - a symbolic link: followed; the file it leads to is written by these same rules and
//     the link stays a link (a link to nothing is refused);
//   - a character device (/dev/null, a terminal) or a named pipe: written through, never
//     replaced, and only by WriteOutput (a command's output file named by the user); Write,
//     for the files inside a command's own directories, refuses them;
//   - the file standard output or standard error already is (/dev/stdout, /dev/fd/2, or the
//     file output is redirected to): written through that stream by WriteOutput, so the
//     shell's redirection keeps everything;
//   - anything else (a directory, a socket, a block device) is refused.
//
// Nothing but a regular file (or a missing one) is ever replaced.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// ErrNotWritable is wrapped by the error for a path whose kind of file is never written.
var ErrNotWritable = errors.New("refused")

// Target is what Resolve found at a path.
type Target struct {
	// Path is the file that is written: the path itself, or where its symbolic links lead
	// when that is a regular file (the link stays, the file it leads to is replaced).
	Path string
	// Exists: Path is an existing regular file (it will be replaced).
	Exists bool
	// Stream: the path is a character device or a named pipe, written through.
	Stream bool
	// Std is standard output or standard error when the path is the file one of them is
	// (the output is written through it); nil otherwise.
	Std *os.File
}

// Resolve says what writing path would do (see the package comment), without writing.
func Resolve(path string) (Target, error) {
	lst, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Target{Path: path}, nil
	}
	if err != nil {
		return Target{}, fmt.Errorf("atomicfile: %w", err)
	}
	st := lst
	if lst.Mode()&fs.ModeSymlink != 0 {
		if st, err = os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return Target{}, fmt.Errorf("atomicfile: %w: %s is a symbolic link to a missing file", ErrNotWritable, path)
		} else if err != nil {
			return Target{}, fmt.Errorf("atomicfile: %w", err)
		}
	}
	for _, std := range []*os.File{os.Stdout, os.Stderr} {
		if std == nil {
			continue
		}
		if sst, err := std.Stat(); err == nil && os.SameFile(st, sst) {
			return Target{Path: path, Stream: true, Std: std}, nil
		}
	}
	m := st.Mode()
	switch {
	case m.IsRegular():
		t := Target{Path: path, Exists: true}
		if st != lst {
			if t.Path, err = filepath.EvalSymlinks(path); err != nil {
				return Target{}, fmt.Errorf("atomicfile: %w", err)
			}
		}
		return t, nil
	case m&fs.ModeNamedPipe != 0, m&fs.ModeCharDevice != 0:
		return Target{Path: path, Stream: true}, nil
	case m.IsDir():
		return Target{}, fmt.Errorf("atomicfile: %w: %s is a directory", ErrNotWritable, path)
	}
	return Target{}, fmt.Errorf("atomicfile: %w: %s is a %s; only regular files, character devices and named pipes are written", ErrNotWritable, path, kind(m))
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}

// Write replaces path with data atomically: the files inside a command's own directories
// (markers, manifests, checkpoints, results files). It follows symbolic links and refuses
// anything but a regular file or nothing at the path (see the package comment). The file is
// readable by everyone and writable by its owner (0644, as most tools write their output; a
// temporary file alone would be 0600). On error the temporary file is removed and the old
// file, if any, is left as it was.
func Write(path string, data []byte) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	if t.Stream {
		return fmt.Errorf("atomicfile: %w: %s is not a regular file", ErrNotWritable, path)
	}
	return replace(t.Path, data)
}

// WriteOutput writes data to path, an output file the user named (eval --csv, export
// --out): as Write, but a character device, a named pipe, and the file standard output or
// error is, are written through instead of refused (see the package comment).
func WriteOutput(path string, data []byte) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	switch {
	case t.Std != nil:
		_, err := t.Std.Write(data)
		return err
	case t.Stream:
		return writeThrough(path, data)
	}
	return replace(t.Path, data)
}

// writeThrough writes data into the device or pipe at path (a named pipe waits for a
// reader, as a shell's redirection does, and Ctrl-C stops the wait).
func writeThrough(path string, data []byte) error {
	f, err := openStream(path)
	if err != nil {
		return err
	}
	// The path may have been replaced by a regular file since Resolve: never write into
	// the middle of one.
	if st, err := f.Stat(); err != nil || st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("atomicfile: %s changed while being written; nothing written", path)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	return nil
}

// openStream opens the device or named pipe at path for writing. Opening a pipe that no
// process reads would block in the kernel where Ctrl-C cannot reach it (the commands catch
// SIGINT); it is opened without blocking instead, retried every 50 ms until a reader comes,
// and given up on SIGINT.
func openStream(path string) (*os.File, error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.ENXIO) { // ENXIO: a named pipe nobody reads yet
			return nil, fmt.Errorf("atomicfile: %w", err)
		}
		select {
		case <-sig:
			return nil, fmt.Errorf("atomicfile: interrupted while waiting for a process to read the named pipe %s; nothing written", path)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// replace writes data to a temporary file beside path and renames it over path.
func replace(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o644)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
