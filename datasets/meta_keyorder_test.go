package datasets

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

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
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("keys in the order %v: read back %+v, want %+v", k, got, want)
		}
	}
}
