package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Progress written to a log (not a terminal) is plain lines, each ended, no bar frames.
func TestEvalProgressIntoALogIsPlainLines(t *testing.T) {
	var out, progress bytes.Buffer
	o := smallEval("valuer,random")
	o.progress = &progress
	require.NoError(t, runEval(context.Background(), o, &out))
	text := progress.String()
	assert.NotContains(t, text, "\r")
	assert.Regexp(t, `^games: 8/8 \(100%\), \d+s\n$`, text)
}

// eval and rate take --quiet, which writes nothing on standard error.
func TestEvalQuietWritesNoProgress(t *testing.T) {
	for _, cmd := range []string{"eval", "rate"} {
		var out, errb bytes.Buffer
		code := Main([]string{cmd, "--agents", "random,valuer", "--games", "3", "--turn-limit", "20", "--quiet"}, strings.NewReader(""), &out, &errb)
		require.Equal(t, 0, code, "%s: %s", cmd, errb.String())
		assert.Empty(t, errb.String(), cmd)
		assert.NotEmpty(t, out.String(), cmd)
	}
}

// A command refused after its checks draws no bar before its error: the error is the only line.
func TestSelfplayOntoADatasetShowsOnlyTheError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	args := []string{"selfplay", "--agents", "random,random,random", "--games", "2", "--out", dir}
	var out, errb bytes.Buffer
	require.Equal(t, 0, Main(args, nil, &out, &errb), errb.String())
	assert.NotContains(t, errb.String(), "\r")
	errb.Reset()
	require.Equal(t, 1, Main(args, nil, &out, &errb))
	assert.Regexp(t, `^container: selfplay: output directory already holds a dataset: [^\n]*--resume[^\n]*\n$`, errb.String())
}
