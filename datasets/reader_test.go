package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
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

// A batch whose string offsets are damaged (not ascending) is refused as
// corrupt by Read and by ReadUnit, never handed out: the file's structure is intact, so
// only the check of every batch read finds the damage.
func TestReadAndReadUnitRefuseABatchWithDamagedOffsets(t *testing.T) {
	dir := t.TempDir()
	m := testMeta(false, false)
	writeShard(t, dir, m, WriteOptions{Format: Arrow, Compression: "none"}, 3)
	steps, _ := ShardFileNames(0, Arrow)
	tb, err := OpenTable(filepath.Join(dir, steps), "steps", AcceptEncodings(testEncoding))
	require.NoError(t, err)
	rec, err := tb.Read()
	require.NoError(t, err)
	require.GreaterOrEqual(t, rec.NumRows(), int64(3))
	cols := append([]arrow.Array(nil), rec.Columns()...)
	k := rec.Schema().FieldIndices(ColActionText)
	require.Len(t, k, 1)
	d := cols[k[0]].Data()
	off := append([]byte(nil), d.Buffers()[1].Bytes()...)
	last := binary.LittleEndian.Uint32(off[4*(d.Offset()+d.Len()):])
	second := binary.LittleEndian.Uint32(off[4*(d.Offset()+2):])
	require.Less(t, second, last, "the rows after the second need some text")
	binary.LittleEndian.PutUint32(off[4*(d.Offset()+1):], last) // inside the data, but not ascending
	bad := array.NewData(d.DataType(), d.Len(), []*memory.Buffer{d.Buffers()[0], memory.NewBufferBytes(off), d.Buffers()[2]}, nil, d.NullN(), d.Offset())
	cols[k[0]] = array.MakeFromData(bad)
	damaged := array.NewRecordBatch(rec.Schema(), cols, rec.NumRows())
	path := filepath.Join(t.TempDir(), "steps.arrow")
	f, err := os.Create(path)
	require.NoError(t, err)
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()))
	require.NoError(t, err)
	require.NoError(t, w.Write(damaged))
	require.NoError(t, w.Close())
	require.NoError(t, f.Close())
	require.NoError(t, tb.Close())

	dt, err := OpenTable(path, "steps", AcceptEncodings(testEncoding))
	require.NoError(t, err, "the file's structure is intact")
	defer dt.Close()
	_, err = dt.Read()
	assert.False(t, !errors.Is(err, ErrCorrupt) || errors.Is(err, io.EOF), "Read: got %v, want ErrCorrupt", err)
	if u, err := dt.ReadUnit(0); !errors.Is(err, ErrCorrupt) {
		if u != nil {
			u.Release()
		}
		assert.Fail(t, fmt.Sprintf("ReadUnit: got %v, want ErrCorrupt", err))
	}
}

// ReadUnit's index runs from 0 to NumUnits()-1; NumUnits() itself is a caller's error
// (ErrInvalid), not a damaged file.
func TestReadUnitPastTheLastIsInvalidNotCorrupt(t *testing.T) {
	for _, f := range []Format{Arrow, Parquet} {
		dir := t.TempDir()
		writeShard(t, dir, testMeta(false, false), WriteOptions{Format: f}, 2)
		steps, _ := ShardFileNames(0, f)
		tb, err := OpenTable(filepath.Join(dir, steps), "steps", AcceptEncodings(testEncoding))
		require.NoError(t, err)
		_, err = tb.ReadUnit(tb.NumUnits())
		require.ErrorIs(t, err, ErrInvalid, f)
		require.NotErrorIs(t, err, ErrCorrupt, f)
		require.NoError(t, tb.Close())
	}
}

// A Parquet file with a damaged data page (its footer intact) is refused as corrupt when the
// page is read: Read reports the damage, never a clean end of the data.
func TestReadOfADamagedParquetPageIsCorruptNotTheEnd(t *testing.T) {
	for _, pct := range []int{20, 30, 40, 50, 60} {
		dir := t.TempDir()
		writeShard(t, dir, testMeta(false, false), WriteOptions{Format: Parquet, Compression: "zstd"}, 50)
		steps, _ := ShardFileNames(0, Parquet)
		p := filepath.Join(dir, steps)
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		at := len(b) * pct / 100
		for i := at; i < at+16; i++ {
			b[i] ^= 0x5a
		}
		require.NoError(t, os.WriteFile(p, b, 0o644))
		tb, err := OpenTable(p, "steps", AcceptEncodings(testEncoding))
		require.NoError(t, err, "damage at %d%%: the footer is intact", pct)
		for {
			rec, err := tb.Read()
			if err != nil {
				assert.ErrorIs(t, err, ErrCorrupt, "damage at %d%%: Read gave %v, want ErrCorrupt", pct, err)
				break
			}
			_ = rec
		}
		require.NoError(t, tb.Close())
	}
}
