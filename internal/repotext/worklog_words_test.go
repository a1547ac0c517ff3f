package repotext

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// worklogWords are phrases that label a result by the way the work was organised (a work
// session's number, the people who made it, an issue number) instead of by a date, a commit
// or a version. They mean nothing to a reader of the repository.
var worklogWords = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bsessions? ?[0-9]`),
	regexp.MustCompile(`(?i)\bsession-[0-9]`),
	regexp.MustCompile(`(?i)\b(this|earlier|whole|next|previous) session('s)?\b`),
	regexp.MustCompile(`(?i)\b(the|a) lead\b[^-]`),
	regexp.MustCompile(`(?i)\blead[']s\b`),
	regexp.MustCompile(`(?i)\bhelpers'`), // "other helpers' builds"
	regexp.MustCompile(`(?i)\bhelper (session|agent|engineer)s?\b`),
	regexp.MustCompile(`(?i)\bissues?[ -]?#?[0-9]+\b`), // "issue 13", "(issue 19 survivors)"
	regexp.MustCompile(`(?i)\bthe issue('s)?\b`),       // "the targets"
	regexp.MustCompile(`\b[a-z0-9]+-s[0-9]{2}\b`),      // directories such as ladder-s30
}

// allowed are lines where such a phrase means something else; each entry is a file and a
// substring of the line.
var allowed = []struct{ file, line string }{
	// "lead" as a verb: moves that lead to one shared child node.
	{"env/search/ismcts.go", "they all lead to one shared child node"},
	{"docs/BOTS.md", "so all of them lead to one shared child"},
	// A web play session (HTTP), not a work session.
	{"web/server.go", "for this session"},
}

// skipped are tracked files this check does not read: third-party packages, and this
// check itself (it spells the phrases out).
func skipped(path string) bool {
	return strings.Contains(path, "node_modules/") ||
		strings.HasPrefix(path, "internal/repotext/")
}

// TestNoWorklogWordsInTrackedText: no tracked text file (docs, code, comments, test names,
// help strings, file names) labels a result by a work session, a person's role or an issue
// number; results carry a date, a commit or a version.
func TestNoWorklogWordsInTrackedText(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v); nothing to check", err)
	}
	var bad []string
	checked, botFiles := 0, 0
	for _, path := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if path == "" || skipped(path) {
			continue
		}
		for _, re := range worklogWords {
			if re.MatchString(path) {
				bad = append(bad, fmt.Sprintf("%s: file name matches %s", path, re))
			}
		}
		b, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			continue // deleted in the working tree
		}
		if bytes.IndexByte(b, 0) >= 0 {
			// Binary (model files, images): of a bot file, its JSON header is text a user
			// reads (container bots prints its notes); the rest is skipped.
			if b = botHeader(b); b == nil {
				continue
			}
			botFiles++
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			for _, re := range worklogWords {
				if re.MatchString(line) && !isAllowed(path, line) {
					bad = append(bad, fmt.Sprintf("%s:%d: %q matches %s", path, i+1, clip(line), re))
				}
			}
		}
	}
	if checked < 100 || botFiles == 0 {
		t.Fatalf("read only %d tracked text files and %d bot file headers; expected the whole repository", checked, botFiles)
	}
	if len(bad) > 0 {
		t.Errorf("%d lines label results by work session, role or issue number "+
			"(use a date, a commit or a version):\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

// botHeader is the JSON header of a bot or checkpoint file (8 bytes of magic, the header's
// length as 4 little-endian bytes, the header), or nil if b is not one.
func botHeader(b []byte) []byte {
	if len(b) < 12 || !bytes.HasPrefix(b, []byte("CNTR")) {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(b[8:12]))
	if n > len(b)-12 {
		return nil
	}
	return b[12 : 12+n]
}

func isAllowed(path, line string) bool {
	for _, a := range allowed {
		if a.file == path && strings.Contains(line, a.line) {
			return true
		}
	}
	return false
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// TestWorklogWordsAreCaught: the patterns find the phrases they are meant for and pass the
// ordinary uses of the same words.
func TestWorklogWordsAreCaught(t *testing.T) {
	// Each example is split in two so this file itself never carries a label whole.
	caught := []string{
		"measured in se" + "ssion 29 with this build",
		"#### Se" + "ssion 28: the fine-tuned default",
		"Before the loan rule (se" + "ssions 24-25)",
		"the se" + "ssion-27 ladder",
		"a longer look than this se" + "ssion had",
		"The le" + "ad may re-measure on a quiet machine.",
		"Quiet machine (the le" + "ad's session)",
		"while other he" + "lpers' builds kept its load high",
		"tests (is" + "sue 19 survivors)",
		"sharing it with the is" + "sue-13 evaluations",
		"Is" + "sue 13's numbered targets",
		"under the is" + "sue's 40%",
		"results in docs/results/la" + "dder-s30/",
	}
	for _, s := range caught {
		if !matchesAny(s) {
			t.Errorf("%q is not caught", s)
		}
	}
	passed := []string{
		"every later request on that session must carry its token",
		"func TestSessionLimitAndExpiry(t *testing.T) {",
		"t.Helper()",
		"the caller's goroutine and workers-1 helper goroutines",
		"the change in the learner's lead over the others",
		"a 128-bit random token ends the session",
		"results in docs/results/ladder-2026-12-02/",
	}
	for _, s := range passed {
		if matchesAny(s) {
			t.Errorf("%q is caught but is an ordinary use", s)
		}
	}
}

func matchesAny(s string) bool {
	for _, re := range worklogWords {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
