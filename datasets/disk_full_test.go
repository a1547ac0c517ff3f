package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A shard written onto a full disk (its temporary files lead to /dev/full, which fails every
// write with ENOSPC) fails with one error naming the disk-full write once, not one line per
// file.
func TestShardOnAFullDiskIsOneError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	for _, f := range []Format{Arrow, Parquet} {
		t.Run(string(f), func(t *testing.T) {
			dir := t.TempDir()
			steps, games := ShardFileNames(0, f)
			for _, name := range []string{steps, games} {
				require.NoError(t, os.Symlink("/dev/full", filepath.Join(dir, name+tmpSuffix)))
			}
			m := testMeta(false, false)
			w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: f})
			require.NoError(t, err)
			g, st := fakeGame(m, 0, newTestRand())
			werr := w.WriteGame(g, st)
			_, err = w.Close()
			if werr != nil {
				err = werr
			}
			require.ErrorIs(t, err, syscall.ENOSPC)
			require.NotContains(t, err.Error(), "\n")
			require.Equal(t, 1, strings.Count(err.Error(), "no space left on device"), err.Error())
		})
	}
}
