package datasets

import (
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
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

func int32Buf(vals ...int32) *memory.Buffer {
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return memory.NewBufferBytes(b)
}

// int32Array is an int32 array of n rows over the given value buffer (possibly too short).
func int32Array(n int, vals *memory.Buffer) arrow.Array {
	return array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Int32, n, []*memory.Buffer{nil, vals}, nil, 0, 0))
}

// validateArray refuses every malformed column a damaged file can produce before a reader
// indexes into it (too few list children, a short struct field, a short fixed-size binary
// buffer, string offsets out of order) and accepts well-formed ones,
// empty ones included.
func TestValidateArrayRefusesMalformedColumns(t *testing.T) {
	good := int32Array(2, int32Buf(1, 2))
	fsl := arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Int32)
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32})
	fsb := &arrow.FixedSizeBinaryType{ByteWidth: 4}
	str := func(offsets ...int32) arrow.Array {
		return array.MakeFromData(array.NewData(arrow.BinaryTypes.String, len(offsets)-1, []*memory.Buffer{nil, int32Buf(offsets...), memory.NewBufferBytes([]byte("hello"))}, nil, 0, 0))
	}
	for _, tc := range []struct {
		name string
		a    arrow.Array
		ok   bool
	}{
		{"int32", good, true},
		{"empty int32 without a value buffer", int32Array(0, nil), true},
		{"fixed-size list", array.MakeFromData(array.NewData(fsl, 2, []*memory.Buffer{nil}, []arrow.ArrayData{int32Array(6, int32Buf(1, 2, 3, 4, 5, 6)).Data()}, 0, 0)), true},
		{"fixed-size list with too few children", array.MakeFromData(array.NewData(fsl, 2, []*memory.Buffer{nil}, []arrow.ArrayData{int32Array(4, int32Buf(1, 2, 3, 4)).Data()}, 0, 0)), false},
		{"struct", array.MakeFromData(array.NewData(st, 2, []*memory.Buffer{nil}, []arrow.ArrayData{good.Data()}, 0, 0)), true},
		{"struct with a short field", array.MakeFromData(array.NewData(st, 3, []*memory.Buffer{nil}, []arrow.ArrayData{good.Data()}, 0, 0)), false},
		{"fixed-size binary", array.MakeFromData(array.NewData(fsb, 2, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 8))}, nil, 0, 0)), true},
		{"fixed-size binary buffer too short", array.MakeFromData(array.NewData(fsb, 3, []*memory.Buffer{nil, memory.NewBufferBytes(make([]byte, 8))}, nil, 0, 0)), false},
		{"string", str(0, 2, 5), true},
		{"string offsets out of order", str(0, 5, 2), false},
	} {
		err := guard(tc.name, func() error { return validateArray(tc.a) })
		assert.True(t, (err == nil) == tc.ok, "%s: error %v, want ok = %v", tc.name, err, tc.ok)
	}
}
