package bridge

import (
	"errors"
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
