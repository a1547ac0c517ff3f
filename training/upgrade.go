package training

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// ErrUpgrade is wrapped by every error of the bot upgrade: a file whose layout cannot be named,
// or that is already this build's layout.
var ErrUpgrade = errors.New("training: cannot upgrade bot")

// UpgradeNewActionBias is the policy bias given to action ids that did not exist in the old
// layout (such as the +$100 id): with zero weights its logit is this constant, so the upgraded
// network practically never chooses it (exp(-30) against the other legal ids), just as the
// old network could not, until training moves it.
const UpgradeNewActionBias = -30

// Layout names what a network's inputs and outputs mean: the observation version with one
// name per input (encoding.Spec.Columns: "group.label"), and the action layout with one name
// per action id (rules.ActionName, as encoding.Spec.ActionNames).
type Layout struct {
	Encoding    string
	Features    []string
	Actions     ActionLayout
	ActionNames []string
}

// CurrentLayout is this build's layout for the rules options and observation variant.
func CurrentLayout(o rules.Options, eo encoding.Options) (Layout, error) {
	spec, err := encoding.NewSpecWith(o, eo)
	if err != nil {
		return Layout{}, err
	}
	acts := CurrentActionLayout()
	if len(spec.ActionNames) != acts.NumActions {
		return Layout{}, fmt.Errorf("training: the spec names %d actions, the action layout has %d", len(spec.ActionNames), acts.NumActions)
	}
	return Layout{Encoding: spec.Version, Features: spec.Columns(), Actions: acts, ActionNames: slices.Clone(spec.ActionNames)}, nil
}

// observationVariant is the observation variant of a version, by its name: every version of
// the hidden-cash variant ends in "-hidden-cash" (encoding.HiddenCashVersion, and
// encoding.HiddenCashVersionV1 before it).
func observationVariant(version string) encoding.Options {
	return encoding.Options{HideOpponentCash: strings.HasSuffix(version, "-hidden-cash")}
}

// knownFeatureNames returns the input names of an observation version this build knows (its
// own, or the previous one it upgrades from) for the rules options, or ok false.
func knownFeatureNames(version string, o rules.Options) ([]string, bool) {
	if o.Validate() != nil {
		return nil, false
	}
	if eo, err := encoding.OptionsForVersion(version); err == nil {
		if s, err := encoding.NewSpecWith(o, eo); err == nil {
			return s.Columns(), true
		}
		return nil, false
	}
	if _, ok := encoding.UpgradedVersion(version); ok {
		if s, err := encoding.NewSpecV1(o, observationVariant(version)); err == nil {
			return s.Columns(), true
		}
	}
	return nil, false
}

// knownActionNames names the ids of an action layout by its move kinds: kind K's ids are named
// as this build names kind K's ids (kinds keep their number; ids keep their order within a
// kind). ok false when the layout does not cover its ids exactly once with kinds this build
// has, at their sizes here.
func knownActionNames(l ActionLayout) ([]string, bool) {
	if l.NumActions <= 0 || l.NumActions > 1<<20 {
		return nil, false
	}
	names := make([]string, l.NumActions)
	for _, k := range l.Kinds {
		if k.Kind < 0 || k.Kind >= int(rules.NumMoveKinds) {
			return nil, false
		}
		first, count := rules.KindBase(rules.MoveKind(k.Kind))
		if k.Count != count || k.First < 0 || k.First+k.Count > l.NumActions {
			return nil, false
		}
		for i := range count {
			if names[k.First+i] != "" {
				return nil, false
			}
			names[k.First+i] = rules.ActionName(first + i)
		}
	}
	if slices.Contains(names, "") {
		return nil, false
	}
	return names, true
}

