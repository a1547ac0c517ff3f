package training

import (
	"fmt"
	"io"
	"time"
)

// plainProgressEvery is how often plainProgress writes a line (besides the first step and
// the last).
var plainProgressEvery = 10 * time.Second

// plainProgress writes a training run's progress as plain lines, for logs and pipes: after
// the first step, then every plainProgressEvery, and at the last step: steps, samples, samples
// per second and the time left.
type plainProgress struct {
	w               io.Writer
	method          string
	from, steps     int64
	rows            int64
	start, lastLine time.Time
}

func newPlainProgress(w io.Writer, method string, from, steps, rows int64) *plainProgress {
	now := time.Now()
	return &plainProgress{w: w, method: method, from: from, steps: steps, rows: rows, start: now}
}

func (p *plainProgress) step(n int64) {
	now := time.Now()
	if n != p.from+1 && now.Sub(p.lastLine) < plainProgressEvery && n != p.steps {
		return
	}
	p.lastLine = now
	el := now.Sub(p.start).Seconds()
	rate := float64(n-p.from) * float64(p.rows) / max(el, 1e-9)
	left := "?"
	if n > p.from {
		left = (time.Duration(float64(p.steps-n) * el / float64(n-p.from) * float64(time.Second))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "%s: step %d/%d (%d%%), %d samples, %.0f samples/s, %s left\n",
		p.method, n, p.steps, n*100/max(p.steps, 1), n*p.rows, rate, left)
}
