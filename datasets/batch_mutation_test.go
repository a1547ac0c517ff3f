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
