package datasets

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// The check of a read batch looks inside struct columns (the score breakdown): a string
// field with damaged offsets is refused, although arrow-go's own full validation of the
// struct does not look into its fields.
func TestValidateFindsDamageInsideAStructField(t *testing.T) {
	sb := array.NewStringBuilder(memory.NewGoAllocator())
	sb.AppendValues([]string{"a", "b", "c"}, nil)
	s := sb.NewArray()
	defer s.Release()
	d := s.Data()
	off := append([]byte(nil), d.Buffers()[1].Bytes()...)
	off[4] = 3 // offsets 0, 3, 2, 3: not ascending
	bad := array.NewData(d.DataType(), 3, []*memory.Buffer{nil, memory.NewBufferBytes(off), d.Buffers()[2]}, nil, 0, 0)
	typ := arrow.StructOf(arrow.Field{Name: "s", Type: arrow.BinaryTypes.String})
	st := array.MakeFromData(array.NewData(typ, 3, []*memory.Buffer{nil}, []arrow.ArrayData{bad}, 0, 0))
	require.NoError(t, st.(interface{ ValidateFull() error }).ValidateFull(), "arrow-go does not look inside")
	require.Error(t, validateArray(st))
	good := array.MakeFromData(array.NewData(typ, 3, []*memory.Buffer{nil}, []arrow.ArrayData{d}, 0, 0))
	require.NoError(t, validateArray(good))
}
