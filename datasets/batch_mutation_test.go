package datasets

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBatchesOfNoRowsAreRefused: a batch size of 0 or less yields one ErrInvalid naming the
// size (no batch, no panic).
func TestBatchesOfNoRowsAreRefused(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 3, 2)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	for _, size := range []int{0, -1} {
		n := 0
		for b, err := range ds.Batches(size) {
			n++
			require.Nil(t, b)
			require.ErrorIs(t, err, ErrInvalid)
			require.ErrorContains(t, err, "batch size")
		}
		require.Equal(t, 1, n, "size %d", size)
	}
}

// TestBatchesOfASizeDividingTheStepsHaveNoEmptyTail: when the batch size divides the
// number of steps, Batches yields exactly steps/size full batches and no empty one; when it
// does not, one smaller batch ends the stream.
func TestBatchesOfASizeDividingTheStepsHaveNoEmptyTail(t *testing.T) {
	dir := t.TempDir()
	_, ss := writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 3, 2)
	steps := len(flatten(ss))
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	for _, size := range []int{1, steps, steps - 1} {
		var sizes []int
		for b, err := range ds.Batches(size) {
			require.NoError(t, err)
			sizes = append(sizes, b.Size)
		}
		want := []int{}
		for left := steps; left > 0; left -= size {
			want = append(want, min(size, left))
		}
		require.Equal(t, want, sizes, "%d steps in batches of %d", steps, size)
	}
}

// TestReplaySliceRefusesAnEmptyOrOutsideRange: Slice needs a start inside the steps and a
// positive size; the last step alone is a valid slice.
func TestReplaySliceRefusesAnEmptyOrOutsideRange(t *testing.T) {
	dir := t.TempDir()
	_, ss := writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 3, 2)
	n := len(flatten(ss))
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	rp, err := ds.Load()
	require.NoError(t, err)
	var b Batch
	for _, c := range [][2]int{{0, 0}, {0, -1}, {-1, 1}, {n, 1}} {
		require.ErrorIs(t, rp.Slice(c[0], c[1], &b), ErrInvalid, "slice [%d,+%d) of %d", c[0], c[1], n)
	}
	require.NoError(t, rp.Slice(n-1, 1, &b))
	require.Equal(t, 1, b.Size)
}
