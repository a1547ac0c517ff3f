package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeTestRecord(t *testing.T) (jsonPath, binPath string, final *rules.State) {
	t.Helper()
	g, err := rules.NewGame(rules.Options{Players: 3})
	require.NoError(t, err)
	s := g.NewInitialStateSeed(4)
	var ids []int
	for i := 0; i < 150 && !s.IsTerminal(); i++ {
		ids = s.LegalActions(ids)
		s.Apply(ids[(i*31)%len(ids)])
	}
	rec := rules.NewRecord(s, 4)
	js, err := rec.MarshalRecord()
	require.NoError(t, err)
	bin, err := rec.MarshalBinary()
	require.NoError(t, err)
	dir := t.TempDir()
	jsonPath, binPath = filepath.Join(dir, "game.json"), filepath.Join(dir, "game.ctnr")
	require.NoError(t, os.WriteFile(jsonPath, js, 0o644))
	require.NoError(t, os.WriteFile(binPath, bin, 0o644))
	return jsonPath, binPath, s
}

func TestReplayJSONAndBinary(t *testing.T) {
	js, bin, final := writeTestRecord(t)
	for _, path := range []string{js, bin} {
		var out bytes.Buffer
		require.NoError(t, runReplay(path, replayOptions{viewer: -1, boards: true}, nil, &out))
		text := out.String()
		assert.False(t, !strings.Contains(text, "== turn 1:") || !strings.Contains(text, "== final position ==") || !strings.Contains(text, "rank"), "%s: replay output:\n%s", path, text)
		n := strings.Count(text, "\n")
		assert.False(t, n < len(final.History()), "%s: %d lines for %d moves", path, n, len(final.History()))
	}
	// A corrupted record is an error naming the problem.
	data, _ := os.ReadFile(js)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, bytes.Replace(data, []byte(`"checksum": "`), []byte(`"checksum": "f`), 1), 0o644)
	err := runReplay(bad, replayOptions{viewer: -1}, nil, &bytes.Buffer{})
	assert.ErrorIs(t, err, rules.ErrBadRecord, "bad checksum: %v", err)
	err = runReplay(filepath.Join(positionsDir, "opening-4p.json"), replayOptions{viewer: -1}, nil, &bytes.Buffer{})
	assert.Error(t, err, "replay accepted a position")
	err = runReplay(js, replayOptions{viewer: 7}, nil, &bytes.Buffer{})
	assert.Error(t, err, "replay accepted --viewer 7")
}

// The header names a game without modules "modules none", not an empty quoted string.
func TestReplayHeaderSaysModulesNone(t *testing.T) {
	js, _, _ := writeTestRecord(t)
	var out bytes.Buffer
	require.NoError(t, runReplay(js, replayOptions{viewer: -1}, nil, &out))
	first, _, _ := strings.Cut(out.String(), "\n")
	assert.False(t, !strings.Contains(first, ", modules none, ") || strings.Contains(first, `""`), "header %q: want modules none", first)
}

// A file that cannot be read is an error of the command that read it.
func TestReadErrorsNameTheCommand(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch.json")
	for _, cmd := range []string{"replay", "score", "legal"} {
		code, line := mainError(cmd, missing)
		assert.False(t, code != 1 || !strings.HasPrefix(line, "container: "+cmd+": ") || !strings.Contains(line, "nosuch.json"), "%s of a missing file: exit %d, %q", cmd, code, line)
	}
}
