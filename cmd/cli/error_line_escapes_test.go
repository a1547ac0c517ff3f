package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// terminalRunes are what an error line must not hold raw: control characters and the
// bidirectional overrides and isolates.
var terminalRunes = regexp.MustCompile("[\x00-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]")

// A file name holding an escape sequence, a bell, a delete, a right-to-left override or a
// newline reaches the error line escaped as strconv.Quote writes it, whichever command reads
// the file: the line is one line with nothing a terminal would act on, and the name can be
// read back from it (a newline in it is \n, not the "; " between two errors).
func TestErrorLineEscapesControlCharactersInFileNames(t *testing.T) {
	for _, name := range []struct{ raw, shown string }{
		{"\x1b[31mred.json", `\x1b[31mred.json`},
		{"bell\a.json", `bell\a.json`},
		{"del\x7f.json", `del\x7f.json`},
		{"\u202eevil.json", `\u202eevil.json`},
		{"a\nb.json", `a\nb.json`},
		{"a\rb.json", `a\rb.json`},
		{"tab\there.json", `tab\there.json`},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, name.raw)
		garbage := filepath.Join(t.TempDir(), name.raw)
		require.NoError(t, os.WriteFile(garbage, []byte("{garbage"), 0o644))
		for _, args := range [][]string{
			{"legal", p},
			{"score", garbage},
			{"replay", p},
			{"dataset", "stats", p},
			{"eval", "--merge", p},
			{"rate", "--merge", p},
			{"export", "--run", p, "--out", filepath.Join(dir, "o.bot")},
			{"train", "bc", "--data", p, "--out", filepath.Join(dir, "o")},
			{"train", "bc", "--data=" + p, "--out", filepath.Join(dir, "o")},
		} {
			var out, errb bytes.Buffer
			code := Main(args, strings.NewReader(""), &out, &errb)
			line := errb.String()
			assert.Equal(t, 1, code, "%q: %s", args, line)
			if assert.True(t, strings.HasSuffix(line, "\n"), "%q: %q", args, line) {
				line = strings.TrimSuffix(line, "\n")
			}
			assert.NotContains(t, line, "\n", "%q: more than one line", args)
			assert.True(t, strings.HasPrefix(line, "container: "), "%q: %q", args, line)
			assert.False(t, terminalRunes.MatchString(line), "%q: %q holds a control character", args, line)
			assert.Contains(t, line, name.shown, "%q: %q does not name the file", args, line)
		}
	}
}

// escapeControls escapes control characters, bidirectional controls and bytes that are not
// UTF-8, as strconv.Quote does, and leaves every other rune (quotes, backslashes, accented
// and non-Latin letters, emoji) as it is.
func TestEscapeControlsLeavesOrdinaryTextAlone(t *testing.T) {
	for in, want := range map[string]string{
		"open välü.json: no such file":  "open välü.json: no such file",
		`"quoted" and \ back`:           `"quoted" and \ back`,
		"Ελληνικά 日本語 👍":                "Ελληνικά 日本語 👍",
		"\x1b[31mred":                   `\x1b[31mred`,
		"nul\x00 bell\a bs\b del\x7f":   `nul\x00 bell\a bs\b del\x7f`,
		"c1\u0085 csi\u009b":            `c1\u0085 csi\u009b`,
		"\u202eevil \u2066iso\u2069":    `\u202eevil \u2066iso\u2069`,
		"lrm\u200e rlm\u200f alm\u061c": `lrm\u200e rlm\u200f alm\u061c`,
		"ls\u2028ps\u2029":              `ls\u2028ps\u2029`,
		"bad \xff\xfe utf-8":            `bad \xff\xfe utf-8`,
		"":                              "",
	} {
		assert.Equal(t, want, escapeControls(in), "%q", in)
	}
}

// An argument holding a newline is escaped before the lines of an error are joined, so a
// joined error still reads as two errors and the name as one name; an argument made only of
// control characters is left to the final escaping (it would otherwise swallow the joins).
func TestErrorLineKeepsJoinsAndEscapesArguments(t *testing.T) {
	root := NewRoot()
	msg := "first: open a\nb.json: missing\nsecond: failed"
	err := errors.New(msg)
	assert.Equal(t, `first: open a\nb.json: missing; second: failed`, errorLine(root, err, []string{"legal", "a\nb.json"}))
	assert.Equal(t, `first: open a\nb.json: missing; second: failed`, errorLine(root, err, []string{"--file=a\nb.json"}))
	assert.Equal(t, "first: open a; b.json: missing; second: failed", errorLine(root, err, []string{"legal", "\n"}))
}
