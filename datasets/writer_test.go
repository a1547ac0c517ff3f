package datasets

import (
	"math/rand/v2"
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

// WriteGame refuses a winner seat equal to the number of seats and a legal action id equal
// to the number of actions (the first values past the end).
func TestWriteGameRefusesTheFirstSeatAndActionPastTheEnd(t *testing.T) {
	m := testMeta(false, false)
	for _, damage := range []string{"winner", "legal"} {
		w, err := NewShardWriter(t.TempDir(), 0, 0, m, WriteOptions{Format: Arrow})
		require.NoError(t, err)
		g, steps := fakeGame(m, 0, rand.New(rand.NewPCG(1, 2)))
		if damage == "winner" {
			g.Winners = []int8{int8(m.Seats)}
		} else {
			steps[0].Legal = append(steps[0].Legal, m.NumActions)
		}
		require.ErrorIs(t, w.WriteGame(g, steps), ErrInvalid, damage)
		w.Abort()
	}
}
