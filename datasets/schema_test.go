package datasets

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"
)

// A dataset written now (layout version 2) stores each step's phase as its name, dictionary
// encoded, in both formats and with every codec: the raw column is a dictionary of strings
// whose value at each row is the phase name of the step written, rows can be selected by the
// name alone, and StepColumns still gives the phase's code.
func TestPhaseColumnHoldsThePhaseNames(t *testing.T) {
	for _, o := range []WriteOptions{{Format: Arrow}, {Format: Arrow, Compression: "zstd"}, {Format: Parquet}, {Format: Parquet, Compression: "zstd"}} {
		t.Run(string(o.Format)+"-"+string(o.Compression), func(t *testing.T) {
			dir := t.TempDir()
			m := testMeta(false, false)
			o.BatchRows = 16 // several batches and row groups per file
			_, steps := writeFake(t, dir, m, o, 6, 3)
			want := map[string]int{}
			for _, ss := range steps {
				for _, s := range ss {
					want[m.PhaseNames[s.Phase]]++
				}
			}
			ds, err := Open(dir, AcceptEncodings(testEncoding))
			require.NoError(t, err)
			got, row := map[string]int{}, 0
			var flat []Step
			for _, ss := range steps {
				flat = append(flat, ss...)
			}
			for _, sh := range ds.Manifest.Shards {
				tab, err := ds.openShardTable(sh, "steps", nil)
				require.NoError(t, err)
				require.Equal(t, FormatVersion, tab.Meta.FormatVersion)
				f, ok := tab.Schema.FieldsByName(ColPhase)
				require.True(t, ok)
				require.True(t, arrow.TypeEqual(f[0].Type, PhaseType), "phase column type %s", f[0].Type)
				for {
					rec, err := tab.Read()
					if err != nil {
						break
					}
					col := rec.Column(rec.Schema().FieldIndices(ColPhase)[0]).(*array.Dictionary)
					names := col.Dictionary().(*array.String)
					for i := 0; i < col.Len(); i++ {
						name := names.Value(col.GetValueIndex(i))
						require.Equal(t, m.PhaseNames[flat[row].Phase], name, "row %d", row)
						got[name]++ // selecting by name alone: where phase = name
						row++
					}
				}
				tab.Close()
			}
			require.Equal(t, len(flat), row)
			require.Equal(t, want, got)
			_, read := readAll(t, ds)
			for i := range read {
				require.Equal(t, flat[i].Phase, read[i].Phase, "step %d", i)
			}
		})
	}
}

// Datasets written before layout version 2 (testdata/layout-v1-*: one 3-player short game
// written by the last version-1 build, Arrow/zstd and Parquet/snappy) still read: the phase
// codes index the phase names, the statistics come out, and action_text keeps its old
// spelling of SailHarbor (sail:pN).
func TestLayoutV1DatasetsStillRead(t *testing.T) {
	for _, dir := range []string{"testdata/layout-v1-arrow", "testdata/layout-v1-parquet"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			ds, err := Open(dir, AcceptEncodings("obs-v2"))
			require.NoError(t, err)
			tab, err := ds.openShardTable(ds.Manifest.Shards[0], "steps", nil)
			require.NoError(t, err)
			require.Equal(t, 1, tab.Meta.FormatVersion)
			tab.Close()
			phases := map[string]int{}
			oldSail := 0
			for c, err := range ds.StepBatches() {
				require.NoError(t, err)
				for i := 0; i < c.Len(); i++ {
					phases[ds.Meta.PhaseNames[c.Phase.Value(i)]]++
					if strings.HasPrefix(c.ActionText.Value(i), "sail:p") {
						oldSail++
					}
				}
			}
			require.Equal(t, 301, phases["turn"]+phases["place"]+phases["rearrange"]+phases["buy-factory"]+phases["buy-harbor"]+
				phases["bank-container-bid"]+phases["delivery-bid"]+phases["bank-cash-bid"]+phases["seize"]+phases["bank-pay-colour"]+
				phases["produce-colour"]+phases["load-bank"]+phases["delivery-tie"]+phases["delivery-accept"]+phases["runoff-bid"]+
				phases["return-bid"]+phases["interest-choice"])
			require.Equal(t, 107, phases["turn"])
			require.Equal(t, 4, phases["delivery-bid"])
			require.Positive(t, oldSail)
			st, err := ds.ComputeStats()
			require.NoError(t, err)
			require.Equal(t, int64(301), st.Steps)
			require.Equal(t, int64(4), sum(st.ActionsByPhase["delivery-bid"]))
		})
	}
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// A file of a layout version this build does not read is refused with one line naming it.
func TestUnknownLayoutVersionIsRefused(t *testing.T) {
	m := testMeta(false, false)
	md := m.metadata("steps")
	kv := map[string]string{}
	for i, k := range md.Keys() {
		kv[k] = md.Values()[i]
	}
	kv[KeyFormatVersion] = "3"
	_, err := metaFromSchema(arrow.MetadataFrom(kv), "steps")
	require.ErrorIs(t, err, ErrFormatVersion)
	require.Contains(t, err.Error(), `file has version "3", this reader reads 1 to 2`)
	require.NotContains(t, err.Error(), "\n")
}
