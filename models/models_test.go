package models_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/models"
	"github.com/container-rl/container/training"
)

// botFilesOnDisk lists every .bot file under models/, as paths relative to it.
func botFilesOnDisk(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".bot") {
			out = append(out, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestManifestListsEveryBotFileAndRunRecord: every .bot file under models/ has exactly one
// entry, every entry's file exists, and so do its run records and the file it replaces.
func TestManifestListsEveryBotFileAndRunRecord(t *testing.T) {
	m, err := models.Load()
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, e := range m.Models {
		listed = append(listed, e.File)
		for _, r := range e.Runs {
			if _, err := os.Stat(filepath.FromSlash(r)); err != nil {
				t.Errorf("%s: run record %s: %v", e.File, r, err)
			}
		}
		if e.Replaces != "" {
			if r, ok := m.Lookup(e.Replaces); !ok || r.Status != models.Retired {
				t.Errorf("%s replaces %s, which is not a retired entry", e.File, e.Replaces)
			}
		}
		if e.Status == models.Retired && !strings.HasPrefix(e.File, "retired/") {
			t.Errorf("%s is retired but not in retired/", e.File)
		}
		if (e.Status == models.Value) != strings.HasPrefix(e.File, "value/") {
			t.Errorf("%s: status %s; value networks, and only they, are in value/", e.File, e.Status)
		}
	}
	slices.Sort(listed)
	if disk := botFilesOnDisk(t); !slices.Equal(listed, disk) {
		t.Fatalf("manifest lists %v, models/ holds %v", listed, disk)
	}
}

// TestManifestAgreesWithTheFileHeaders: every entry's name, layout versions and games are the
// ones its bot file's header records, and every file names its inputs and actions.
func TestManifestAgreesWithTheFileHeaders(t *testing.T) {
	m, err := models.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Models {
		b, err := training.ReadBotFile(filepath.FromSlash(e.File))
		if err != nil {
			t.Errorf("%s: %v", e.File, err)
			continue
		}
		h := b.Header
		actions := h.Actions.Version
		if actions == "" {
			actions = "actions-v1"
		}
		modules := map[rules.Modules]string{0: "none", rules.AllModules: "all"}[h.Rules.Modules]
		got := []string{h.Name, h.EncodingVersion, actions, rules.Quote(h.Rules.Variant.String()), modules}
		want := []string{e.Name, e.Encoding, e.Actions, rules.Quote(e.Rules), e.Modules}
		if !slices.Equal(got, want) || h.Rules.Players != e.Players {
			t.Errorf("%s: header says %v, %d players; manifest %v, %d players", e.File, got, h.Rules.Players, want, e.Players)
		}
		if len(h.Features) != b.Weights.Config.ObsDim || len(h.ActionNames) != b.Weights.Config.NumActions {
			t.Errorf("%s: the header names %d inputs and %d actions of %d and %d; every model here records them, so that any later build can upgrade it by name",
				e.File, len(h.Features), len(h.ActionNames), b.Weights.Config.ObsDim, b.Weights.Config.NumActions)
		}
	}
}

// TestEmbeddedFilesAreTheShippedModels: the build embeds exactly the shipped bot files (and
// the value networks, which Embedded does not list), not the retired ones.
func TestEmbeddedFilesAreTheShippedModels(t *testing.T) {
	m, err := models.Load()
	if err != nil {
		t.Fatal(err)
	}
	var shipped []string
	for _, e := range m.Models {
		if e.Status == models.Shipped {
			shipped = append(shipped, e.File)
			if _, err := models.ReadFile(e.File); err != nil {
				t.Error(err)
			}
		}
		if e.Status == models.Value {
			if _, err := models.ReadFile(e.File); err != nil {
				t.Error(err)
			}
			if got := m.Values(e.Name); !slices.ContainsFunc(got, func(v models.Model) bool { return v.File == e.File }) {
				t.Errorf("Values(%q) = %v, want it to list %s", e.Name, got, e.File)
			}
		}
	}
	if got := m.Values(""); got != nil {
		t.Errorf("Values(\"\") = %v, want none", got)
	}
	slices.Sort(shipped)
	if got := models.Embedded(); !slices.Equal(got, shipped) {
		t.Fatalf("embedded %v, shipped %v", got, shipped)
	}
	if _, err := models.ReadFile("retired/default.bot"); err == nil || !strings.Contains(err.Error(), "not embedded") {
		t.Fatalf("reading a retired file: err = %v, want one saying it is not embedded", err)
	}
}

// TestParseRejectsBadManifests: an unknown field, a wrong format, a missing or doubled file,
// an unknown status or game, a date that is not a date: each a one-line error.
func TestParseRejectsBadManifests(t *testing.T) {
	entry := `{"file":"a.bot","name":"default","status":"shipped","encoding":"obs-v2","actions":"actions-v2","players":4,"rules":"base","modules":"none","made":"2026-12-02","recipe":"r","runs":[],"strength":null}`
	doc := func(entries ...string) string {
		return `{"format":"container-models","format_version":1,"models":[` + strings.Join(entries, ",") + `]}`
	}
	if _, err := models.Parse([]byte(doc(entry))); err != nil {
		t.Fatalf("a good manifest: %v", err)
	}
	if _, err := models.Parse([]byte(doc(strings.Replace(entry, `"shipped"`, `"value"`, 1)))); err != nil {
		t.Fatalf("a value network's entry: %v", err)
	}
	bad := map[string]string{
		"not JSON":      "{",
		"unknown field": strings.Replace(doc(entry), `"models"`, `"extra":1,"models"`, 1),
		"wrong format":  strings.Replace(doc(entry), "container-models", "other", 1),
		"data after":    doc(entry) + "{}",
		"file twice":    doc(entry, entry),
		"no file":       doc(strings.Replace(entry, `"a.bot"`, `""`, 1)),
		"path escapes":  doc(strings.Replace(entry, `"a.bot"`, `"../a.bot"`, 1)),
		"status":        doc(strings.Replace(entry, `"shipped"`, `"gone"`, 1)),
		"players":       doc(strings.Replace(entry, `"players":4`, `"players":9`, 1)),
		"rules":         doc(strings.Replace(entry, `"base"`, `"bass"`, 1)),
		"modules":       doc(strings.Replace(entry, `"none"`, `"some"`, 1)),
		"made":          doc(strings.Replace(entry, `"2026-12-02"`, `"yesterday"`, 1)),
		"no recipe":     doc(strings.Replace(entry, `"recipe":"r"`, `"recipe":""`, 1)),
		"strength":      doc(strings.Replace(entry, `"strength":null`, `"strength":{"games":0}`, 1)),
		"run path":      doc(strings.Replace(entry, `"runs":[]`, `"runs":["/abs"]`, 1)),
	}
	for name, in := range bad {
		_, err := models.Parse([]byte(in))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %q is not one line", name, err)
		}
	}
}

// TestMarshalWritesTheManifestAsStored: parsing MANIFEST.json and writing it back gives the
// same bytes, so tools that update entries (training's -upgrade-shipped) change only those.
func TestMarshalWritesTheManifestAsStored(t *testing.T) {
	m, err := models.Load()
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("MANIFEST.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("MANIFEST.json written back differs from the stored file (%d bytes, stored %d)", len(got), len(want))
	}
}
