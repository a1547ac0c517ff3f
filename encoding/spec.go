package encoding

import (
	"errors"
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// Version names the observation layout. Any change to the features, their order, scales or
// bounds changes it; datasets and exported bots record it and refuse a mismatch. obs-v2 added
// decision.amount_base (the amount built with +$100 in an amount decision, docs/ENV.md).
// turn.steps counts public decisions (rules.State.PublicSteps: +$100 presses not counted, as
// obs-v1 counted one decision per amount); that fix kept the layout and so the version.
const Version = "obs-v2"

// OracleVersion names the oracle (all-information) layout: the observation layout read from
// the unredacted state.
const OracleVersion = "obs-v2-oracle"

// HiddenCashVersion names the observation with opponents' cash hidden (Options
// HideOpponentCash): the layout of Version, with every opponent's cash feature 0 and their
// public score counted without their cash. A network trained on one cannot read the other,
// so datasets and bots record which one they use.
const HiddenCashVersion = "obs-v2-hidden-cash"

// Options select a variant of the observation; the zero value is the standard one.
type Options struct {
	// HideOpponentCash hides how much cash the other players hold. Cash in hand is secret at
	// the table but every change to it is public, so the standard observation (perfect
	// recall) shows it; hiding it models a player who does not keep count (rulings,
	// CLARIFICATIONS.md, "Cash in hand").
	HideOpponentCash bool `json:"hide_opponent_cash,omitempty"`
}

// Version is the encoding version these options produce.
func (o Options) Version() string {
	if o.HideOpponentCash {
		return HiddenCashVersion
	}
	return Version
}

// Versions lists the observation versions this build can encode.
func Versions() []string { return []string{Version, HiddenCashVersion} }

// OptionsForVersion returns the options that encode the given version, or an error wrapping
// ErrVersion for a version this build does not encode.
func OptionsForVersion(version string) (Options, error) {
	switch version {
	case Version:
		return Options{}, nil
	case HiddenCashVersion:
		return Options{HideOpponentCash: true}, nil
	}
	return Options{}, fmt.Errorf("%w: %s is not an observation this build encodes (it encodes %s)", ErrVersion, rules.Quote(version), strings.Join(Versions(), ", "))
}

// ErrBufferSize is wrapped by errors for a destination buffer of the wrong length.
var ErrBufferSize = errors.New("encoding: buffer has the wrong length")

// ErrSeat is wrapped by errors for an observer seat outside the game.
var ErrSeat = errors.New("encoding: no such seat")

// ErrVersion is wrapped by errors for a spec recorded under another encoding version.
var ErrVersion = errors.New("encoding: observation version mismatch")

// Feature is one named group of consecutive observation entries.
type Feature struct {
	// Name is the group's name, e.g. "p1.harbor_lots" (p0 is the observer, p1 the next seat
	// clockwise, and so on).
	Name string `json:"name"`
	// Offset is the index of the group's first entry in the observation vector.
	Offset int `json:"offset"`
	// Size is the number of entries.
	Size int `json:"size"`
	// Labels name each entry within the group; the column name of entry i is Name+"."+Labels[i].
	Labels []string `json:"labels"`
	// Low and High bound every entry of the group (the env checker verifies them).
	Low  float32 `json:"low"`
	High float32 `json:"high"`
	// Scale is the raw quantity (dollars, containers, ...) one unit of the feature stands for;
	// 0 for flags and one-hot groups.
	Scale float32 `json:"scale,omitempty"`
	// Doc says what the group holds.
	Doc string `json:"doc"`
}

// Spec describes an observation layout for one set of rules options.
type Spec struct {
	Version    string        `json:"version"`
	Options    rules.Options `json:"options"`
	Size       int           `json:"size"`
	NumActions int           `json:"num_actions"`
	Features   []Feature     `json:"features"`
	// ActionNames is a generic name per action id (see ActionName).
	ActionNames []string `json:"action_names"`
}

// Columns returns one name per observation entry.
func (s *Spec) Columns() []string {
	cols := make([]string, 0, s.Size)
	for _, f := range s.Features {
		for _, l := range f.Labels {
			cols = append(cols, f.Name+"."+l)
		}
	}
	return cols
}

// Feature returns the group with the given name.
func (s *Spec) Feature(name string) (Feature, bool) {
	for _, f := range s.Features {
		if f.Name == name {
			return f, true
		}
	}
	return Feature{}, false
}

// Bounds fills low and high (each of length Size) with every entry's documented bounds.
func (s *Spec) Bounds() (low, high []float32) {
	low = make([]float32, s.Size)
	high = make([]float32, s.Size)
	for _, f := range s.Features {
		for i := 0; i < f.Size; i++ {
			low[f.Offset+i], high[f.Offset+i] = f.Low, f.High
		}
	}
	return low, high
}

// Check returns an error wrapping ErrVersion unless version and size match this spec.
// Loaders of datasets and bots call it with what the file recorded.
func (s *Spec) Check(version string, size int) error {
	if version != s.Version {
		return fmt.Errorf("%w: recorded %s, this build encodes %s", ErrVersion, rules.Quote(version), rules.Quote(s.Version))
	}
	if size != s.Size {
		return fmt.Errorf("%w: recorded %d features, this build encodes %d for these options", ErrVersion, size, s.Size)
	}
	return nil
}

// NewSpec returns the observation spec for the options (invalid options are an error).
func NewSpec(o rules.Options) (Spec, error) { return NewSpecWith(o, Options{}) }

// NewSpecWith returns the spec of the observation variant eo for the rules options: the same
// features, under eo.Version().
func NewSpecWith(o rules.Options, eo Options) (Spec, error) {
	g, err := rules.NewGame(o)
	if err != nil {
		return Spec{}, fmt.Errorf("encoding: %w", err)
	}
	return *NewEncoderWith(g, eo).Spec(), nil
}

// NewOracleSpec returns the oracle spec: the same features under OracleVersion.
func NewOracleSpec(o rules.Options) (Spec, error) {
	s, err := NewSpec(o)
	s.Version = OracleVersion
	return s, err
}

// String renders the spec as a table: offset, size, bounds, name, doc.
func (s *Spec) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d features, %d actions (%s)\n", s.Version, s.Size, s.NumActions, describeOptions(s.Options))
	for _, f := range s.Features {
		fmt.Fprintf(&b, "%4d %3d [%g,%g] %-28s %s\n", f.Offset, f.Size, f.Low, f.High, f.Name, f.Doc)
	}
	return b.String()
}

func describeOptions(o rules.Options) string {
	m := o.Modules.String()
	if m == "" {
		m = "no modules"
	}
	return fmt.Sprintf("%d players, %s, %s, %s", o.Players, o.Variant, o.Length, m)
}
