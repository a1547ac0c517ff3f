package cli

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/container-rl/container/internal/atomicfile"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readPipe makes a named pipe at p and returns what a reader gets from it.
func readPipe(t *testing.T, p string) <-chan []byte {
	t.Helper()
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
	return got
}

func received(t *testing.T, got <-chan []byte) []byte {
	t.Helper()
	select {
	case b := <-got:
		return b
	case <-time.After(30 * time.Second):
		require.Fail(t, "the reader of the pipe got nothing")
	}
	return nil
}

func typeOf(t *testing.T, p string) fs.FileMode {
	t.Helper()
	st, err := os.Lstat(p)
	require.NoError(t, err)
	return st.Mode().Type()
}

func tinyEval(csv string, force bool) evalOptions {
	o := smallEval("random,random,random")
	o.games, o.csv, o.force = 3, csv, force
	return o
}

// eval --csv with --force never replaces what is not a regular file: a named pipe is written
// through (the reader gets the CSV), a character device too, a symbolic link is followed, a
// socket is refused; "-" is standard output (the table then goes to standard error).
func TestEvalCSVWritesThroughDevicesAndPipesAndNeverReplacesThem(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()

	pipe := filepath.Join(dir, "pipe.csv")
	got := readPipe(t, pipe)
	require.NoError(t, runEval(ctx, tinyEval(pipe, true), io.Discard))
	b := received(t, got)
	assert.True(t, strings.HasPrefix(string(b), evalCSVHeader), "the pipe's reader got %q", b)
	m := typeOf(t, pipe)
	assert.True(t, m == fs.ModeNamedPipe, "--csv onto a named pipe with --force turned it into %v", m)

	if os.Geteuid() == 0 {
		dev := filepath.Join(dir, "null")
		if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
			require.NoError(t, runEval(ctx, tinyEval(dev, true), io.Discard))
			m := typeOf(t, dev)
			assert.False(t, m&fs.ModeCharDevice == 0, "--csv onto a character device with --force turned it into %v", m)
		}
	}

	real := filepath.Join(dir, "real.csv")
	require.NoError(t, os.WriteFile(real, []byte("notes"), 0o644))
	link := filepath.Join(dir, "link.csv")
	require.NoError(t, os.Symlink("real.csv", link))
	err := runEval(ctx, tinyEval(link, false), io.Discard)
	assert.ErrorIs(t, err, rundir.ErrExists, "a link to a file that is not an eval CSV, without --force: %v", err)
	require.NoError(t, runEval(ctx, tinyEval(link, true), io.Discard))
	b, _ = os.ReadFile(real)
	assert.False(t, !strings.HasPrefix(string(b), evalCSVHeader) || typeOf(t, link) != fs.ModeSymlink, "through a link: the link is %v, the file it leads to holds %.40q", typeOf(t, link), b)

	sock := filepath.Join(dir, "s.csv")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
		err := runEval(ctx, tinyEval(sock, true), io.Discard)
		assert.ErrorIs(t, err, atomicfile.ErrNotWritable, "--csv onto a socket with --force: %v", err)
		m := typeOf(t, sock)
		assert.True(t, m == fs.ModeSocket, "--csv onto a socket with --force turned it into %v", m)
	}

	var out, table bytes.Buffer
	o := tinyEval("-", false)
	o.progress = &table
	require.NoError(t, runEval(ctx, o, &out))
	assert.False(t, !strings.HasPrefix(out.String(), evalCSVHeader) || strings.Count(out.String(), "\n") != 2 || !strings.Contains(table.String(), "win rate by seat"), "--csv -: standard output %q, standard error %q", out.String(), table.String())
	_, err = os.Lstat("-")
	assert.Error(t, err, `--csv - wrote a file named "-"`)
}

// export --out onto a named pipe with --force writes the bot file through it, and --out -
// writes it to standard output (the "wrote" line to standard error).
func TestExportWritesThroughAPipeAndToStandardOutput(t *testing.T) {
	bot := filepath.Join("..", "..", "models", "default-modules-3p.bot")
	pipe := filepath.Join(t.TempDir(), "x.bot")
	got := readPipe(t, pipe)
	require.NoError(t, runExport(exportOptions{run: bot, out: pipe, force: true}, io.Discard))
	b := received(t, got)
	_, err := training.ReadBot(bytes.NewReader(b))
	assert.NoError(t, err, "the pipe's reader got no bot file (%d bytes): %v", len(b), err)
	m := typeOf(t, pipe)
	assert.True(t, m == fs.ModeNamedPipe, "export --out onto a named pipe with --force turned it into %v", m)
	var out, note bytes.Buffer
	require.NoError(t, runExport(exportOptions{run: bot, out: "-", stderr: &note}, &out))
	f, err := training.ReadBot(bytes.NewReader(out.Bytes()))
	assert.False(t, err != nil || f.Header.Name != "default-modules-3p" || !strings.HasPrefix(note.String(), "wrote -:"), "--out -: %v, name %q, note %q", err, f.Header.Name, note.String())
	_, err = os.Lstat("-")
	assert.Error(t, err, `--out - wrote a file named "-"`)
}
