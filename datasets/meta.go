package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/strictjson"
)

// FormatVersion is the version of the table layout this package writes. Version 2 stores
// the steps table's phase as a dictionary-encoded string (the phase name) where version 1
// stored the bare index into Meta.PhaseNames, and its action_text spells SailHarbor
// sail:harbor:pN where version 1 wrote sail:pN (docs/DATASETS.md, "Layout versions").
// Readers read every version from OldestFormatVersion and refuse any other.
const FormatVersion = 2

// OldestFormatVersion is the oldest table layout this package reads.
const OldestFormatVersion = 1

// Schema metadata keys. Every steps and games file carries all of them.
const (
	KeyFormatVersion   = "container.dataset_version"
	KeyEncodingVersion = "container.encoding_version"
	KeyObsDim          = "container.obs_dim"
	KeyFeatures        = "container.features"
	KeyNumActions      = "container.num_actions"
	KeyActionNames     = "container.action_names"
	KeyPhaseNames      = "container.phase_names"
	KeySeats           = "container.seats"
	KeyRulesOptions    = "container.rules_options"
	KeyToolVersion     = "container.tool_version"
	KeyMaskLayout      = "container.mask_layout"
	KeyTable           = "container.table"
	KeyPolicy          = "container.has_policy"
	KeyValue           = "container.has_value"
	KeyReward          = "container.reward"
)

// MaskLayout names the layout of the legal_mask column: action id i is bit i%8 of byte i/8
// (least significant bit first, the same bit order as Arrow validity bitmaps).
const MaskLayout = "bitmap-lsb0"

// Sentinel errors; every error this package returns for bad data wraps one of them.
var (
	// ErrEncodingVersion: the data was written with an observation encoding this reader does
	// not know (or a different one from the one requested).
	ErrEncodingVersion = errors.New("datasets: unknown encoding version")
	// ErrFormatVersion: the file uses a table layout version this package does not read.
	ErrFormatVersion = errors.New("datasets: unsupported dataset format version")
	// ErrCorrupt: a file or manifest is unreadable, truncated or inconsistent.
	ErrCorrupt = errors.New("datasets: corrupt dataset")
	// ErrInvalid: a record or option handed to a writer does not fit the dataset's shapes.
	ErrInvalid = errors.New("datasets: invalid input")
)

// Feature is one named slice of the observation vector.
type Feature struct {
	Name   string `json:"name"`
	Offset int    `json:"offset"`
	Size   int    `json:"size"`
}

// Meta describes a dataset: everything a reader needs to interpret every column. It is stored
// in the schema metadata of every file (keys Key*) and in the manifest.
type Meta struct {
	EncodingVersion string    `json:"encoding_version"`
	ObsDim          int       `json:"obs_dim"`
	Features        []Feature `json:"features"`
	NumActions      int       `json:"num_actions"`
	ActionNames     []string  `json:"action_names"`
	PhaseNames      []string  `json:"phase_names"`
	// Seats is the number of players; per-seat columns have this width.
	Seats int `json:"seats"`
	// RulesOptions is the rules options (rules.Options) as JSON, shared by every game of the
	// dataset up to the seed, which each game records.
	RulesOptions json.RawMessage `json:"rules_options"`
	// Reward names the reward scheme behind the reward and returns columns (e.g. "win-loss").
	Reward      string `json:"reward,omitempty"`
	ToolVersion string `json:"tool_version"`
	// Policy and Value say whether steps carry the behaviour policy's action probabilities
	// (column policy) and value estimate (column value).
	Policy bool `json:"has_policy"`
	Value  bool `json:"has_value"`
	// FormatVersion is the table layout of the file the Meta was read from (0 for a Meta not
	// read from a file: the current FormatVersion). Manifests do not record it.
	FormatVersion int `json:"-"`
}

// Validate checks the shapes are usable.
func (m *Meta) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: meta: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	switch {
	case m.EncodingVersion == "":
		return bad("empty encoding version")
	case m.ObsDim <= 0:
		return bad("observation width %d", m.ObsDim)
	case m.NumActions <= 0:
		return bad("%d actions", m.NumActions)
	case m.Seats <= 0:
		return bad("%d seats", m.Seats)
	case len(m.ActionNames) != 0 && len(m.ActionNames) != m.NumActions:
		return bad("%d action names for %d actions", len(m.ActionNames), m.NumActions)
	case len(m.PhaseNames) > 256:
		return bad("%d phases (at most 256)", len(m.PhaseNames))
	}
	for _, f := range m.Features {
		if f.Offset < 0 || f.Size < 0 || f.Offset+f.Size > m.ObsDim {
			return bad("feature %q [%d,+%d) outside the observation width %d", f.Name, f.Offset, f.Size, m.ObsDim)
		}
	}
	if len(m.RulesOptions) != 0 && !json.Valid(m.RulesOptions) {
		return bad("rules options are not valid JSON")
	}
	return nil
}

// MaskBytes is the width in bytes of one legal_mask value.
func (m *Meta) MaskBytes() int { return (m.NumActions + 7) / 8 }

