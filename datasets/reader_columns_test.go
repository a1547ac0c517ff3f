package datasets

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// readFirstBatch writes a small Arrow shard and returns its first steps batch and Meta.
func readFirstBatch(t *testing.T) (arrow.RecordBatch, *Meta) {
	t.Helper()
	dir := t.TempDir()
	writeShard(t, dir, testMeta(true, true), WriteOptions{Format: Arrow}, 3)
	steps, _ := ShardFileNames(0, Arrow)
	tb, err := OpenTable(filepath.Join(dir, steps), "steps", AcceptEncodings(testEncoding))
	require.NoError(t, err)
	t.Cleanup(func() { tb.Close() })
	rec, err := tb.Read()
	require.NoError(t, err)
	require.GreaterOrEqual(t, rec.NumRows(), int64(4))
	return rec, tb.Meta
}

// NewStepColumns of a slice of a batch (rows lo..hi) gives exactly those rows: observations,
// returns and policies start at the slice's first row, not at the batch's.
func TestStepColumnsOfASliceAreTheSlicesRows(t *testing.T) {
	rec, m := readFirstBatch(t)
	full, err := NewStepColumns(rec, m)
	require.NoError(t, err)
	const lo, hi = 2, 4
	part := rec.NewSlice(lo, hi)
	defer part.Release()
	sl, err := NewStepColumns(part, m)
	require.NoError(t, err)
	require.Equal(t, hi-lo, sl.Len())
	for i := 0; i < hi-lo; i++ {
		var want, got Step
		full.Row(lo+i, &want)
		sl.Row(i, &got)
		require.Equal(t, want, got, "row %d of the slice", i)
	}
}

// A phase column whose dictionary lists the phases in another order than the dataset's
// phase names (as a Parquet reader may build it: only the phases present, in its own order)
// is mapped onto the phase names: each row reads back its own phase.
func TestPhaseDictionaryInAnotherOrderIsMappedOntoThePhaseNames(t *testing.T) {
	rec, m := readFirstBatch(t)
	require.Equal(t, []string{"turn", "place", "bid"}, m.PhaseNames)
	n := int(rec.NumRows())
	// Rows alternate bid and turn; the dictionary is [bid turn]: no entry in its own place.
	mem := memory.NewGoAllocator()
	db := array.NewStringBuilder(mem)
	db.AppendValues([]string{"bid", "turn"}, nil)
	dict := db.NewArray()
	defer dict.Release()
	ib := array.NewUint8Builder(mem)
	want := make([]uint8, n)
	for i := 0; i < n; i++ {
		ib.Append(uint8(i % 2))
		want[i] = uint8(2 - 2*(i%2)) // bid is 2, turn is 0
	}
	ind := ib.NewArray()
	defer ind.Release()
	phase := array.NewDictionaryArray(PhaseType, ind, dict)
	defer phase.Release()
	cols := slices.Clone(rec.Columns())
	k := rec.Schema().FieldIndices(ColPhase)
	require.Len(t, k, 1)
	cols[k[0]] = phase
	re := array.NewRecordBatch(rec.Schema(), cols, int64(n))
	defer re.Release()
	c, err := NewStepColumns(re, m)
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		require.Equal(t, want[i], c.Phase.Value(i), "row %d", i)
	}
}

// A steps batch with a column of the wrong type (here reward as int32) is refused as
// corrupt by NewStepColumns, whichever column it is, rather than resolved with a nil column.
func TestStepColumnsRefuseAColumnOfTheWrongType(t *testing.T) {
	rec, m := readFirstBatch(t)
	n := int(rec.NumRows())
	for _, name := range []string{ColReward, ColGameID, ColValue} {
		b := array.NewInt16Builder(memory.NewGoAllocator())
		for i := 0; i < n; i++ {
			b.Append(1)
		}
		bad := b.NewArray()
		cols := slices.Clone(rec.Columns())
		fields := slices.Clone(rec.Schema().Fields())
		k := rec.Schema().FieldIndices(name)
		require.Len(t, k, 1)
		cols[k[0]] = bad
		fields[k[0]].Type = arrow.PrimitiveTypes.Int16
		md := rec.Schema().Metadata()
		re := array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, int64(n))
		_, err := NewStepColumns(re, m)
		require.ErrorIs(t, err, ErrCorrupt, name)
		re.Release()
		bad.Release()
	}
}

// With a whole number of mask bytes (16 actions: 2 bytes, no padding bits) every row reads
// back its legal ids, all below the action count.
func TestRowReadsTheLegalIdsOfAMaskWithoutPaddingBits(t *testing.T) {
	m := testMeta(false, false)
	m.NumActions = 16
	m.ActionNames = nil
	dir := t.TempDir()
	w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: Arrow})
	require.NoError(t, err)
	g, steps := fakeGame(m, 0, rand.New(rand.NewPCG(8, 9)))
	require.NoError(t, w.WriteGame(g, steps))
	_, err = w.Close()
	require.NoError(t, err)
	name, _ := ShardFileNames(0, Arrow)
	tb, err := OpenTable(filepath.Join(dir, name), "steps", AcceptEncodings(testEncoding))
	require.NoError(t, err)
	defer tb.Close()
	rec, err := tb.Read()
	require.NoError(t, err)
	c, err := NewStepColumns(rec, tb.Meta)
	require.NoError(t, err)
	require.Equal(t, len(steps), c.Len())
	for i := 0; i < c.Len(); i++ {
		var s Step
		c.Row(i, &s)
		require.Equal(t, steps[i].Legal, s.Legal, "row %d", i)
	}
}

// NewGameColumns of a slice of a games batch gives exactly the slice's games: agents and
// score breakdowns start at the slice's first row, not at the batch's.
func TestGameColumnsOfASliceAreTheSlicesGames(t *testing.T) {
	dir := t.TempDir()
	m := testMeta(false, false)
	w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: Arrow})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(10, 11))
	for id := uint64(0); id < 5; id++ {
		g, steps := fakeGame(m, id, rng)
		for s := range g.Agents {
			g.Agents[s] = fmt.Sprintf("game%d-seat%d", id, s) // each game's agents differ
		}
		require.NoError(t, w.WriteGame(g, steps))
	}
	_, err = w.Close()
	require.NoError(t, err)
	_, games := ShardFileNames(0, Arrow)
	tb, err := OpenTable(filepath.Join(dir, games), "games", AcceptEncodings(testEncoding))
	require.NoError(t, err)
	defer tb.Close()
	rec, err := tb.Read()
	require.NoError(t, err)
	require.EqualValues(t, 5, rec.NumRows())
	full, err := NewGameColumns(rec, tb.Meta)
	require.NoError(t, err)
	const lo, hi = 2, 5
	part := rec.NewSlice(lo, hi)
	defer part.Release()
	sl, err := NewGameColumns(part, tb.Meta)
	require.NoError(t, err)
	require.Equal(t, hi-lo, sl.Len())
	for i := 0; i < hi-lo; i++ {
		require.Equal(t, full.Game(lo+i), sl.Game(i), "game %d of the slice", i)
	}
}
