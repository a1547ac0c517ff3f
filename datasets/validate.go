package datasets

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// guard runs f and turns a panic inside it (arrow-go panics on some malformed input) into an
// error wrapping ErrCorrupt that names path.
func guard(path string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %s: malformed data: %v", ErrCorrupt, path, r)
		}
	}()
	return f()
}

// validateRecord checks every column of a freshly read batch so that later accesses (Value,
// offsets into child arrays) cannot run out of bounds on damaged files.
func validateRecord(rec arrow.RecordBatch) error {
	for i, c := range rec.Columns() {
		if int64(c.Len()) != rec.NumRows() {
			return fmt.Errorf("column %q has %d rows, the batch %d", rec.ColumnName(i), c.Len(), rec.NumRows())
		}
		if err := validateArray(c); err != nil {
			return fmt.Errorf("column %q: %w", rec.ColumnName(i), err)
		}
	}
	return nil
}

func validateArray(a arrow.Array) error {
	if v, ok := a.(interface{ ValidateFull() error }); ok {
		if err := v.ValidateFull(); err != nil {
			return err
		}
	}
	need := a.Data().Offset() + a.Len()
	switch x := a.(type) {
	case *array.FixedSizeList:
		n := x.DataType().(*arrow.FixedSizeListType).Len()
		if x.ListValues().Len() < need*int(n) {
			return fmt.Errorf("%d child values for %d lists of %d", x.ListValues().Len(), need, n)
		}
		return validateArray(x.ListValues())
	case *array.List:
		return validateArray(x.ListValues())
	case *array.Struct:
		for f := 0; f < x.NumField(); f++ {
			if x.Field(f).Len() < a.Len() {
				return fmt.Errorf("struct field %d has %d values for %d rows", f, x.Field(f).Len(), a.Len())
			}
			if err := validateArray(x.Field(f)); err != nil {
				return err
			}
		}
		return nil
	case *array.FixedSizeBinary:
		w := x.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
		if b := a.Data().Buffers()[1]; b == nil || b.Len() < need*w {
			return fmt.Errorf("fixed-size binary buffer too short for %d values of %d bytes", need, w)
		}
		return nil
	case *array.String, *array.Boolean:
		return nil
	}
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok && a.Len() > 0 {
		bits := fw.BitWidth()
		if b := a.Data().Buffers()[1]; b == nil || b.Len()*8 < need*bits {
			return fmt.Errorf("value buffer too short for %d values", need)
		}
	}
	return nil
}