// metadata renders m as schema metadata for the given table ("steps" or "games").
func (m *Meta) metadata(table string) arrow.Metadata {
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err) // plain slices of strings and structs always marshal
		}
		return string(b)
	}
	opts := string(m.RulesOptions)
	if opts == "" {
		opts = "{}"
	}
	kv := map[string]string{
		KeyFormatVersion:   strconv.Itoa(FormatVersion),
		KeyEncodingVersion: m.EncodingVersion,
		KeyObsDim:          strconv.Itoa(m.ObsDim),
		KeyFeatures:        js(nonNil(m.Features)),
		KeyNumActions:      strconv.Itoa(m.NumActions),
		KeyActionNames:     js(nonNil(m.ActionNames)),
		KeyPhaseNames:      js(nonNil(m.PhaseNames)),
		KeySeats:           strconv.Itoa(m.Seats),
		KeyRulesOptions:    opts,
		KeyToolVersion:     m.ToolVersion,
		KeyMaskLayout:      MaskLayout,
		KeyTable:           table,
		KeyPolicy:          strconv.FormatBool(m.Policy),
		KeyValue:           strconv.FormatBool(m.Value),
		KeyReward:          m.Reward,
	}
	return arrow.MetadataFrom(kv)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// metaFromSchema reads Meta back from a file's schema metadata and checks the format version.
// It does not check the encoding version (see checkEncoding).
func metaFromSchema(md arrow.Metadata, table string) (*Meta, error) {
	get := func(k string) (string, error) {
		i := md.FindKey(k)
		if i < 0 {
			return "", fmt.Errorf("%w: schema metadata has no %s", ErrCorrupt, k)
		}
		return md.Values()[i], nil
	}
	atoi := func(k string) (int, error) {
		s, err := get(k)
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%w: schema metadata %s=%s is not an integer", ErrCorrupt, k, rules.Quote(s))
		}
		return n, nil
	}
	fv, err := get(KeyFormatVersion)
	if err != nil {
		return nil, fmt.Errorf("%w (not a container dataset file?)", err)
	}
	version, err := strconv.Atoi(fv)
	if err != nil || version < OldestFormatVersion || version > FormatVersion {
		return nil, fmt.Errorf("%w: file has version %s, this reader reads %d to %d", ErrFormatVersion, rules.Quote(fv), OldestFormatVersion, FormatVersion)
	}
	if t, err := get(KeyTable); err != nil {
		return nil, err
	} else if t != table {
		return nil, fmt.Errorf("%w: expected a %s table, file holds a %s table", ErrCorrupt, table, t)
	}
	if l, err := get(KeyMaskLayout); err != nil {
		return nil, err
	} else if l != MaskLayout {
		return nil, fmt.Errorf("%w: mask layout %s (want %s)", ErrFormatVersion, rules.Quote(l), rules.Quote(MaskLayout))
	}
	m := &Meta{FormatVersion: version}
	if m.EncodingVersion, err = get(KeyEncodingVersion); err != nil {
		return nil, err
	}
	if m.ObsDim, err = atoi(KeyObsDim); err != nil {
		return nil, err
	}
	if m.NumActions, err = atoi(KeyNumActions); err != nil {
		return nil, err
	}
	if m.Seats, err = atoi(KeySeats); err != nil {
		return nil, err
	}
	if m.ToolVersion, err = get(KeyToolVersion); err != nil {
		return nil, err
	}
	for _, j := range []struct {
		key string
		dst any
	}{{KeyFeatures, &m.Features}, {KeyActionNames, &m.ActionNames}, {KeyPhaseNames, &m.PhaseNames}} {
		s, err := get(j.key)
		if err != nil {
			return nil, err
		}
		if err := strictjson.Decode([]byte(s), j.dst); err != nil {
			return nil, fmt.Errorf("%w: schema metadata %s: %v", ErrCorrupt, j.key, err)
		}
	}
	if i := md.FindKey(KeyReward); i >= 0 {
		m.Reward = md.Values()[i]
	}
	opts, err := get(KeyRulesOptions)
	if err != nil {
		return nil, err
	}
	m.RulesOptions = json.RawMessage(opts)
	for _, b := range []struct {
		key string
		dst *bool
	}{{KeyPolicy, &m.Policy}, {KeyValue, &m.Value}} {
		s, err := get(b.key)
		if err != nil {
			return nil, err
		}
		if *b.dst, err = strconv.ParseBool(s); err != nil {
			return nil, fmt.Errorf("%w: schema metadata %s=%s is not a boolean", ErrCorrupt, b.key, rules.Quote(s))
		}
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return m, nil
}

// sameShape reports whether two metas describe the same columns.
func (m *Meta) sameShape(o *Meta) bool {
	return m.EncodingVersion == o.EncodingVersion && m.ObsDim == o.ObsDim && m.Reward == o.Reward &&
		m.NumActions == o.NumActions && m.Seats == o.Seats && m.Policy == o.Policy && m.Value == o.Value
}
