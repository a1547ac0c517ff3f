package datasets

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/stretchr/testify/require"
)

// writeShard writes games fake games as shard 0 of dir and returns the number of steps.
func writeShard(t *testing.T, dir string, m *Meta, o WriteOptions, games int) int {
	t.Helper()
	w, err := NewShardWriter(dir, 0, 0, m, o)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 6))
	n := 0
	for i := 0; i < games; i++ {
		g, st := fakeGame(m, uint64(i), rng)
		require.NoError(t, w.WriteGame(g, st))
		n += len(st)
	}
	_, err = w.Close()
	require.NoError(t, err)
	return n
}

func colNames(rec arrow.RecordBatch) []string {
	var out []string
	for i := 0; i < int(rec.NumCols()); i++ {
		out = append(out, rec.ColumnName(i))
	}
	return out
}

// WithColumns on a Parquet file reads exactly the named columns (nested ones whole), by Read
// and by ReadUnit.
func TestParquetWithColumnsReadsOnlyTheNamedColumns(t *testing.T) {
	dir := t.TempDir()
	m := testMeta(true, true)
	writeShard(t, dir, m, WriteOptions{Format: Parquet}, 4)
	steps, _ := ShardFileNames(0, Parquet)
	tb, err := OpenTable(filepath.Join(dir, steps), "steps", AcceptEncodings(testEncoding), WithColumns(ColAction, ColObs))
	require.NoError(t, err)
	defer tb.Close()
	rec, err := tb.Read()
	require.NoError(t, err)
	require.Equal(t, []string{ColObs, ColAction}, colNames(rec))
	unit, err := tb.ReadUnit(0)
	require.NoError(t, err)
	defer unit.Release()
	require.Equal(t, []string{ColObs, ColAction}, colNames(unit))
}

// ReadUnit of a Parquet file returns a whole row group in one batch, also one larger than
// the default batch of 8192 rows.
func TestParquetReadUnitReturnsAWholeRowGroupLargerThanTheDefaultBatch(t *testing.T) {
	dir := t.TempDir()
	m := testMeta(false, false)
	const rows = 9000
	n := writeShard(t, dir, m, WriteOptions{Format: Parquet, BatchRows: rows}, 500)
	require.Greater(t, n, rows, "the shard must hold more than one row group")
	steps, _ := ShardFileNames(0, Parquet)
	tb, err := OpenTable(filepath.Join(dir, steps), "steps", AcceptEncodings(testEncoding))
	require.NoError(t, err)
	defer tb.Close()
	require.Equal(t, (n+rows-1)/rows, tb.NumUnits())
	unit, err := tb.ReadUnit(0)
	require.NoError(t, err)
	defer unit.Release()
	require.EqualValues(t, rows, unit.NumRows())
}

// A file whose columns differ from what its metadata describes (a column renamed, or of
// another type, the count unchanged) is refused as corrupt.
func TestOpenTableRefusesColumnsThatDoNotMatchTheMetadata(t *testing.T) {
	m := testMeta(false, false)
	md := m.metadata("steps")
	read, err := metaFromSchema(md, "steps")
	require.NoError(t, err)
	good := StepsSchema(read)
	for _, change := range []string{"renamed", "retyped"} {
		fields := good.Fields()
		last := len(fields) - 1
		if change == "renamed" {
			fields[last].Name += "_x"
		} else {
			fields[last].Type = arrow.PrimitiveTypes.Float64
			if arrow.TypeEqual(good.Field(last).Type, fields[last].Type) {
				fields[last].Type = arrow.PrimitiveTypes.Int16
			}
		}
		path := filepath.Join(t.TempDir(), "steps.arrow")
		f, err := os.Create(path)
		require.NoError(t, err)
		w, err := ipc.NewFileWriter(f, ipc.WithSchema(arrow.NewSchema(fields, &md)))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.NoError(t, f.Close())
		_, err = OpenTable(path, "steps", AcceptEncodings(testEncoding))
		require.ErrorIs(t, err, ErrCorrupt, change)
		require.True(t, strings.Contains(err.Error(), "columns do not match the metadata"), "%s: %v", change, err)
	}
}
