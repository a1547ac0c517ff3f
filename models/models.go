// Package models holds the trained models this project ships, as data: the bot files, the
// records of the runs that made them (runs/) and the models they replaced (retired/), listed
// in one manifest (MANIFEST.json; README.md describes its fields).
//
// The shipped bot files, the value networks and the manifest are embedded in every binary that
// imports this package (the training package does, for the "default" bot and the search's
// value= key); retired/ and runs/ stay in the source tree. The package uses the standard
// library only: it knows files and the manifest, not networks (training reads the files).
//
// Files:
//
//	models.go      the embedded files, the manifest's types, parsing and lookups
//	MANIFEST.json  one entry per bot file under this folder
//	*.bot          the shipped models (embedded)
//	retired/       models replaced since, kept so that every number measured with them reproduces
//	value/         value networks for the search's value= key (embedded)
//	runs/          the run records (options and metrics) of the rounds that made them
package models

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sync"
)

// ManifestFormat and ManifestFormatVersion identify MANIFEST.json.
const (
	ManifestFormat        = "container-models"
	ManifestFormatVersion = 1
)

// Status values of a manifest entry.
const (
	Shipped = "shipped" // embedded and played (the "default" bot's models)
	Retired = "retired" // replaced; kept in retired/ in the source tree
	// Value marks a value network: a model whose value head scores the leaves of a search
	// (ismcts:net=default,value=NAME, or value=models/value/FILE.bot); its policy head is not
	// meant to be played. Kept in value/ and embedded.
	Value = "value"
)

// Manifest is MANIFEST.json.
type Manifest struct {
	Format        string  `json:"format"`
	FormatVersion int     `json:"format_version"`
	Models        []Model `json:"models"`
}

// Model is one bot file of this folder.
type Model struct {
	// File is the path under models/, e.g. "default-3p.bot" or "retired/default.bot".
	File string `json:"file"`
	// Name is the bot's name (its header's name; "default" for the shipped models).
	Name string `json:"name"`
	// Status is Shipped, Retired or Value.
	Status string `json:"status"`
	// Encoding and Actions are the observation layout and action layout versions the
	// network reads and writes, as its header records them.
	Encoding string `json:"encoding"`
	Actions  string `json:"actions"`
	// Players, Rules ("base" or "classic") and Modules ("none" or "all"): the games it is for.
	Players int    `json:"players"`
	Rules   string `json:"rules"`
	Modules string `json:"modules"`
	// Made is the date (YYYY-MM-DD) the network was made in its present form.
	Made string `json:"made"`
	// Recipe says in words how it was made; docs/TRAINING.md has every command.
	Recipe string `json:"recipe"`
	// Runs are the run records under models/ (a file or a folder) of its rounds.
	Runs []string `json:"runs"`
	// Strength is its measured strength (nil: not measured).
	Strength *Strength `json:"strength"`
	// Replaces names the retired file this model was fine-tuned from, if any.
	Replaces string `json:"replaces,omitempty"`
}

// Strength is one measured result: win rate against a field of scripted bots.
type Strength struct {
	Opponents string `json:"opponents"`
	Games     int    `json:"games"`
	WinRate   string `json:"win_rate"`
	CI95      string `json:"ci95"`
	Command   string `json:"command"`
	Measured  string `json:"measured"` // date, YYYY-MM-DD
}

//go:embed MANIFEST.json *.bot value/*.bot
var files embed.FS

var (
	manifestOnce sync.Once
	manifest     Manifest
	manifestErr  error
)

// Load returns the embedded manifest, parsed and checked once.
func Load() (Manifest, error) {
	manifestOnce.Do(func() {
		data, err := files.ReadFile("MANIFEST.json")
		if err == nil {
			manifest, err = Parse(data)
		}
		manifestErr = err
	})
	return manifest, manifestErr
}

var date = regexp.MustCompile(`^20[0-9]{2}-[01][0-9]-[0-3][0-9]$`)

