package web

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// What the data directory's listing shows: records down to five directory levels, nothing
// under hidden directories or node_modules, and at most 2,000 entries walked.

func writeStubRecord(t *testing.T, dir, rel string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"format": "`+rules.RecordFormat+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDataListingSkipsHiddenAndDeepDirectories(t *testing.T) {
	data := t.TempDir()
	listed := []string{"top.json", "a/b/c/d/e/deep.json", "x/.json-like.json"}
	hidden := []string{".git/r.json", "sub/.cache/r.json", "node_modules/r.json", "a/b/c/d/e/f/too-deep.json"}
	for _, r := range append(append([]string{}, listed...), hidden...) {
		writeStubRecord(t, data, r)
	}
	d, err := openDataDir(data)
	if err != nil {
		t.Fatal(err)
	}
	got := d.list().Records
	slices.Sort(listed)
	if !slices.Equal(got, listed) {
		t.Errorf("listed %v, want %v", got, listed)
	}
}

// The walk stops after 2,000 entries (the directory itself counts): 1,999 records are all
// listed, the 2,000th is not.
func TestDataListingStopsAfterTwoThousandEntries(t *testing.T) {
	for _, n := range []int{maxListed - 1, maxListed} {
		data := t.TempDir()
		for i := 0; i < n; i++ {
			writeStubRecord(t, data, fmt.Sprintf("g%05d.json", i))
		}
		d, err := openDataDir(data)
		if err != nil {
			t.Fatal(err)
		}
		got := d.list().Records
		if want := min(n, maxListed-1); len(got) != want {
			t.Errorf("%d records: %d listed, want %d", n, len(got), want)
		}
	}
}

// readLimited reads a file of exactly the limit and refuses one byte more with 413.
func TestReadLimitedAcceptsExactlyTheLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := readLimited(p, "f", 100); err != nil || len(b) != 100 {
		t.Errorf("100 bytes, limit 100: %d bytes, %v", len(b), err)
	}
	_, err := readLimited(p, "f", 99)
	var he *apiError
	if !errors.As(err, &he) || he.status != http.StatusRequestEntityTooLarge {
		t.Errorf("100 bytes, limit 99: %v, want 413", err)
	}
}
