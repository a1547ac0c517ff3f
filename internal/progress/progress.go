// Package progress reports how far a long command has got: a count of items done out of a
// total (games played, training steps). On a terminal it draws a progress bar redrawn in
// place; anywhere else (a log file, a pipe) it writes a plain line now and then, so a
// redirected log holds a few readable lines instead of hundreds of redrawn frames. Whatever
// the writer, nothing is written before the first item is done (a command that fails its
// checks shows no bar), and the output always ends with a newline.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Options adjust a Bar; the zero value is a plain count.
type Options struct {
	// Rate shows items per second.
	Rate bool
	// Clear removes the bar from a terminal when it finishes (the lines that follow take its
	// place); otherwise the finished bar stays on its line.
	Clear bool
	// Terminal, when set, says whether the writer is a terminal instead of asking it (tests).
	Terminal *bool
}

// LineEvery is the least time between two plain lines (one more is written at the end).
const LineEvery = 10 * time.Second

// Bar reports progress on one writer. Its methods are safe for concurrent use; a nil *Bar does
// nothing.
type Bar struct {
	mu       sync.Mutex
	w        io.Writer
	desc     string
	total    int64
	n, start int64
	opts     Options
	term     bool                     // w is a terminal: draw a bar
	pb       *progressbar.ProgressBar // the terminal's bar, made at the first count
	ended    bool                     // Finish or Close ended the output
	began    time.Time
	lastLine time.Time
	lastStep int64 // the tenth of the total the last plain line reported
	now      func() time.Time
}

// IsTerminal reports whether w is a terminal (a character device that is not /dev/null).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

// New returns a Bar for total items described by desc ("games"), writing to w. Nothing is
// written until the first item is done.
func New(w io.Writer, total int64, desc string, opts Options) *Bar {
	b := &Bar{w: w, desc: desc, total: max(total, 0), opts: opts, now: time.Now}
	term := IsTerminal(w)
	if opts.Terminal != nil {
		term = *opts.Terminal
	}
	b.term = term
	b.began, b.lastLine = b.now(), b.now()
	return b
}

// newTerminalBar makes the terminal's bar.
func (b *Bar) newTerminalBar() *progressbar.ProgressBar {
	o := []progressbar.Option{progressbar.OptionSetWriter(b.w), progressbar.OptionSetDescription(b.desc),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(250 * time.Millisecond)}
	if b.opts.Rate {
		o = append(o, progressbar.OptionShowIts())
	}
	if b.opts.Clear {
		o = append(o, progressbar.OptionClearOnFinish())
	}
	return progressbar.NewOptions64(b.total, o...)
}

// SetStart sets the count already done when the bar starts (a resumed run) without writing.
func (b *Bar) SetStart(n int64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n, b.start = n, n
	b.lastStep = b.step(n)
}

// Describe changes the description shown with the count.
func (b *Bar) Describe(desc string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.desc = desc
	if b.pb != nil {
		b.pb.Describe(desc)
	}
}

// Add counts n more items done.
func (b *Bar) Add(n int) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.set(b.n + int64(n))
}

// Set sets the count of items done.
func (b *Bar) Set(n int) error { return b.Set64(int64(n)) }

// Set64 sets the count of items done.
func (b *Bar) Set64(n int64) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.set(n)
}

func (b *Bar) set(n int64) error {
	if b.ended || n == b.n {
		return nil
	}
	b.n = n
	if b.term {
		if b.pb == nil {
			b.pb = b.newTerminalBar()
		}
		return b.pb.Set64(n)
	}
	now := b.now()
	if s := b.step(n); s > b.lastStep && now.Sub(b.lastLine) >= LineEvery && n < b.total {
		b.lastStep, b.lastLine = s, now
		return b.line(now, "")
	}
	return nil
}

// step is the tenth of the total that n has reached.
func (b *Bar) step(n int64) int64 {
	if b.total == 0 {
		return 0
	}
	return 10 * n / b.total
}

// line writes one plain line: "games: 120/400 (30%), 12s, 9.8/s" and a suffix.
func (b *Bar) line(now time.Time, suffix string) error {
	text := fmt.Sprintf("%s: %d/%d", b.desc, b.n, b.total)
	if b.total > 0 {
		text += fmt.Sprintf(" (%d%%)", 100*b.n/b.total)
	}
	el := now.Sub(b.began)
	text += ", " + el.Round(time.Second).String()
	if b.opts.Rate && el > 0 {
		text += fmt.Sprintf(", %.1f/s", float64(b.n-b.start)/el.Seconds())
	}
	_, err := fmt.Fprintf(b.w, "%s%s\n", text, suffix)
	return err
}

// Clear takes the bar off a terminal's line so that a line of text can be written there (the
// bar comes back with the next count); elsewhere it does nothing.
func (b *Bar) Clear() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pb != nil && !b.ended {
		_ = b.pb.Clear()
	}
}

// Finish ends a run that did all its items: a terminal's bar is drawn full (or cleared with
// Options.Clear) and its line ended; elsewhere one last line says how long it took.
func (b *Bar) Finish() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return nil
	}
	b.ended = true
	if b.term {
		if b.pb == nil {
			return nil // nothing was drawn
		}
		if err := b.pb.Finish(); err != nil {
			return err
		}
		if b.opts.Clear {
			return nil
		}
		_, err := io.WriteString(b.w, "\n")
		return err
	}
	if b.n == b.start {
		return nil // nothing was done here: nothing to report
	}
	return b.line(b.now(), "")
}

// Close ends the output of a run that stops early (an error, Ctrl-C) so that what follows
// starts on a line of its own: a terminal's bar stays on its line, elsewhere a last line says
// where the run stopped ("games: 40/400 (10%), 3s, stopped"). After Finish it does nothing.
func (b *Bar) Close() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return
	}
	b.ended = true
	switch {
	case b.pb != nil:
		_, _ = io.WriteString(b.w, "\n")
	case !b.term && b.n != b.start:
		_ = b.line(b.now(), ", stopped")
	}
}
