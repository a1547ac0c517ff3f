package datasets

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// A sampler pool holds at least one batch and replaces from 1 to all of them after each
// sample: the smallest settings (1 and 1) and a refresh of the whole pool work; 0 or a
// refresh larger than the pool is refused.
func TestSamplerAcceptsTheSmallestSettingsAndRefusesOthers(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow, BatchRows: 8}, 4, 2)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	for _, c := range [][2]int{{1, 1}, {3, 3}, {3, 1}} {
		sp, err := ds.NewSampler(rand.New(rand.NewPCG(1, 2)), c[0], c[1])
		require.NoError(t, err, "pool %d refresh %d", c[0], c[1])
		var b Batch
		require.NoError(t, sp.Sample(5, &b))
		require.Equal(t, 5, b.Size)
		require.NoError(t, sp.Sample(5, &b))
		sp.Close()
	}
	for _, c := range [][2]int{{0, 1}, {1, 0}, {2, 3}, {0, 0}} {
		_, err := ds.NewSampler(rand.New(rand.NewPCG(1, 2)), c[0], c[1])
		require.ErrorIs(t, err, ErrInvalid, "pool %d refresh %d", c[0], c[1])
	}
}
