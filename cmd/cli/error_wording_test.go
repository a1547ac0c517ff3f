package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mainError runs the command line and returns its exit status and standard error.
func mainError(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, errb.String()
}

// rate's errors name rate, also those of the tournament code it shares with eval.
func TestRateErrorsNameRate(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("mine"), 0o644))
	for _, args := range [][]string{
		{"rate", "--merge", filepath.Join(t.TempDir(), "nosuch.json")},
		{"rate", "--merge"},
		{"rate", "--upgrade-results"},
		{"rate", "--agents", "random,valuer", "--games", "0"},
		{"rate", "--agents", "random,valuer", "--games", "2", "--shard", "0/1", "--out", notes},
	} {
		code, line := mainError(args...)
		assert.Equal(t, 1, code, "%q", args)
		assert.True(t, strings.HasPrefix(line, "container: rate: "), "%q: %q", args, line)
		assert.NotContains(t, line, "eval", "%q", args)
	}
	code, line := mainError("eval", "--merge")
	assert.Equal(t, 1, code)
	assert.True(t, strings.HasPrefix(line, "container: eval: "), "%q", line)
}

// Giving a flag and its alias names the command once.
func TestAliasConflictNamesTheCommandOnce(t *testing.T) {
	for cmd, want := range map[string]string{
		"eval":     "container: eval: give --agents or its alias --bots, not both\n",
		"rate":     "container: rate: give --agents or its alias --bots, not both\n",
		"selfplay": "container: selfplay: give --agents or its alias --bots, not both\n",
	} {
		code, line := mainError(cmd, "--agents", "random", "--bots", "random", "--games", "2")
		assert.Equal(t, 1, code, cmd)
		assert.Equal(t, want, line, cmd)
	}
}

// An --out for results under a regular file is refused naming that file, not as a results
// file that "exists".
func TestResultsOutUnderAFileNamesTheFile(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("mine"), 0o644))
	for _, cmd := range []string{"eval", "rate"} {
		code, line := mainError(cmd, "--agents", "random", "--games", "2", "--shard", "0/1", "--out", filepath.Join(notes, "sub"))
		assert.Equal(t, 1, code, cmd)
		assert.Contains(t, line, notes+" is a file, not a directory", cmd)
		assert.NotContains(t, line, "exists", cmd)
	}
	b, err := os.ReadFile(notes)
	require.NoError(t, err)
	assert.Equal(t, "mine", string(b))
}
