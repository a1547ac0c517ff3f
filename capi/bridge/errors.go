package bridge

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Error codes returned through the C ABI; the Python package maps each to an exception class.
const (
	OK              = 0
	CodeInvalid     = 1 // bad argument or options (ValueError)
	CodeIllegal     = 2 // illegal action (ValueError)
	CodeEpisodeOver = 3 // stepping a finished episode or before reset (RuntimeError)
	CodeUnknownBot  = 4 // no such bot (ValueError)
	CodeHandle      = 5 // unknown or closed handle, or a handle in use by another thread
	CodeBufferSmall = 6 // the caller's output buffer is too small; the needed size is returned
	CodeInternal    = 7 // a Go panic, recovered at the boundary (a bug; please report it)
)

// Sentinels of this package.
var (
	// ErrHandle is wrapped for an unknown, closed or busy handle.
	ErrHandle = errors.New("bridge: bad handle")
	// ErrInvalid is wrapped for bad arguments (buffer sizes, counts).
	ErrInvalid = errors.New("bridge: invalid argument")
	// ErrInternal is wrapped for a recovered panic.
	ErrInternal = errors.New("bridge: internal error")
	// ErrBufferSmall is wrapped when an output buffer is too small.
	ErrBufferSmall = errors.New("bridge: output buffer too small")
)

// Code classifies err for the C ABI (OK for nil).
func Code(err error) int {
	switch {
	case err == nil:
		return OK
	case errors.Is(err, ErrInternal):
		return CodeInternal
	case errors.Is(err, ErrBufferSmall):
		return CodeBufferSmall
	case errors.Is(err, ErrHandle):
		return CodeHandle
	case errors.Is(err, rules.ErrIllegalAction):
		return CodeIllegal
	case errors.Is(err, env.ErrEpisodeOver), errors.Is(err, env.ErrNotReset):
		return CodeEpisodeOver
	case errors.Is(err, bots.ErrUnknownBot):
		return CodeUnknownBot
	}
	return CodeInvalid
}

// Guard runs f and turns a panic into an error wrapping ErrInternal, so no panic crosses the
// C boundary (a panic there would kill the host process).
func Guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			stack := strings.ReplaceAll(strings.TrimSpace(string(debug.Stack())), "\n", " | ")
			if len(stack) > 600 {
				stack = stack[:600] + "..."
			}
			err = fmt.Errorf("%w: panic: %v (stack: %s)", ErrInternal, r, stack)
		}
	}()
	return f()
}

// OneLine flattens an error message to one line for the C caller.
func OneLine(err error) string {
	if err == nil {
		return ""
	}
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// errBuf is the error for a caller buffer whose length is not the expected one.
func errBuf(name string, got, want int) error {
	return fmt.Errorf("%w: %s buffer has %d entries; want %d", ErrInvalid, name, got, want)
}
