package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func newTestBar(w *bytes.Buffer, total int64, term bool, opts Options) (*Bar, *fakeClock) {
	opts.Terminal = &term
	b := New(w, total, "games", opts)
	c := &fakeClock{t: time.Unix(1000, 0)}
	b.now, b.began, b.lastLine = c.now, c.t, c.t
	return b, c
}

// Into a file or a pipe: a plain line at most every LineEvery and each tenth of the way, a
// last line at the end; no carriage returns, every line ended.
func TestBarWritesPlainLinesWhenNotATerminal(t *testing.T) {
	var out bytes.Buffer
	b, clock := newTestBar(&out, 1000, false, Options{Rate: true})
	for i := 0; i < 1000; i++ {
		clock.t = clock.t.Add(100 * time.Millisecond) // 100 s in all
		if err := b.Add(1); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if strings.Contains(text, "\r") || !strings.HasSuffix(text, "\n") {
		t.Errorf("output %q", text)
	}
	// Every 10% (here also every 10 s) and the end.
	if len(lines) != 10 {
		t.Fatalf("%d lines:\n%s", len(lines), text)
	}
	if lines[0] != "games: 100/1000 (10%), 10s, 10.0/s" {
		t.Errorf("first line %q", lines[0])
	}
	if last := lines[len(lines)-1]; last != "games: 1000/1000 (100%), 1m40s, 10.0/s" {
		t.Errorf("last line %q", last)
	}
}

// A quick run writes one line, at the end.
func TestBarQuickRunIsOneLine(t *testing.T) {
	var out bytes.Buffer
	b, clock := newTestBar(&out, 400, false, Options{})
	for i := 0; i < 400; i++ {
		clock.t = clock.t.Add(time.Millisecond)
		_ = b.Add(1)
	}
	_ = b.Finish()
	if out.String() != "games: 400/400 (100%), 0s\n" {
		t.Errorf("output %q", out.String())
	}
}

// Nothing is written before the first item: a command refused after it made its bar shows no
// bar, on a terminal or not; Close then writes nothing either.
func TestBarWritesNothingBeforeTheFirstItem(t *testing.T) {
	for _, term := range []bool{true, false} {
		var out bytes.Buffer
		b, _ := newTestBar(&out, 10, term, Options{})
		b.SetStart(0)
		_ = b.Set(0)
		b.Close()
		_ = b.Finish()
		if out.Len() != 0 {
			t.Errorf("terminal %v: wrote %q", term, out.String())
		}
	}
}

// On a terminal the finished bar's line is ended; an interrupted one too (Close), once.
func TestTerminalBarEndsItsLine(t *testing.T) {
	for _, finish := range []bool{true, false} {
		var out bytes.Buffer
		b, _ := newTestBar(&out, 10, true, Options{})
		_ = b.Add(3)
		if finish {
			_ = b.Add(7)
			_ = b.Finish()
		} else {
			b.Close()
		}
		b.Close()
		text := out.String()
		if !strings.Contains(text, "\r") || !strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\n\n") {
			t.Errorf("finish %v: %q", finish, text)
		}
	}
}

// A resumed run counts from where it was: the lines report the whole count, the rate only
// this run's items.
func TestBarResumedRunCountsFromTheStart(t *testing.T) {
	var out bytes.Buffer
	b, clock := newTestBar(&out, 100, false, Options{Rate: true})
	b.SetStart(50)
	clock.t = clock.t.Add(10 * time.Second)
	_ = b.Set(100)
	_ = b.Finish()
	if out.String() != "games: 100/100 (100%), 10s, 5.0/s\n" {
		t.Errorf("output %q", out.String())
	}
}

func TestNilBarDoesNothing(t *testing.T) {
	var b *Bar
	_ = b.Add(1)
	_ = b.Set(2)
	b.Describe("x")
	b.Clear()
	_ = b.Finish()
	b.Close()
}

func TestBufferIsNoTerminal(t *testing.T) {
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
}

// A run that stops early says where, in a log too.
func TestBarStoppedRunSaysWhere(t *testing.T) {
	var out bytes.Buffer
	b, clock := newTestBar(&out, 400, false, Options{})
	_ = b.Add(40)
	clock.t = clock.t.Add(3 * time.Second)
	b.Close()
	b.Close()
	_ = b.Finish()
	if out.String() != "games: 40/400 (10%), 3s, stopped\n" {
		t.Errorf("output %q", out.String())
	}
}
