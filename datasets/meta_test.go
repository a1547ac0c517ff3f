package datasets

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Validate refuses a feature only when it lies outside the observation width: an empty
// feature (size 0) anywhere inside the width, up to its end, is valid; one starting past the
// end, or with a negative offset or size, is not.
func TestMetaValidateRefusesOnlyFeaturesOutsideTheWidth(t *testing.T) {
	for _, c := range []struct {
		f  Feature
		ok bool
	}{
		{Feature{Name: "empty", Offset: 0, Size: 0}, true},
		{Feature{Name: "empty at the end", Offset: 11, Size: 0}, true},
		{Feature{Name: "whole", Offset: 0, Size: 11}, true},
		{Feature{Name: "past the end", Offset: 12, Size: 0}, false},
		{Feature{Name: "one too wide", Offset: 1, Size: 11}, false},
		{Feature{Name: "negative offset", Offset: -1, Size: 1}, false},
		{Feature{Name: "negative size", Offset: 2, Size: -1}, false},
	} {
		m := testMeta(true, true)
		m.Features = append(m.Features, c.f)
		err := m.Validate()
		assert.False(t, c.ok && err != nil, "%s: %v", c.f.Name, err)
		assert.False(t, !c.ok && !errors.Is(err, ErrInvalid), "%s: got %v, want ErrInvalid", c.f.Name, err)
	}
}

// Schema metadata is read by key, whatever order a writer stored the keys in (this package
// sorts them; another writer need not): each key moved to the front, or all reversed, gives
// the same Meta back.
func TestMetaIsReadWhateverTheOrderOfTheKeys(t *testing.T) {
	m := testMeta(true, true)
	md := m.metadata("steps")
	want, err := metaFromSchema(md, "steps")
	require.NoError(t, err)
	require.Equal(t, m.Reward, want.Reward)
	keys, values := md.Keys(), md.Values()
	orders := [][]int{}
	for first := range keys {
		o := []int{first}
		for i := range keys {
			if i != first {
				o = append(o, i)
			}
		}
		orders = append(orders, o)
	}
	rev := make([]int, len(keys))
	for i := range rev {
		rev[i] = len(keys) - 1 - i
	}
	orders = append(orders, rev)
	for _, o := range orders {
		var k, v []string
		for _, i := range o {
			k, v = append(k, keys[i]), append(v, values[i])
		}
		got, err := metaFromSchema(arrow.NewMetadata(k, v), "steps")
		require.NoError(t, err, "keys %v", k)
		require.True(t, reflect.DeepEqual(got, want), "keys in the order %v: read back %+v, want %+v", k, got, want)
	}
}

// Every file of a dataset carries the whole Meta in its schema: opening a steps or games file
// gives back exactly the Meta it was written with (features, action and phase names, rules
// options included), in both formats; a Meta without rules options reads back as "{}".
func TestEachFileReadsBackTheMetaItWasWrittenWith(t *testing.T) {
	for _, f := range []Format{Arrow, Parquet} {
		for _, opts := range []string{`{"players":3}`, ""} {
			dir := t.TempDir()
			m := testMeta(true, true)
			m.RulesOptions = json.RawMessage(opts)
			w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: f})
			require.NoError(t, err)
			g, st := fakeGame(m, 0, rand.New(rand.NewPCG(3, 4)))
			require.NoError(t, w.WriteGame(g, st))
			_, err = w.Close()
			require.NoError(t, err)
			want := *m
			want.FormatVersion = FormatVersion
			if opts == "" {
				want.RulesOptions = json.RawMessage("{}")
			}
			steps, games := ShardFileNames(0, f)
			for table, name := range map[string]string{"steps": steps, "games": games} {
				tb, err := OpenTable(filepath.Join(dir, name), table, AcceptEncodings(testEncoding))
				require.NoError(t, err)
				got := *tb.Meta
				require.NoError(t, tb.Close())
				assert.True(t, reflect.DeepEqual(got, want), "%v %s, rules options %q: read back\n%+v\nwant\n%+v", f, table, opts, got, want)
			}
		}
	}
}
