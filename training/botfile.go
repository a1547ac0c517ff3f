package training

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/container-rl/container/internal/atomicfile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/models"
)

// ErrIncompatible is wrapped when a bot file was trained for another observation encoding,
// action space or rules options than the ones it is asked to play.
var ErrIncompatible = errors.New("training: bot is incompatible")

// BotFormat and BotFormatVersion identify bot files.
const (
	BotFormat        = "container-bot"
	BotFormatVersion = 1
	botMagic         = "CNTRBOT1"
)

// KindRange is the id range of one move kind in the action space.
type KindRange struct {
	Kind  int `json:"kind"`
	First int `json:"first"`
	Count int `json:"count"`
}

// ActionLayout records the action space a network was trained on.
type ActionLayout struct {
	// Version is rules.ActionLayoutVersion; files written before it existed leave it out and
	// were trained on actions-v1 (240 ids, no +$100 id).
	Version    string      `json:"version,omitempty"`
	NumActions int         `json:"num_actions"`
	Kinds      []KindRange `json:"kinds"`
}

// version is the layout's version name ("actions-v1" when the file does not say).
func (l ActionLayout) version() string {
	if l.Version == "" {
		return "actions-v1"
	}
	return l.Version
}

// CurrentActionLayout is the rules engine's action space.
func CurrentActionLayout() ActionLayout {
	l := ActionLayout{Version: rules.ActionLayoutVersion, NumActions: rules.NumDistinctActions()}
	for k := rules.MoveKind(0); k < rules.NumMoveKinds; k++ {
		first, count := rules.KindBase(k)
		l.Kinds = append(l.Kinds, KindRange{Kind: int(k), First: first, Count: count})
	}
	return l
}

// Equal reports whether two layouts are the same.
func (l ActionLayout) Equal(o ActionLayout) bool {
	return l.version() == o.version() && l.NumActions == o.NumActions && slices.Equal(l.Kinds, o.Kinds)
}

// TrainingInfo is free-form provenance stored in a bot file.
type TrainingInfo struct {
	Run      string   `json:"run,omitempty"`
	Method   string   `json:"method,omitempty"` // "bc" or "ppo"
	Steps    int64    `json:"steps,omitempty"`
	Seconds  float64  `json:"seconds,omitempty"`
	Commands []string `json:"commands,omitempty"`
	Notes    string   `json:"notes,omitempty"`
}

// BotHeader is the JSON header of a bot file.
type BotHeader struct {
	Format          string        `json:"format"`
	FormatVersion   int           `json:"format_version"`
	Name            string        `json:"name"`
	Net             NetConfig     `json:"net"`
	EncodingVersion string        `json:"encoding_version"`
	Actions         ActionLayout  `json:"actions"`
	Rules           rules.Options `json:"rules"`
	Training        TrainingInfo  `json:"training"`
	Tensors         []tensorInfo  `json:"tensors"`
	// Features and ActionNames name the network's inputs (encoding.Spec.Columns) and its
	// action ids (rules.ActionName) in order, so that any later build can upgrade the file by
	// name (UpgradeTo) whatever layout it then has. Write fills them in for the layouts this
	// build knows; files written before they were recorded leave them out.
	Features    []string `json:"features,omitempty"`
	ActionNames []string `json:"action_names,omitempty"`
}

// BotFile is a loaded (or to be written) bot: header plus weights.
type BotFile struct {
	Header  BotHeader
	Weights *Weights
}

