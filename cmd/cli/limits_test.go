package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHugeInputGivesShortError: a position file with a 20 MB ship string,
// a 50 MB --rules value and a record file above rules.MaxRecordBytes each give one short
// line on stderr (the input quoted to at most rules.MaxQuoted bytes).
func TestHugeInputGivesShortError(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("x", 50<<20)
	pos := filepath.Join(dir, "pos.json")
	require.NoError(t, os.WriteFile(pos, []byte(`{"options": {"players": 3}, "players": [{"factories": "w", "ship": "`+huge[:20<<20]+`"}]}`), 0o644))
	big := filepath.Join(dir, "big.json")
	require.NoError(t, os.WriteFile(big, make([]byte, rules.MaxRecordBytes+1), 0o644))
	for _, args := range [][]string{
		{"legal", pos},
		{"score", big},
		{"eval", "--agents", "random,random,random", "--rules", huge},
		{"eval", "--agents", huge},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		assert.False(t, code != 1 || stderr.Len() > 600 || strings.Count(stderr.String(), "\n") != 1, "%.40q: exit %d, %d bytes on stderr: %.300s", args, code, stderr.Len(), stderr.String())
	}
}

func TestShortErrorCutsLongMessages(t *testing.T) {
	got := shortError("short")
	assert.True(t, got == "short", "shortError(short) = %q", got)
	got = shortError(strings.Repeat("é", 1000))
	assert.False(t, len(got) > maxErrorBytes+40 || !strings.HasSuffix(got, "(error of 2000 bytes cut)"), "shortError(long) = %q", got)
}

// legal, score and replay read standard input for "-", as apply does, and say what they read
// in their errors.
func TestLegalScoreReplayReadStandardInput(t *testing.T) {
	js, _, _ := writeTestRecord(t)
	rec, err := os.ReadFile(js)
	require.NoError(t, err)
	pos, err := os.ReadFile(filepath.Join(positionsDir, "opening-4p.json"))
	require.NoError(t, err)
	for _, c := range []struct {
		args  []string
		input []byte
		says  string
	}{
		{[]string{"legal", "-"}, pos, "legal actions"},
		{[]string{"legal", "-", "--json"}, pos, `"actions"`},
		{[]string{"score", "-"}, pos, "total"},
		{[]string{"score", "-", "--json"}, rec, `"total"`},
		{[]string{"replay", "-"}, rec, "== final position =="},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, bytes.NewReader(c.input), &out, &errb)
		assert.False(t, code != 0 || !strings.Contains(out.String(), c.says), "%v: exit %d, stderr %q, stdout %.200q", c.args, code, errb.String(), out.String())
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"replay", "-"}, strings.NewReader(`{"format": "container-game/1", "options": {"players": 3}, "seed": 1, "moves": ["pro`), &out, &errb); code != 1 ||
		!strings.HasPrefix(errb.String(), "container: replay: standard input: ") || !strings.Contains(errb.String(), "truncated JSON") {
		assert.Fail(t, fmt.Sprintf("truncated record on standard input: exit %d, %q", code, errb.String()))
	}
}

// replay of a record cut in the middle says truncated JSON, and of a record of another format
// version names it; neither is reported as a position of the wrong size.
func TestReplayNamesTruncationAndFormatVersion(t *testing.T) {
	js, _, _ := writeTestRecord(t)
	rec, err := os.ReadFile(js)
	require.NoError(t, err)
	// A long record (over a position's size limit) is what made the old message a size error.
	long := strings.Replace(string(rec), `"moves": [`, `"moves": [`+strings.Repeat(`"end", `, 200_000), 1)
	dir := t.TempDir()
	for _, c := range []struct{ name, data, says string }{
		{"cut.json", string(rec[:len(rec)/2]), "truncated JSON"},
		{"long-cut.json", long[:len(long)/2], "truncated JSON"},
		{"v9.json", strings.Replace(string(rec), rules.RecordFormat, "container-game/9", 1), `unsupported record format version 9 ("container-game/9"); this build reads container-game/1`},
	} {
		path := filepath.Join(dir, c.name)
		require.NoError(t, os.WriteFile(path, []byte(c.data), 0o644))
		var out, errb bytes.Buffer
		code := Main([]string{"replay", path}, strings.NewReader(""), &out, &errb)
		msg := errb.String()
		assert.False(t, code != 1 || !strings.Contains(msg, c.says) || strings.Contains(msg, "at most") || strings.Count(msg, "\n") != 1, "%s: exit %d, %q; want one line saying %s", c.name, code, msg, c.says)
	}
}

// A directory given as the input file is named as such.
func TestInputThatIsADirectoryIsNamed(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{"legal", "score", "replay"} {
		code, _, stderr := runMain(cmd, dir)
		assert.False(t, code != 1 || stderr != "container: "+cmd+": "+dir+" is a directory, not a file\n", "%s DIR: exit %d, %q", cmd, code, stderr)
	}
}
