package datasets

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

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
	if _, err := dt.Read(); !errors.Is(err, ErrCorrupt) || errors.Is(err, io.EOF) {
		t.Errorf("Read: got %v, want ErrCorrupt", err)
	}
	if u, err := dt.ReadUnit(0); !errors.Is(err, ErrCorrupt) {
		if u != nil {
			u.Release()
		}
		t.Errorf("ReadUnit: got %v, want ErrCorrupt", err)
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
				if !errors.Is(err, ErrCorrupt) {
					t.Errorf("damage at %d%%: Read gave %v, want ErrCorrupt", pct, err)
				}
				break
			}
			_ = rec
		}
		require.NoError(t, tb.Close())
	}
}