// Parse reads and checks a manifest: known fields only, every entry complete, files unique.
func Parse(data []byte) (Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("models: manifest: %w", err)
	}
	if dec.More() {
		return Manifest{}, fmt.Errorf("models: manifest: data after the JSON object")
	}
	if m.Format != ManifestFormat || m.FormatVersion != ManifestFormatVersion {
		return Manifest{}, fmt.Errorf("models: manifest: format %q version %d, want %q version %d", m.Format, m.FormatVersion, ManifestFormat, ManifestFormatVersion)
	}
	seen := map[string]bool{}
	for i, e := range m.Models {
		bad := func(why string) error { return fmt.Errorf("models: manifest entry %d (%q): %s", i, e.File, why) }
		switch {
		case e.File == "" || !fs.ValidPath(e.File):
			return Manifest{}, bad("no valid file path")
		case seen[e.File]:
			return Manifest{}, bad("listed twice")
		case e.Name == "" || e.Encoding == "" || e.Actions == "" || e.Recipe == "":
			return Manifest{}, bad("name, encoding, actions and recipe are required")
		case e.Status != Shipped && e.Status != Retired && e.Status != Value:
			return Manifest{}, bad(fmt.Sprintf("status %q, want %q, %q or %q", e.Status, Shipped, Retired, Value))
		case e.Players < 2 || e.Players > 5:
			return Manifest{}, bad(fmt.Sprintf("players %d", e.Players))
		case e.Rules != "base" && e.Rules != "classic":
			return Manifest{}, bad(fmt.Sprintf("rules %q, want base or classic", e.Rules))
		case e.Modules != "none" && e.Modules != "all":
			return Manifest{}, bad(fmt.Sprintf("modules %q, want none or all", e.Modules))
		case !date.MatchString(e.Made):
			return Manifest{}, bad(fmt.Sprintf("made %q is not a date YYYY-MM-DD", e.Made))
		case e.Strength != nil && (!date.MatchString(e.Strength.Measured) || e.Strength.Command == "" || e.Strength.Games <= 0):
			return Manifest{}, bad("strength needs a command, a number of games and the date measured")
		}
		for _, r := range e.Runs {
			if !fs.ValidPath(r) {
				return Manifest{}, bad(fmt.Sprintf("run record %q is not a path under models/", r))
			}
		}
		seen[e.File] = true
	}
	return m, nil
}

// Lookup returns the entry of the file (a path under models/).
func (m Manifest) Lookup(file string) (Model, bool) {
	i := slices.IndexFunc(m.Models, func(e Model) bool { return e.File == file })
	if i < 0 {
		return Model{}, false
	}
	return m.Models[i], true
}

// Shipped returns the shipped entries named name, in the manifest's order.
func (m Manifest) Shipped(name string) []Model { return m.withStatus(Shipped, name) }

// Values returns the value networks named name (status Value), in the manifest's order.
func (m Manifest) Values(name string) []Model { return m.withStatus(Value, name) }

func (m Manifest) withStatus(status, name string) []Model {
	var out []Model
	for _, e := range m.Models {
		if e.Status == status && e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// Open opens an embedded file: a shipped bot file, a value network or MANIFEST.json.
func Open(file string) (fs.File, error) {
	f, err := files.Open(file)
	if err != nil {
		return nil, fmt.Errorf("models: %s is not embedded in this build (only the shipped models and value/ are; retired/ is in the source tree): %w", file, err)
	}
	return f, nil
}

// ReadFile reads an embedded file: a shipped bot file, a value network or MANIFEST.json.
func ReadFile(file string) ([]byte, error) {
	data, err := files.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("models: %s is not embedded in this build (only the shipped models and value/ are; retired/ is in the source tree): %w", file, err)
	}
	return data, nil
}

// Embedded lists the embedded shipped bot files (the top folder's), sorted.
func Embedded() []string {
	names, _ := fs.Glob(files, "*.bot")
	return names
}

// Marshal writes the manifest as MANIFEST.json is stored (indented by one space, a final
// newline), so a program that edits entries rewrites the file with only those lines changed.
func (m Manifest) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
