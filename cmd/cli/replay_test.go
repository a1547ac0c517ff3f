package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

func writeTestRecord(t *testing.T) (jsonPath, binPath string, final *rules.State) {
	t.Helper()
	g, err := rules.NewGame(rules.Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(4)
	var ids []int
	for i := 0; i < 150 && !s.IsTerminal(); i++ {
		ids = s.LegalActions(ids)
		s.Apply(ids[(i*31)%len(ids)])
	}
	rec := rules.NewRecord(s, 4)
	js, err := rec.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jsonPath, binPath = filepath.Join(dir, "game.json"), filepath.Join(dir, "game.ctnr")
	if err := os.WriteFile(jsonPath, js, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(binPath, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	return jsonPath, binPath, s
}

func TestReplayJSONAndBinary(t *testing.T) {
	js, bin, final := writeTestRecord(t)
	for _, path := range []string{js, bin} {
		var out bytes.Buffer
		if err := runReplay(path, replayOptions{viewer: -1, boards: true}, nil, &out); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if !strings.Contains(text, "== turn 1:") || !strings.Contains(text, "== final position ==") || !strings.Contains(text, "rank") {
			t.Errorf("%s: replay output:\n%s", path, text)
		}
		if n := strings.Count(text, "\n"); n < len(final.History()) {
			t.Errorf("%s: %d lines for %d moves", path, n, len(final.History()))
		}
	}
	// A corrupted record is an error naming the problem.
	data, _ := os.ReadFile(js)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, bytes.Replace(data, []byte(`"checksum": "`), []byte(`"checksum": "f`), 1), 0o644)
	if err := runReplay(bad, replayOptions{viewer: -1}, nil, &bytes.Buffer{}); !errors.Is(err, rules.ErrBadRecord) {
		t.Errorf("bad checksum: %v", err)
	}
	if err := runReplay(filepath.Join(positionsDir, "opening-4p.json"), replayOptions{viewer: -1}, nil, &bytes.Buffer{}); err == nil {
		t.Error("replay accepted a position")
	}
	if err := runReplay(js, replayOptions{viewer: 7}, nil, &bytes.Buffer{}); err == nil {
		t.Error("replay accepted --viewer 7")
	}
}

// The header names a game without modules "modules none", not an empty quoted string.
func TestReplayHeaderSaysModulesNone(t *testing.T) {
	js, _, _ := writeTestRecord(t)
	var out bytes.Buffer
	if err := runReplay(js, replayOptions{viewer: -1}, nil, &out); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if !strings.Contains(first, ", modules none, ") || strings.Contains(first, `""`) {
		t.Errorf("header %q: want modules none", first)
	}
}

// A file that cannot be read is an error of the command that read it.
func TestReadErrorsNameTheCommand(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch.json")
	for _, cmd := range []string{"replay", "score", "legal"} {
		code, line := mainError(cmd, missing)
		if code != 1 || !strings.HasPrefix(line, "container: "+cmd+": ") || !strings.Contains(line, "nosuch.json") {
			t.Errorf("%s of a missing file: exit %d, %q", cmd, code, line)
		}
	}
}
