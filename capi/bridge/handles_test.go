package bridge

import (
	"testing"
)

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

func TestHandlesAreCheckedAndFreedOnce(t *testing.T) {
	before := Open()
	h, _ := newTestEnv(t, "")
	if err := Free(h); err != nil {
		t.Fatal(err)
	}
	if err := Free(h); Code(err) != CodeHandle {
		t.Errorf("double free: %v", err)
	}
	if err := EnvStep(h, 0); Code(err) != CodeHandle {
		t.Errorf("step on a freed env: %v", err)
	}
	bh, err := NewBot("random", "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := EnvStep(bh, 0); Code(err) != CodeHandle {
		t.Errorf("a bot handle used as an env: %v", err)
	}
	_ = Free(bh)
	if Open() != before {
		t.Errorf("%d handles open, want %d", Open(), before)
	}
}
