// Package strictjson decodes JSON that people write by hand or that arrives from outside
// (positions, game records, manifests, results files, request bodies, Python options) so
// that a misspelt key never goes unnoticed. encoding/json matches object keys to struct
// fields case-insensitively and lets the last of two equal keys win; Decode refuses both:
//
//   - a key of an object decoded into a struct must be one of the struct's JSON field names,
//     spelt exactly (so "OPTIONS" and "Players" are refused, with a did-you-mean);
//   - no object may hold the same key twice;
//   - no object decoded into a struct (or into a value whose Go type is not known here: an
//     interface, a json.RawMessage, a type with its own UnmarshalJSON) may hold two keys that
//     differ only by case;
//   - exactly one JSON value, nothing after it but white space; input that ends early is
//     reported as truncated.
//
// Every refusal is one line that names the key and where it is (a path such as
// players[1].cash). The package imports only the standard library, so env/rules may use it.
package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

var (
	// ErrDuplicateKey: an object holds the same key twice, or two keys that differ only by
	// case.
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrUnknownKey: a key that is not a field of the struct decoded into (spelt exactly).
	ErrUnknownKey = errors.New("unknown key")
	// ErrTruncated: the input ends before the JSON value does.
	ErrTruncated = errors.New("truncated JSON")
	// ErrSyntax: the input is not JSON (or holds more than one value).
	ErrSyntax = errors.New("invalid JSON")
)

// MaxDepth bounds the nesting of arrays and objects (encoding/json's own bound).
const MaxDepth = 10000

// Decode decodes the single JSON value in data into v (a non-nil pointer) under the rules of
// the package comment. Errors wrap ErrDuplicateKey, ErrUnknownKey, ErrTruncated or ErrSyntax
// where they are about the JSON itself; a value of the wrong type gives encoding/json's
// error, and a type's own UnmarshalJSON its own error, unchanged.
func Decode(data []byte, v any) error {
	if err := Check(data, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		var ie *json.InvalidUnmarshalError
		if errors.As(err, &te) || errors.As(err, &ie) {
			return fmt.Errorf("strictjson: %w", err)
		}
		return err // a type's own UnmarshalJSON said what is wrong
	}
	return nil
}

// Check runs Decode's checks on data for a value like v (a pointer, or nil for no struct
// checks) without decoding it. It allocates only for the keys of objects.
func Check(data []byte, v any) error {
	if err := syntax(data); err != nil {
		return err
	}
	var t reflect.Type
	if v != nil {
		t = reflect.TypeOf(v)
	}
	c := checker{data: data}
	c.space()
	return c.value(t, "")
}

// syntax reports whether data is one JSON value (encoding/json's scanner, which also bounds
// the nesting at MaxDepth), naming input that ends early as truncated.
func syntax(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("strictjson: %w: no JSON value", ErrTruncated)
	}
	err := json.Unmarshal(data, new(struct{}))
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("strictjson: %w", ErrSyntax) // never: Valid and Unmarshal share the scanner
	}
	if strings.Contains(se.Error(), "unexpected end of JSON input") {
		return fmt.Errorf("strictjson: %w: the input ends at byte %d inside a value", ErrTruncated, len(data))
	}
	msg := strings.TrimPrefix(se.Error(), "json: ")
	if strings.Contains(msg, "after top-level value") {
		return fmt.Errorf("strictjson: %w: data after the JSON value (byte %d)", ErrSyntax, se.Offset)
	}
	return fmt.Errorf("strictjson: %w at byte %d: %s", ErrSyntax, se.Offset, msg)
}

// checker walks JSON that syntax has accepted.
type checker struct {
	data []byte
	pos  int
}

func (c *checker) space() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\r', '\n':
			c.pos++
		default:
			return
		}
	}
}

// str reads the string at pos (its opening quote) and returns its raw bytes, quotes included.
func (c *checker) str() []byte {
	start := c.pos
	c.pos++
	for c.data[c.pos] != '"' {
		if c.data[c.pos] == '\\' {
			c.pos++
		}
		c.pos++
	}
	c.pos++
	return c.data[start:c.pos]
}