// Write writes the bot file; the header's format fields and tensor list are filled in.
func (b *BotFile) Write(w io.Writer) error {
	if err := b.Weights.Check(); err != nil {
		return err
	}
	h := b.Header
	h.Format, h.FormatVersion, h.Net = BotFormat, BotFormatVersion, b.Weights.Config
	h.Tensors = nil
	if h.Features == nil {
		if names, ok := knownFeatureNames(h.EncodingVersion, h.Rules); ok && len(names) == h.Net.ObsDim {
			h.Features = names
		}
	}
	if h.ActionNames == nil {
		if names, ok := knownActionNames(h.Actions); ok && len(names) == h.Net.NumActions {
			h.ActionNames = names
		}
	}
	if (h.Features != nil && len(h.Features) != h.Net.ObsDim) || (h.ActionNames != nil && len(h.ActionNames) != h.Net.NumActions) {
		return fmt.Errorf("training: the header names %d inputs and %d actions for a network of %d and %d", len(h.Features), len(h.ActionNames), h.Net.ObsDim, h.Net.NumActions)
	}
	var raws []rawTensor
	for i, p := range h.Net.Params() {
		ti := tensorInfo{Name: p.Name, DType: "float32", Shape: p.Shape}
		h.Tensors = append(h.Tensors, ti)
		raws = append(raws, rawTensor{info: ti, data: float32Bytes(b.Weights.Tensors[i])})
	}
	return writeContainer(w, botMagic, &h, raws)
}

// WriteFile writes the bot file atomically (temporary file and rename).
func (b *BotFile) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// ReadBot reads a bot file. Any malformed, truncated or inconsistent input gives an error
// wrapping ErrCorrupt (or ErrConfig for a network outside the limits); it never panics, and
// memory use is bounded by the input's actual length.
func ReadBot(r io.Reader) (*BotFile, error) {
	var h BotHeader
	raws, err := readContainer(r, botMagic, &h, func() []tensorInfo { return h.Tensors })
	if err != nil {
		return nil, err
	}
	if h.Format != BotFormat || h.FormatVersion != BotFormatVersion {
		return nil, fmt.Errorf("%w: format %q version %d (want %q version %d)", ErrCorrupt, h.Format, h.FormatVersion, BotFormat, BotFormatVersion)
	}
	if err := h.Net.Validate(); err != nil {
		return nil, err
	}
	ps := h.Net.Params()
	if len(ps) != len(raws) {
		return nil, fmt.Errorf("%w: %d tensors for a network with %d", ErrCorrupt, len(raws), len(ps))
	}
	w := &Weights{Config: h.Net}
	for i, p := range ps {
		ti := raws[i].info
		if ti.Name != p.Name || ti.DType != "float32" || !slices.Equal(ti.Shape, p.Shape) {
			return nil, fmt.Errorf("%w: tensor %d is %s %s%v, want %s float32%v", ErrCorrupt, i, ti.Name, ti.DType, ti.Shape, p.Name, p.Shape)
		}
		w.Tensors = append(w.Tensors, bytesFloat32(raws[i].data))
	}
	if err := w.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if h.Actions.NumActions != h.Net.NumActions {
		return nil, fmt.Errorf("%w: action layout has %d actions, network %d", ErrCorrupt, h.Actions.NumActions, h.Net.NumActions)
	}
	if h.Features != nil && len(h.Features) != h.Net.ObsDim {
		return nil, fmt.Errorf("%w: the header names %d inputs, the network reads %d", ErrCorrupt, len(h.Features), h.Net.ObsDim)
	}
	if h.ActionNames != nil && len(h.ActionNames) != h.Net.NumActions {
		return nil, fmt.Errorf("%w: the header names %d actions, the network writes %d", ErrCorrupt, len(h.ActionNames), h.Net.NumActions)
	}
	return &BotFile{Header: h, Weights: w}, nil
}

// ReadBotFile reads a bot file from disk.
func ReadBotFile(path string) (*BotFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("training: %w%s", err, movedModelHint(path, err))
	}
	defer f.Close()
	b, err := ReadBot(f)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return b, nil
}