// FileLayout is the layout a bot file's network was trained on: the names its header records
// or, for a file written before headers recorded them, the names of its versions as this build
// knows them. An error wrapping ErrUpgrade when neither gives names that fit the network.
func FileLayout(b *BotFile) (Layout, error) {
	h := b.Header
	l := Layout{Encoding: h.EncodingVersion, Features: h.Features, Actions: h.Actions, ActionNames: h.ActionNames}
	if l.Features == nil {
		names, ok := knownFeatureNames(h.EncodingVersion, h.Rules)
		if !ok {
			return Layout{}, fmt.Errorf("%w: it reads observation %s, whose feature names the file does not record and this build does not know (it knows %s and %s); retrain it (docs/TRAINING.md)",
				ErrUpgrade, rules.Quote(h.EncodingVersion), strings.Join(encoding.Versions(), ", "), strings.Join([]string{encoding.VersionV1, encoding.HiddenCashVersionV1}, ", "))
		}
		l.Features = names
	}
	if len(l.Features) != b.Weights.Config.ObsDim {
		return Layout{}, fmt.Errorf("%w: the network reads %d features, but %s has %d for %s", ErrUpgrade,
			b.Weights.Config.ObsDim, h.EncodingVersion, len(l.Features), describeOptions(h.Rules))
	}
	if l.ActionNames == nil {
		names, ok := knownActionNames(h.Actions)
		if !ok {
			return Layout{}, fmt.Errorf("%w: the file's action layout %s (%d ids) does not name its ids and its move kinds do not cover them as this build's kinds do",
				ErrUpgrade, h.Actions.version(), h.Actions.NumActions)
		}
		l.ActionNames = names
	}
	if len(l.ActionNames) != b.Weights.Config.NumActions {
		return Layout{}, fmt.Errorf("%w: the network writes %d actions, but its layout names %d", ErrUpgrade, b.Weights.Config.NumActions, len(l.ActionNames))
	}
	for what, names := range map[string][]string{"feature": l.Features, "action": l.ActionNames} {
		if d := duplicate(names); d != "" {
			return Layout{}, fmt.Errorf("%w: %s name %s appears twice in the file's layout", ErrUpgrade, what, rules.Quote(d))
		}
	}
	return l, nil
}

// duplicate returns a name that appears twice ("" when none does).
func duplicate(names []string) string {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return n
		}
		seen[n] = true
	}
	return ""
}

// sameLayout reports whether two layouts name the same inputs and outputs in the same order.
func sameLayout(a, b Layout) bool {
	return a.Encoding == b.Encoding && a.Actions.Equal(b.Actions) && slices.Equal(a.Features, b.Features) && slices.Equal(a.ActionNames, b.ActionNames)
}

// UpgradeReport counts what an upgrade did, by name.
type UpgradeReport struct {
	Kept, NewFeatures, DroppedFeatures int // inputs
	KeptActions, NewActions, Dropped   int // action ids
}

func (r UpgradeReport) String() string {
	return fmt.Sprintf("%d inputs kept, %d new (zero weight), %d dropped; %d actions kept, %d new (logit bias %d), %d dropped",
		r.Kept, r.NewFeatures, r.DroppedFeatures, r.KeptActions, r.NewActions, UpgradeNewActionBias, r.Dropped)
}

// indexMap maps each old name's position to the new position of the same name (-1: gone)
// and counts the new names.
func indexMap(old, cur []string) (m []int, kept, added int) {
	at := make(map[string]int, len(cur))
	for i, n := range cur {
		at[n] = i
	}
	m = make([]int, len(old))
	for i, n := range old {
		j, ok := at[n]
		if !ok {
			j = -1
		} else {
			kept++
		}
		m[i] = j
	}
	return m, kept, len(cur) - kept
}

