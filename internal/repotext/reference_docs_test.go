package repotext

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The reference docs say what is true now and how to reproduce it; run logs live in
// docs/results/DATE/ and the story of what was tried in docs/HISTORY.md. Two rules keep logs
// out of the reference docs, line by line:
//
//   - No load average: "load average", "loadavg", or "load" followed by a number ("load 7-16",
//     "load of 20"). The machine's load is a condition of one measurement; docs/PERFORMANCE.md,
//     where each measurement states its conditions, is exempt. Nor the log phrase "as first
//     reported".
//   - No bare commit hash: a word of 7 to 12 lowercase hex digits holding at least one digit
//     and at least one letter (a short commit hash: "faf9b65"), except in the one column of a
//     Markdown table whose header names it ("commit", e.g. "measured, commit"), where a
//     results table names the commit each row was measured at. A table is a run of lines
//     starting with "|"; its first line is the header; cells are split at "|" not escaped
//     as "\|". docs/PERFORMANCE.md may name a commit in any cell, as a measurement's
//     condition.
var (
	loadPhrase = regexp.MustCompile(`(?i)\bload[ -]?averages?\b|\bloadavg\b|\bload (of )?[0-9]|\bas first reported\b`)
	hexWord    = regexp.MustCompile(`\b[0-9a-f]{7,12}\b`)
)

// commitHash returns the first short commit hash in line ("" when none).
func commitHash(line string) string {
	for _, w := range hexWord.FindAllString(line, -1) {
		if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdef") {
			return w
		}
	}
	return ""
}

// referenceDocs lists the reference docs, relative to the repository root: docs/*.md but
// docs/HISTORY.md (docs/results/ is not matched), README.md, python/README.md and
// models/README.md.
func referenceDocs(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		if filepath.ToSlash(rel) != "docs/HISTORY.md" {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	out = append(out, "README.md", "python/README.md", "models/README.md")
	slices.Sort(out)
	return out
}

// tableCells splits a Markdown table row into its cells (at "|" not escaped as "\|").
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		if row[i] == '|' && (i == 0 || row[i-1] != '\\') {
			cells = append(cells, row[start:i])
			start = i + 1
		}
	}
	if rest := row[start:]; strings.TrimSpace(rest) != "" {
		cells = append(cells, rest)
	}
	return cells
}

// referenceDocProblems returns what breaks the rules in one doc's text.
func referenceDocProblems(path, text string) []string {
	var bad []string
	var header []string // the header cells of the table the line is in (nil: not in a table)
	for i, line := range strings.Split(text, "\n") {
		if m := loadPhrase.FindString(line); m != "" && path != "docs/PERFORMANCE.md" {
			bad = append(bad, fmt.Sprintf("%s:%d: %q: a load average belongs to the run's record (docs/results/) or docs/PERFORMANCE.md", path, i+1, m))
		}
		if !strings.HasPrefix(strings.TrimSpace(line), "|") {
			header = nil
			if h := commitHash(line); h != "" {
				bad = append(bad, fmt.Sprintf("%s:%d: %q: a commit belongs in a results table's commit column, docs/HISTORY.md or docs/results/", path, i+1, h))
			}
			continue
		}
		cells := tableCells(line)
		if header == nil {
			header = cells
		}
		for c, cell := range cells {
			h := commitHash(cell)
			if h == "" {
				continue
			}
			if path != "docs/PERFORMANCE.md" && (c >= len(header) || !strings.Contains(strings.ToLower(header[c]), "commit")) {
				bad = append(bad, fmt.Sprintf("%s:%d: %q: in a table, a commit belongs only in the column whose header names it", path, i+1, h))
			}
		}
	}
	return bad
}

// TestReferenceDocsHoldNoRunLogs: no reference doc names a load average or a bare commit
// hash outside a results table (the rules above).
func TestReferenceDocsHoldNoRunLogs(t *testing.T) {
	root := filepath.Join("..", "..")
	docs := referenceDocs(t, root)
	if len(docs) < 10 {
		t.Fatalf("found only %d reference docs: %v", len(docs), docs)
	}
	var bad []string
	for _, d := range docs {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d)))
		if err != nil {
			t.Fatal(err)
		}
		bad = append(bad, referenceDocProblems(d, string(b))...)
	}
	if len(bad) > 0 {
		t.Errorf("%d lines of the reference docs read as run logs:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

// TestReferenceDocRulesCatchTheirPhrases: the rules find load averages and commit hashes and
// pass numbers, words, long checksums and results-table cells.
func TestReferenceDocRulesCatchTheirPhrases(t *testing.T) {
	caught := []string{
		"on the shared machine (load average 8 to 12), so",
		"load 7-16 from other work",
		"Measured 2026-12-02, recorded in commit cc72e9f (models of",
		"since commit faf9b65 they sample",
		"code at 4f0c628 (go build",
		"a 2-core machine (as first reported)",
		"LoadAvg 3.1",
	}
	for _, line := range caught {
		if len(referenceDocProblems("docs/X.md", line)) == 0 {
			t.Errorf("not caught: %q", line)
		}
	}
	caught = append(caught,
		"| model | made by |\n|---|---|\n| 4 players | a long round (commit 048ad87) |",
		"| a | measured, commit |\n|---|---|\n| since 151c8ff | 2026-12-02, 21aadbd |",
		"| a | commit |\n|---|---|\n| x | 21aadbd | extra 151c8ff |",
	)
	for _, text := range caught[len(caught)-3:] {
		if len(referenceDocProblems("docs/X.md", text)) == 0 {
			t.Errorf("not caught: %q", text)
		}
	}
	passed := []string{
		"| players | win rate | measured, commit |\n|---|---|---|\n| 4 | 96.2% | 2026-12-02, cc72e9f |\n| 3 | 90.6% | 2026-12-02 |",
		"| a | `RUN='Merge\\|Part'` | commit |\n|---|---|---|\n| x | `RUN='a\\|b'` | 3ce2632 |",
		"the network reads 1027 features and 241 actions",
		"sha256 8e0e1d35e6e4efbd and a digest 3f1e9c0a77b2d8e41c5a",
		"the load on the worker grows; a loaded machine is slower",
		"defaced: a word of letters only, and 2026120 of digits only",
		"| package | command | measured (commit) |\n|---|---|---|\n| env/rules | `scripts/mutation.sh env/rules` | 2026-12-01 (3ce2632) |",
	}
	for _, line := range passed {
		if p := referenceDocProblems("docs/X.md", line); len(p) != 0 {
			t.Errorf("flagged: %q: %v", line, p)
		}
	}
	if p := referenceDocProblems("docs/PERFORMANCE.md", "each run: load average 3 to 13\n\n| what | result |\n|---|---|\n| a | 96 µs (2026-12-05 at 4f0c628) |"); len(p) != 0 {
		t.Errorf("docs/PERFORMANCE.md may state a measurement's load and commit: %v", p)
	}
	if p := referenceDocProblems("docs/PERFORMANCE.md", "measured at commit 4f0c628"); len(p) == 0 {
		t.Errorf("docs/PERFORMANCE.md: a bare commit in its prose is not caught")
	}
}
