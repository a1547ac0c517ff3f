package datasets

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The default compression is per format: zstd for Arrow, snappy for Parquet.
func TestDefaultCompressionIsZstdForArrowAndSnappyForParquet(t *testing.T) {
	for f, want := range map[Format]Compression{Arrow: "zstd", Parquet: "snappy"} {
		o, err := CheckWriteOptions(WriteOptions{Format: f})
		require.NoError(t, err)
		require.Equal(t, want, o.Compression, f)
	}
}