// UpgradeTo maps the network of b onto the layout to, by name and without training: the
// first layer's weight row of every input whose name is in to moves to that name's position,
// inputs new in to get zero rows, inputs gone from it are dropped; the policy head's column
// and bias of every action id move the same way by action name, ids new in to get zero
// weights and bias UpgradeNewActionBias (masked until trained), ids gone are dropped; every
// other weight (the trunk past its first layer, the value head) is copied. On a position
// where every new input is 0 and no new action is legal, the upgraded network's values and
// its policy over the legal ids equal the old network's. The header's name, rules and
// training notes are kept; the layout is to's.
func UpgradeTo(b *BotFile, to Layout) (*BotFile, UpgradeReport, error) {
	from, err := FileLayout(b)
	if err != nil {
		return nil, UpgradeReport{}, err
	}
	if len(to.ActionNames) != to.Actions.NumActions {
		return nil, UpgradeReport{}, fmt.Errorf("%w: the target layout names %d of its %d actions", ErrUpgrade, len(to.ActionNames), to.Actions.NumActions)
	}
	for what, names := range map[string][]string{"feature": to.Features, "action": to.ActionNames} {
		if d := duplicate(names); d != "" {
			return nil, UpgradeReport{}, fmt.Errorf("%w: %s name %s appears twice in the target layout", ErrUpgrade, what, rules.Quote(d))
		}
	}
	var rep UpgradeReport
	rowMap, kept, added := indexMap(from.Features, to.Features)
	rep.Kept, rep.NewFeatures, rep.DroppedFeatures = kept, added, len(from.Features)-kept
	actionMap, keptA, addedA := indexMap(from.ActionNames, to.ActionNames)
	rep.KeptActions, rep.NewActions, rep.Dropped = keptA, addedA, len(from.ActionNames)-keptA

	oldCfg := b.Weights.Config
	cfg := oldCfg
	cfg.ObsDim, cfg.NumActions = len(to.Features), len(to.ActionNames)
	if err := cfg.Validate(); err != nil {
		return nil, UpgradeReport{}, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	oldPs := oldCfg.Params()
	w := &Weights{Config: cfg}
	for k, p := range cfg.Params() {
		src, op := b.Weights.Tensors[k], oldPs[k]
		if op.Name != p.Name {
			return nil, UpgradeReport{}, fmt.Errorf("%w: tensor %d is %s, want %s", ErrUpgrade, k, op.Name, p.Name)
		}
		rows, cols := 1, op.Shape[0]
		if len(op.Shape) == 2 {
			rows, cols = op.Shape[0], op.Shape[1]
		}
		newCols := p.Shape[len(p.Shape)-1]
		// The first layer's rows are the inputs: trunk0_w, or both heads of a network with no trunk.
		inputRows := len(op.Shape) == 2 && (p.Name == "trunk0_w" || oldCfg.Depth == 0)
		actionCols := strings.HasPrefix(p.Name, "policy_")
		dst := make([]float32, p.Size())
		for r := range rows {
			nr := r
			if inputRows {
				if nr = rowMap[r]; nr < 0 {
					continue
				}
			}
			for c := range cols {
				nc := c
				if actionCols {
					if nc = actionMap[c]; nc < 0 {
						continue
					}
				}
				dst[nr*newCols+nc] = src[r*cols+c]
			}
		}
		if p.Name == "policy_b" {
			for a := range dst {
				if !slices.Contains(actionMap, a) {
					dst[a] = UpgradeNewActionBias
				}
			}
		}
		w.Tensors = append(w.Tensors, dst)
	}
	if err := w.Check(); err != nil {
		return nil, UpgradeReport{}, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	h := b.Header
	nb := &BotFile{Header: BotHeader{Name: h.Name, Net: cfg, EncodingVersion: to.Encoding, Actions: to.Actions, Rules: h.Rules,
		Training: h.Training, Features: slices.Clone(to.Features), ActionNames: slices.Clone(to.ActionNames)}, Weights: w}
	nb.Header.Training.Commands = slices.Clone(h.Training.Commands)
	return nb, rep, nil
}

// UpgradeBot upgrades a bot file of any layout whose names are known (recorded in the file, or
// of the versions this build knows, such as obs-v1 / actions-v1) to this build's layout for
// its rules options and observation variant (UpgradeTo), and says so in its notes: source
// names the old file there. A file already on this build's layout is refused (nothing to
// upgrade), as is one whose layout cannot be named; each error wraps ErrUpgrade (or
// ErrCorrupt for a file that is not a bot file at all).
func UpgradeBot(old []byte, source string) (*BotFile, error) {
	b, err := ReadBot(bytes.NewReader(old))
	if err != nil {
		return nil, err
	}
	h := b.Header
	if err := h.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("%w: the file's rules options: %v", ErrUpgrade, err)
	}
	from, err := FileLayout(b)
	if err != nil {
		return nil, err
	}
	to, err := CurrentLayout(h.Rules, observationVariant(h.EncodingVersion))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	if sameLayout(from, to) {
		return nil, fmt.Errorf("%w: it is already %s / %s, nothing to upgrade", ErrUpgrade, to.Encoding, to.Actions.version())
	}
	nb, rep, err := UpgradeTo(b, to)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(old)
	note := fmt.Sprintf("Upgraded from %s (%s, %s, sha256 %x) to %s / %s without retraining, by name: %s",
		source, h.EncodingVersion, h.Actions.version(), sum[:8], to.Encoding, to.Actions.version(), rep)
	if n := strings.TrimSpace(h.Training.Notes); n != "" {
		if !strings.HasSuffix(n, ".") {
			n += "."
		}
		note = n + " " + note
	}
	nb.Header.Training.Notes = note
	return nb, nil
}

// UpgradeBotFile is UpgradeBot returning the upgraded file's bytes.
func UpgradeBotFile(old []byte, source string) ([]byte, error) {
	b, err := UpgradeBot(old, source)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
