package datasets

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

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
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%v %s, rules options %q: read back\n%+v\nwant\n%+v", f, table, opts, got, want)
				}
			}
		}
	}
}