// value checks the value at pos, to be decoded into type t (nil: unknown), and moves past it.
func (c *checker) value(t reflect.Type, path string) error {
	switch c.data[c.pos] {
	case '{':
		c.pos++
		return c.object(deref(t), path)
	case '[':
		c.pos++
		var elem reflect.Type
		if t = deref(t); t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		c.space()
		for i := 0; c.data[c.pos] != ']'; i++ {
			if b := c.data[c.pos]; b != '{' && b != '[' {
				c.value(nil, "") // a scalar: nothing to check, no path to build
			} else if err := c.value(elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
			c.space()
			if c.data[c.pos] == ',' {
				c.pos++
				c.space()
			}
		}
		c.pos++
	case '"':
		c.str()
	default: // number, true, false, null
		for c.pos < len(c.data) && !strings.ContainsRune(",]} \t\r\n", rune(c.data[c.pos])) {
			c.pos++
		}
	}
	return nil
}

func (c *checker) object(t reflect.Type, path string) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	isMap := false
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = structFields(t)
		case reflect.Map:
			isMap, elem = true, t.Elem()
		}
	}
	var seen map[string]bool
	var folded map[string]string
	c.space()
	for c.data[c.pos] != '}' {
		raw := c.str()
		var key string
		if err := json.Unmarshal(raw, &key); err != nil {
			return fmt.Errorf("strictjson: %w at byte %d: %v", ErrSyntax, c.pos, err)
		}
		if seen == nil {
			seen, folded = map[string]bool{}, map[string]string{}
		}
		if seen[key] {
			return fmt.Errorf("strictjson: %w %s at %s", ErrDuplicateKey, quote(key), where(path))
		}
		seen[key] = true
		if !isMap {
			f := fold(key)
			if other, ok := folded[f]; ok {
				return fmt.Errorf("strictjson: %w: %s and %s differ only by case at %s", ErrDuplicateKey, quote(other), quote(key), where(path))
			}
			folded[f] = key
		}
		vt := elem
		if fields != nil {
			ft, ok := fields[key]
			if !ok {
				hint := ""
				for name := range fields {
					if strings.EqualFold(name, key) {
						hint = fmt.Sprintf(" (did you mean %s?)", quote(name))
						break
					}
				}
				return fmt.Errorf("strictjson: %w %s at %s%s", ErrUnknownKey, quote(key), where(path), hint)
			}
			vt = ft
		}
		c.space()
		c.pos++ // ':'
		c.space()
		if err := c.value(vt, join(path, key)); err != nil {
			return err
		}
		c.space()
		if c.data[c.pos] == ',' {
			c.pos++
			c.space()
		}
	}
	c.pos++
	return nil
}

var (
	unmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// deref strips pointers and returns nil for a type whose JSON shape is not known here: an
// interface or a type that decodes itself.
func deref(t reflect.Type) reflect.Type {
	for t != nil {
		if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) ||
			t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
			return nil
		}
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
		case reflect.Interface:
			return nil
		default:
			return t
		}
	}
	return nil
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// structFields returns the JSON names of t's fields (as encoding/json sees them: tags,
// promoted fields of embedded structs, "-" skipped) and their types.
func structFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	depthOf := map[string]int{}
	var add func(t reflect.Type, depth int, visited map[reflect.Type]bool)
	add = func(t reflect.Type, depth int, visited map[reflect.Type]bool) {
		if visited[t] {
			return
		}
		visited[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					add(ft, depth+1, visited)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if d, ok := depthOf[name]; ok && d <= depth {
				continue // a shallower field of the same name wins
			}
			m[name], depthOf[name] = f.Type, depth
		}
	}
	add(t, 0, map[reflect.Type]bool{})
	fieldCache.Store(t, m)
	return m
}

// fold maps s to a form shared by every string that differs from it only by case.
func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		b.WriteRune(min)
	}
	return b.String()
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func where(path string) string {
	if path == "" {
		return "the top level"
	}
	return quoteBare(path)
}

// quote quotes a key for a message, cut to 60 bytes so a hostile key cannot flood it.
func quote(s string) string { return strconv.Quote(cut(s)) }

func quoteBare(s string) string {
	q := strconv.Quote(cut(s))
	return q[1 : len(q)-1]
}

func cut(s string) string {
	if len(s) <= 60 {
		return s
	}
	n := 57
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
