package rules

import (
	"slices"
	"testing"
)

// CopyFrom reuses the destination's history storage: a search that copies a position into a
// scratch state over and over allocates nothing once the scratch history can hold the
// source's, also when its capacity is exactly the source's history length, and the copy is
// whole (history included).
func TestCopyFromAllocatesNothingOnceTheHistoryFitsEvenExactly(t *testing.T) {
	src := playRandom(t, Options{Players: 3, Length: Short}, 2, false)
	n := len(src.History())
	if n < 2 {
		t.Fatalf("test setup: %d moves", n)
	}
	for _, c := range []int{n, n + 1, 2 * n} {
		buf := make([]Move, 0, c)
		dst := &State{}
		allocs := testing.AllocsPerRun(20, func() {
			dst.history = buf[:0] // a scratch state whose history can hold exactly c moves
			dst.CopyFrom(src)
		})
		if allocs != 0 {
			t.Errorf("history capacity %d for %d moves: %.0f allocations per copy, want 0", c, n, allocs)
		}
		if dst.Hash() != src.Hash() || !slices.Equal(dst.History(), src.History()) {
			t.Errorf("history capacity %d: the copy differs from the source", c)
		}
	}
	// Too small a history grows, and the copy is still whole.
	dst := &State{history: make([]Move, 0, n-1)}
	dst.CopyFrom(src)
	if !slices.Equal(dst.History(), src.History()) || dst.Hash() != src.Hash() {
		t.Error("copy into a too-small history differs from the source")
	}
}
