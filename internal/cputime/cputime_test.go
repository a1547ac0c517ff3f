package cputime

import (
	"runtime"
	"testing"
)

// A busy loop shows up as CPU time on unix systems; the count never goes backwards.
func TestProcessCountsBusyWork(t *testing.T) {
	before := Process()
	x := 0
	for i := range 50_000_000 {
		x += i & 3
	}
	after := Process()
	if after < before {
		t.Fatalf("CPU time went backwards: %v then %v", before, after)
	}
	if runtime.GOOS == "linux" && after == before {
		t.Fatalf("50M loop iterations (%d) used no CPU time", x)
	}
}
