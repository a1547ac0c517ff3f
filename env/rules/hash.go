package rules

import (
	"reflect"
	"unsafe"
)

// hashRanges lists the byte ranges of State (offset, length) that hold position fields:
// every field except the game pointer, the history and Presses, padding excluded, adjacent ranges
// merged. It is computed once from the type, so a field added later is hashed too.
var hashRanges = func() [][2]uintptr {
	var out [][2]uintptr
	var walk func(t reflect.Type, off uintptr)
	walk = func(t reflect.Type, off uintptr) {
		switch t.Kind() {
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				// Presses (how many of Steps were +$100 presses) is bookkeeping for the
				// public step count; leaving it out keeps the checksums of every record
				// written before it existed valid.
				if t == reflect.TypeFor[State]() && (f.Name == "game" || f.Name == "history" || f.Name == "Presses") {
					continue
				}
				walk(f.Type, off+f.Offset)
			}
		case reflect.Array:
			for i := 0; i < t.Len(); i++ {
				walk(t.Elem(), off+uintptr(i)*t.Elem().Size())
			}
		case reflect.Bool, reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16,
			reflect.Int32, reflect.Uint32, reflect.Int64, reflect.Uint64:
			if n := len(out); n > 0 && out[n-1][0]+out[n-1][1] == off {
				out[n-1][1] += t.Size()
			} else {
				out = append(out, [2]uintptr{off, t.Size()})
			}
		default:
			panic("rules: State holds a field the hash does not know: " + t.String())
		}
	}
	walk(reflect.TypeFor[State](), 0)
	return out
}()

// Hash is a 64-bit FNV-1a-style hash, one 8-byte word at a time, of every position field
// (not the history, not padding).
func (s *State) Hash() uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	base := unsafe.Pointer(s)
	h := uint64(offset)
	for _, r := range hashRanges {
		b := unsafe.Slice((*byte)(unsafe.Add(base, r[0])), r[1])
		for len(b) >= 8 {
			h ^= uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			h *= prime
			b = b[8:]
		}
		if len(b) > 0 { // the tail (1-7 bytes) as one word, its length in the top byte
			w := uint64(len(b)) << 56
			for i, c := range b {
				w |= uint64(c) << (8 * i)
			}
			h ^= w
			h *= prime
		}
	}
	return h
}
