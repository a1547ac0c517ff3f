package bridge

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// WriteString needs room for the string and its NUL: a buffer of exactly that size is
// enough, one byte less is "too small" with the size to retry with, and a string holding a
// NUL (even as its first byte) is refused.
func TestWriteStringNeedsRoomForTheNUL(t *testing.T) {
	dst := []byte("xxxx")
	need, err := WriteString("abc", dst)
	if err != nil || need != 4 || string(dst) != "abc\x00" {
		t.Errorf("abc into 4 bytes: need %d, %v, wrote %q", need, err, dst)
	}
	need, err = WriteString("abc", make([]byte, 3))
	if !errors.Is(err, ErrBufferSmall) || Code(err) != CodeBufferSmall || need != 4 {
		t.Errorf("abc into 3 bytes: need %d, %v; want 4 and a buffer-too-small error", need, err)
	}
	for _, s := range []string{"\x00abc", "a\x00"} {
		if _, err := WriteString(s, make([]byte, 8)); Code(err) != CodeInternal {
			t.Errorf("%q: %v, want an internal error", s, err)
		}
	}
}

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
