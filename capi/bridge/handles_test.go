package bridge

import "testing"

// Handles are positive and increasing: 0 is never issued and a freed handle is not reused.
func TestHandlesArePositiveAndIncreasing(t *testing.T) {
	var last int64
	for range 3 {
		h, err := NewBot("random", "", 1)
		if err != nil {
			t.Fatal(err)
		}
		if h <= last || h <= 0 {
			t.Errorf("handle %d after %d", h, last)
		}
		last = h
		if err := Free(h); err != nil {
			t.Fatal(err)
		}
	}
}
