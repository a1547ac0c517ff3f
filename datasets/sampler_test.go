package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// A sample of no rows is refused (ErrInvalid), as a negative one is.
func TestSamplerRefusesAnEmptySample(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 2, 2)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	sp, err := ds.NewSampler(rand.New(rand.NewPCG(1, 2)), 1, 1)
	require.NoError(t, err)
	defer sp.Close()
	var b Batch
	require.ErrorIs(t, sp.Sample(0, &b), ErrInvalid)
	require.ErrorIs(t, sp.Sample(-1, &b), ErrInvalid)
}

// Batches are drawn in proportion to their rows, every row with the same weight: a last
// batch of one row is drawn too (about once in as many loads as the dataset has rows).
func TestSamplerDrawsALastBatchOfOneRow(t *testing.T) {
	m := testMeta(false, false)
	_, first := fakeGame(m, 0, rand.New(rand.NewPCG(1, 2))) // writeFake's first game
	n := len(first)
	require.GreaterOrEqual(t, n, 2)
	dir := t.TempDir()
	writeFake(t, dir, m, WriteOptions{Format: Arrow, BatchRows: n - 1}, 1, 1)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	sp, err := ds.NewSampler(rand.New(rand.NewPCG(3, 4)), 1, 1)
	require.NoError(t, err)
	defer sp.Close()
	var b Batch
	last := first[n-1].Step
	for k := 0; k < 50*n; k++ {
		require.NoError(t, sp.Sample(1, &b))
		if b.Steps[0] == last {
			return
		}
	}
	require.Fail(t, fmt.Sprintf("the one-row last batch (step %d of %d) was never drawn in %d loads", last, n, 50*n))
}

// A damaged Parquet row group found when the pool is refreshed fails the Sample that reads
// it (ErrCorrupt); it is not skipped in silence.
func TestSamplerReportsADamagedRowGroupFoundOnRefresh(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Parquet, Compression: "zstd", BatchRows: 64}, 40, 40)
	steps, _ := ShardFileNames(0, Parquet)
	p := filepath.Join(dir, steps)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	at := len(b) / 2
	for i := at; i < at+16; i++ {
		b[i] ^= 0x5a
	}
	require.NoError(t, os.WriteFile(p, b, 0o644))
	// Checksums are verified at Open; this test is about the reads, so open with the damage
	// already recorded in the manifest.
	refreshManifestChecksums(t, dir)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	for seed := uint64(0); seed < 50; seed++ {
		sp, err := ds.NewSampler(rand.New(rand.NewPCG(seed, 1)), 1, 1)
		if err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			continue // the first load hit the damage; try a pool that starts elsewhere
		}
		var bt Batch
		for k := 0; k < 500; k++ {
			if err := sp.Sample(1, &bt); err != nil {
				require.ErrorIs(t, err, ErrCorrupt)
				sp.Close()
				return
			}
		}
		sp.Close()
		require.Fail(t, "500 refreshes never read the damaged row group")
	}
	require.Fail(t, "every pool started on the damaged row group")
}

// refreshManifestChecksums records the current SHA-256 of each shard's steps file in dir's
// manifest (as if the damage had been there when the shard was written).
func refreshManifestChecksums(t *testing.T, dir string) {
	t.Helper()
	man, err := ReadManifest(dir)
	require.NoError(t, err)
	for i := range man.Shards {
		b, err := os.ReadFile(filepath.Join(dir, man.Shards[i].StepsFile))
		require.NoError(t, err)
		h := sha256.Sum256(b)
		man.Shards[i].StepsSHA256 = hex.EncodeToString(h[:])
	}
	require.NoError(t, WriteManifest(dir, man))
}
