package strictjson

import (
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type inner struct {
	Cash int `json:"cash"`
}

type Embedded struct {
	Note string `json:"note"`
}

type doc struct {
	Embedded
	Format   string          `json:"format"`
	Players  []inner         `json:"players"`
	Lots     map[string]int  `json:"lots"`
	Raw      json.RawMessage `json:"raw"`
	Any      any             `json:"any"`
	Ptr      *inner          `json:"ptr,omitempty"`
	Skipped  int             `json:"-"`
	Untagged int
	Extra    map[string]inner `json:"extra"`
}

func TestDecodeAcceptsExactKeys(t *testing.T) {
	in := `{"format":"f","note":"n","players":[{"cash":3}],"lots":{"$3":1,"$4":2},"raw":{"x":1},
		"any":{"a":[1,{"b":2}]},"ptr":{"cash":7},"Untagged":5,"extra":{"k":{"cash":1}}}`
	var d doc
	if err := Decode([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	if d.Format != "f" || d.Note != "n" || d.Players[0].Cash != 3 || d.Lots["$4"] != 2 || d.Ptr.Cash != 7 || d.Untagged != 5 || d.Extra["k"].Cash != 1 {
		t.Fatalf("decoded %+v", d)
	}
}

// Each bad input is refused with one line naming the key (and where it is).
func TestDecodeRefusesMisspeltAndDuplicateKeys(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     error
		says     []string
	}{
		{"upper-case key", `{"FORMAT":"f"}`, ErrUnknownKey, []string{`"FORMAT"`, `did you mean "format"?`}},
		{"capitalised key", `{"Players":[]}`, ErrUnknownKey, []string{`"Players"`, `did you mean "players"?`}},
		{"nested capitalised key", `{"players":[{"cash":1},{"Cash":2}]}`, ErrUnknownKey, []string{`"Cash"`, "players[1]"}},
		{"unknown key", `{"colour":1}`, ErrUnknownKey, []string{`"colour"`, "top level"}},
		{"key of an embedded struct, wrong case", `{"Note":"x"}`, ErrUnknownKey, []string{`"Note"`}},
		{"skipped field", `{"Skipped":1}`, ErrUnknownKey, []string{`"Skipped"`}},
		{"duplicate key", `{"format":"a","format":"b"}`, ErrDuplicateKey, []string{`"format"`}},
		{"duplicate nested key", `{"players":[{"cash":1,"cash":2}]}`, ErrDuplicateKey, []string{`"cash"`, "players[0]"}},
		{"duplicate map key", `{"lots":{"$3":1,"$3":2}}`, ErrDuplicateKey, []string{`"$3"`, "lots"}},
		{"duplicate key in raw JSON", `{"raw":{"a":1,"a":2}}`, ErrDuplicateKey, []string{`"a"`, "raw"}},
		{"keys differing by case in an interface", `{"any":{"k":1,"K":2}}`, ErrDuplicateKey, []string{`"k"`, `"K"`, "differ only by case"}},
		{"truncated", `{"format":"f","players":[{"cash":`, ErrTruncated, []string{"truncated JSON"}},
		{"truncated in a string", `{"format":"contai`, ErrTruncated, []string{"truncated JSON"}},
		{"empty", ``, ErrTruncated, []string{"no JSON value"}},
		{"two values", `{} {}`, ErrSyntax, []string{"after the JSON value"}},
		{"not JSON", `{"format" 1}`, ErrSyntax, []string{"invalid JSON at byte"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var d doc
			err := Decode([]byte(c.in), &d)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "strictjson: ") {
				t.Errorf("message %q is not one line prefixed by the package", msg)
			}
			for _, s := range c.says {
				if !strings.Contains(msg, s) {
					t.Errorf("message %q does not say %q", msg, s)
				}
			}
		})
	}
}

// A map may hold keys that differ by case (they are different keys of the map).
func TestDecodeAcceptsMapKeysDifferingByCase(t *testing.T) {
	var d doc
	if err := Decode([]byte(`{"lots":{"a":1,"A":2}}`), &d); err != nil || d.Lots["A"] != 2 {
		t.Fatalf("%v %v", err, d.Lots)
	}
}

// Unicode case folding: "K" and the Kelvin sign match as encoding/json would match them.
func TestDecodeFoldsUnicodeCase(t *testing.T) {
	var d doc
	err := Decode([]byte("{\"any\":{\"k\":1,\"\u212a\":2}}"), &d)
	if !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("error %v, want a duplicate key", err)
	}
}

func TestDecodeRefusesDeepNesting(t *testing.T) {
	in := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	var v any
	if err := Decode([]byte(in), &v); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "depth") {
		t.Fatalf("error %v", err)
	}
}

func TestDecodeCutsLongKeysInMessages(t *testing.T) {
	key := strings.Repeat("x", 5000)
	var d doc
	err := Decode([]byte(`{"`+key+`":1}`), &d)
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("error of %d bytes: %v", len(err.Error()), err)
	}
}

func TestDecodeReportsWrongTypes(t *testing.T) {
	var d doc
	err := Decode([]byte(`{"players":[{"cash":"many"}]}`), &d)
	if err == nil || !strings.HasPrefix(err.Error(), "strictjson: ") {
		t.Fatalf("error %v", err)
	}
}

// env/rules uses this package, and env/rules imports only the standard library: so must it.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.Contains(strings.Split(p, "/")[0], ".") {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}

// Check never panics, and whatever it accepts is valid JSON that Decode then decodes.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"format":"f","players":[{"cash":1}]}`, `{"a":{"b":[1,"x\"y",{"c":null}]}}`,
		`{"lots":{"$3":1}}`, `[1,2`, `{"k\u0041":1,"kA":2}`, `"s"`, `  {}  `, `{"any":{"k":1,"K":2}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d doc
		if Check(data, &d) == nil && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		var v any
		_ = Decode(data, &v)
	})
}

// An escaped key is compared by its value: "k\u0041" is "kA".
func TestDecodeComparesEscapedKeysByValue(t *testing.T) {
	var v any
	if err := Decode([]byte(`{"k\u0041":1,"kA":2}`), &v); !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("error %v, want a duplicate key", err)
	}
	var d doc
	if err := Decode([]byte(`{"form\u0061t":"x"}`), &d); err != nil || d.Format != "x" {
		t.Fatalf("%v %q", err, d.Format)
	}
}
