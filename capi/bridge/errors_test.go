package bridge

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// OneLine is "" for no error and joins a message's lines with "; ".
func TestOneLineJoinsTheMessagesLines(t *testing.T) {
	if s := OneLine(nil); s != "" {
		t.Errorf("OneLine(nil) = %q", s)
	}
	if s := OneLine(errors.New("first\nsecond\nthird")); s != "first; second; third" {
		t.Errorf("OneLine = %q", s)
	}
}

// deepPanic panics below depth further frames.
func deepPanic(depth int) error {
	if depth == 0 {
		panic("deep")
	}
	return fmt.Errorf("%w", deepPanic(depth-1))
}

// Guard keeps the stack in a recovered panic's message to its first 600 bytes and marks the
// cut with "...".
func TestGuardClipsTheStackOfAPanic(t *testing.T) {
	err := Guard(func() error { return deepPanic(40) })
	msg := err.Error()
	i := strings.Index(msg, "(stack: ")
	if Code(err) != CodeInternal || i < 0 || !strings.HasSuffix(msg, ")") {
		t.Fatalf("got %q (code %d), want an internal error with the stack", msg, Code(err))
	}
	stack := msg[i+len("(stack: ") : len(msg)-1]
	if len(stack) != 603 || !strings.HasSuffix(stack, "...") {
		t.Errorf("the stack in the message has %d bytes, want 600 and \"...\": %q", len(stack), stack)
	}
}

func TestGuardTurnsAPanicIntoAnError(t *testing.T) {
	err := Guard(func() error {
		var s []int
		_ = s[3]
		return nil
	})
	if Code(err) != CodeInternal || !strings.Contains(err.Error(), "index out of range") {
		t.Errorf("got %v (code %d)", err, Code(err))
	}
	if strings.Contains(OneLine(err), "\n") {
		t.Error("the message spans lines")
	}
}
