package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// mode is the type bits of what is at path (not following links).
func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Type()
}

// A named pipe is written through by WriteOutput (the reader gets the data) and stays a pipe;
// Write (a command's own directory) refuses it without waiting for a reader.
func TestNamedPipeIsWrittenThroughNeverReplaced(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.csv")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if err := WriteOutput(p, []byte("a,b\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if string(b) != "a,b\n" {
			t.Errorf("reader got %q", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the reader got nothing")
	}
	if m := mode(t, p); m != fs.ModeNamedPipe {
		t.Fatalf("the pipe became %v", m)
	}
	if err := Write(p, []byte("x")); !errors.Is(err, ErrNotWritable) {
		t.Errorf("Write into a pipe: %v, want ErrNotWritable", err)
	}
	if m := mode(t, p); m != fs.ModeNamedPipe {
		t.Fatalf("Write turned the pipe into %v", m)
	}
}

// A character device is written through and stays a device: one made with mknod when root
// (as the machine's own /dev/null would be at risk otherwise), else /dev/null itself (which
// a user who is not root could not replace anyway).
func TestCharacterDeviceIsWrittenThroughNeverReplaced(t *testing.T) {
	p := "/dev/null"
	if os.Geteuid() == 0 {
		p = filepath.Join(t.TempDir(), "null")
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
			t.Skipf("root, but mknod failed (a container without the capability): %v", err)
		}
	}
	if err := WriteOutput(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, p); m&fs.ModeCharDevice == 0 {
		t.Fatalf("%s became %v", p, m)
	}
	if err := Write(p, []byte("x")); !errors.Is(err, ErrNotWritable) {
		t.Errorf("Write onto a device: %v, want ErrNotWritable", err)
	}
	if m := mode(t, p); m&fs.ModeCharDevice == 0 {
		t.Fatalf("Write turned %s into %v", p, m)
	}
}

// A symbolic link is followed: the file it leads to gets the content, the link stays a link.
// A link to nothing is refused and left alone.
func TestSymbolicLinkIsFollowed(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.csv")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink("real.csv", link); err != nil {
		t.Fatal(err)
	}
	for _, write := range []func(string, []byte) error{Write, WriteOutput} {
		if err := write(link, []byte("new")); err != nil {
			t.Fatal(err)
		}
		if m := mode(t, link); m != fs.ModeSymlink {
			t.Fatalf("the link became %v", m)
		}
		if b, _ := os.ReadFile(target); string(b) != "new" {
			t.Fatalf("the target holds %q", b)
		}
		os.WriteFile(target, []byte("old"), 0o644)
	}
	dangling := filepath.Join(dir, "dangling.csv")
	if err := os.Symlink("missing.csv", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(dangling, []byte("x")); !errors.Is(err, ErrNotWritable) {
		t.Errorf("a link to nothing: %v, want ErrNotWritable", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing.csv")); err == nil || mode(t, dangling) != fs.ModeSymlink {
		t.Error("the link to nothing was followed or replaced")
	}
}

// A socket and a directory are never written, by either function.
func TestSocketAndDirectoryAreRefused(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	defer l.Close()
	for _, p := range []string{sock, dir} {
		for _, write := range []func(string, []byte) error{Write, WriteOutput} {
			if err := write(p, []byte("x")); !errors.Is(err, ErrNotWritable) {
				t.Errorf("%s: %v, want ErrNotWritable", p, err)
			}
		}
	}
	if m := mode(t, sock); m != fs.ModeSocket {
		t.Fatalf("the socket became %v", m)
	}
}

// The file standard output is redirected to (what /dev/stdout leads to) is written through
// standard output: the output before and after stays, in order, in the same file.
func TestFileThatIsStandardOutputIsWrittenThroughIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdout
	os.Stdout = f
	defer func() { os.Stdout = saved }()
	before, _ := os.Stat(p)
	io.WriteString(os.Stdout, "table\n")
	if err := WriteOutput(p, []byte("csv\n")); err != nil {
		t.Fatal(err)
	}
	io.WriteString(os.Stdout, "done\n")
	after, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "table\ncsv\ndone\n" || !os.SameFile(before, after) {
		t.Fatalf("file holds %q (same file: %v)", b, os.SameFile(before, after))
	}
}

// Waiting for a reader of a named pipe ends on Ctrl-C (SIGINT) with an error; nothing hangs.
func TestWaitingForAPipeReaderEndsOnInterrupt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.csv")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	keep := make(chan os.Signal, 1) // the test process itself survives the signal
	signal.Notify(keep, os.Interrupt)
	defer signal.Stop(keep)
	done := make(chan error, 1)
	go func() { done <- WriteOutput(p, []byte("x")) }()
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "interrupted while waiting") {
			t.Fatalf("error %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WriteOutput still waits for a reader after SIGINT")
	}
}