// CheckCompatible verifies the bot was trained for this encoding version and observation
// width, this action space and these rules options (the seed and turn limit aside).
func (b *BotFile) CheckCompatible(encodingVersion string, obsDim int, actions ActionLayout, opts rules.Options) error {
	h := b.Header
	if h.EncodingVersion != encodingVersion || b.Weights.Config.ObsDim != obsDim {
		return fmt.Errorf("%w: trained for observation encoding %q (%d features) and action layout %s (%d ids), this build uses %q (%d features) and %s (%d ids); %s",
			ErrIncompatible, h.EncodingVersion, b.Weights.Config.ObsDim, h.Actions.version(), h.Actions.NumActions,
			encodingVersion, obsDim, actions.version(), actions.NumActions, remedy(b))
	}
	if !h.Actions.Equal(actions) {
		return fmt.Errorf("%w: trained for action layout %s (%d ids), this build uses %s (%d ids); %s",
			ErrIncompatible, h.Actions.version(), h.Actions.NumActions, actions.version(), actions.NumActions, remedy(b))
	}
	if !sameRulesOptions(h.Rules, opts) {
		return fmt.Errorf("%w: trained for rules options %s, this game uses %s (%s)", ErrIncompatible,
			describeOptions(h.Rules), describeOptions(opts), optionsDiff(h.Rules, opts))
	}
	return nil
}

// remedy says what to do with a bot of another layout: one whose inputs and actions can be
// named (recorded in the file, or of a version this build knows) can be upgraded without
// training (UpgradeBot), any other retrained.
func remedy(b *BotFile) string {
	if _, err := FileLayout(b); err == nil {
		return "upgrade it without training (container export --upgrade OLD.bot --out NEW.bot) or retrain it (docs/TRAINING.md)"
	}
	return "retrain it (docs/TRAINING.md)"
}

// sameRulesOptions compares rules options with the seed and turn limit aside.
func sameRulesOptions(a, o rules.Options) bool {
	a.Seed, o.Seed, a.TurnLimit, o.TurnLimit = 0, 0, 0, 0
	return a == o
}

// optionsDiff names what differs between the options a bot was trained for and a game's.
func optionsDiff(trained, game rules.Options) string {
	var d []string
	add := func(what string, a, b any) {
		if a != b {
			d = append(d, fmt.Sprintf("%s %v, not %v", what, b, a))
		}
	}
	add("players", trained.Players, game.Players)
	add("rules", trained.Variant, game.Variant)
	add("length", trained.Length, game.Length)
	tm, gm := trained.Modules.String(), game.Modules.String()
	if tm == "" {
		tm = "none"
	}
	if gm == "" {
		gm = "none"
	}
	add("modules", tm, gm)
	add("supply", fmt.Sprintf("%d/%d/%d/%d", trained.ContainersPerColour, trained.GoldContainers, trained.Warehouses, trained.FactoriesPerColour),
		fmt.Sprintf("%d/%d/%d/%d", game.ContainersPerColour, game.GoldContainers, game.Warehouses, game.FactoriesPerColour))
	if len(d) == 0 {
		return "other rules options differ"
	}
	return "this game has " + strings.Join(d, "; ")
}

func describeOptions(o rules.Options) string {
	mods := o.Modules.String()
	if mods == "" {
		mods = "none"
	}
	return fmt.Sprintf("{players %d, %s, %s, modules %s, supply %d/%d/%d/%d}", o.Players, o.Variant, o.Length, mods,
		o.ContainersPerColour, o.GoldContainers, o.Warehouses, o.FactoriesPerColour)
}

// writeFileAtomic writes data to path through a temporary file in the same directory.
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("training: write %s: %w", path, err)
	}
	return nil
}

// movedModelHint points a missing path under training/ that names a file of package models
// (training/default.bot, training/retired/default-3p.bot: where the shipped models were kept
// before they moved to models/) to the file's place now; "" for any other path or error.
func movedModelHint(path string, err error) string {
	if !errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	p := filepath.ToSlash(filepath.Clean(path))
	i := strings.LastIndex("/"+p, "/training/")
	if i < 0 {
		return ""
	}
	rest := p[i+len("training/"):]
	m, merr := models.Load()
	if merr != nil {
		return ""
	}
	if _, ok := m.Lookup(rest); !ok {
		return ""
	}
	return fmt.Sprintf(" (the shipped models moved from training/ to models/: use %s)", filepath.FromSlash(p[:i]+"models/"+rest))
}
