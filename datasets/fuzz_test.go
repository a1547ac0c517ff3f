package datasets

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFlippedBytesNeverPanic damages one shard file at many random places: reading the
// dataset must fail with an error wrapping ErrCorrupt (the manifest's SHA-256 catches every
// change before a parser sees the file), never panic.
func TestFlippedBytesNeverPanic(t *testing.T) {
	trials := 40
	if testing.Short() {
		trials = 10
	}
	for _, f := range []Format{Arrow, Parquet} {
		for _, c := range []Compression{"none", "zstd"} {
			dir := t.TempDir()
			writeFake(t, dir, testMeta(true, true), WriteOptions{Format: f, Compression: c, BatchRows: 16}, 6, 3)
			sName, gName := ShardFileNames(0, f)
			rng := rand.New(rand.NewPCG(uint64(len(f)), uint64(len(c))))
			for _, name := range []string{sName, gName} {
				path := filepath.Join(dir, name)
				orig, err := os.ReadFile(path)
				require.NoError(t, err)
				for i := 0; i < trials; i++ {
					b := append([]byte{}, orig...)
					for k := 0; k < 1+rng.IntN(4); k++ {
						b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
					}
					require.NoError(t, os.WriteFile(path, b, 0o644))
					ds, err := Open(dir, AcceptEncodings(testEncoding))
					require.NoError(t, err)
					require.NotPanics(t, func() {
						require.ErrorIs(t, readEverything(ds), ErrCorrupt)
					}, "%s %s %s trial %d", f, c, name, i)
				}
				require.NoError(t, os.WriteFile(path, orig, 0o644))
			}
		}
	}
}
