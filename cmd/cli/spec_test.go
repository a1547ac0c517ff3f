package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpecPrintsTheTableWithTheVersion(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runSpec(specOptions{gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}}, &out))
	s := out.String()
	require.False(t, !strings.HasPrefix(s, encoding.Version+":") || !strings.Contains(s, "p0.cash") || !strings.Contains(s, "decision.phase"), "unexpected table:\n%s", s)
}

func TestSpecJSONLabelsEveryColumnAndAction(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runSpec(specOptions{gameFlags: gameFlags{players: 3, variant: "base", modules: "trucks,luxury", length: "short"}, json: true}, &out))
	var s encoding.Spec
	require.NoError(t, json.Unmarshal(out.Bytes(), &s))
	require.False(t, s.Version != encoding.Version || len(s.Columns()) != s.Size || len(s.ActionNames) != s.NumActions || s.Options.Players != 3, "spec: version %q, %d columns for size %d, %d action names for %d actions", s.Version, len(s.Columns()), s.Size, len(s.ActionNames), s.NumActions)
	_, ok := s.Feature("company.p0.owner")
	require.True(t, ok, "trucks module features missing")
}

func TestSpecColumnsAndOracle(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runSpec(specOptions{gameFlags: gameFlags{players: 5, variant: "classic", length: "standard"}, columns: true}, &out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.True(t, lines[0] == "game.players.3", "first column %q", lines[0])
	out.Reset()
	require.NoError(t, runSpec(specOptions{gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}, oracle: true}, &out))
	require.True(t, strings.HasPrefix(out.String(), encoding.OracleVersion+":"), "oracle spec header: %q", strings.SplitN(out.String(), "\n", 2)[0])
}

func TestSpecRejectsBadFlags(t *testing.T) {
	bad := []specOptions{
		{gameFlags: gameFlags{players: 7, variant: "base", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "modern", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "base", modules: "boats", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "base", length: "epic"}},
		{gameFlags: gameFlags{players: 4, variant: "classic", modules: "trucks", length: "standard"}},
		{gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}, json: true, columns: true},
	}
	for _, o := range bad {
		err := runSpec(o, &bytes.Buffer{})
		assert.False(t, err == nil || !strings.HasPrefix(err.Error(), "spec: ") || strings.Contains(err.Error(), "\n"), "%+v: error %v, want a one-line spec: error", o, err)
	}
}

// TestDocsQuoteContainerSpec: every "$ container spec FLAGS | head -1" line in the docs is
// followed by the line this build's container spec prints first, so the sizes the docs quote
// (docs/ENV.md, "Observations") are the program's own.
func TestDocsQuoteContainerSpec(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "python", "README.md"))
	const prefix, suffix = "$ container spec", " | head -1"
	quoted := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		require.NoError(t, err)
		lines := strings.Split(string(b), "\n")
		for i, line := range lines {
			if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, suffix) {
				continue
			}
			args := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(line, prefix), suffix))
			cmd := newSpecCmd()
			var out bytes.Buffer
			cmd.SetOut(&out)
			cmd.SetArgs(args)
			err := cmd.Execute()
			require.NoError(t, err, "%s:%d: %s: %v", doc, i+1, line, err)
			got, _, _ := strings.Cut(out.String(), "\n")
			assert.False(t, i+1 >= len(lines) || lines[i+1] != got, "%s:%d: after %q the doc should quote %q", filepath.Base(doc), i+2, line, got)
			quoted++
		}
	}
	require.False(t, quoted < 2, "the docs quote container spec %d times; docs/ENV.md quotes it for every module set", quoted)
}
