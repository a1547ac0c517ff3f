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

// ErrUpgrade is wrapped by every error of UpgradeBot: a file that is not an obs-v1 /
// actions-v1 bot this build can map onto its own layout.
var ErrUpgrade = errors.New("training: cannot upgrade bot")

// UpgradeNewActionBias is the policy bias given to action ids that did not exist in the old
// layout (the +$100 id): with zero weights its logit is this constant, so the upgraded
// network practically never chooses it (exp(-30) against the other legal ids), just as the
// old network could not.
const UpgradeNewActionBias = -30

// UpgradeBot maps a network trained on observation obs-v1 and action layout actions-v1 onto
// this build's obs-v2 / actions-v2, without training: the first layer's weight row of every
// obs-v1 entry moves to the same entry (group name and label) in obs-v2, the rows of the
// entries obs-v2 added are zero, the policy head gains a zero-weight column with bias
// UpgradeNewActionBias for each new action id, and every other weight is copied. On a
// position where the new entries are 0 (no amount built with +$100, no player loan offered
// this turn), the upgraded network's value and its policy over the old ids equal the old
// network's. source names the old file in the upgraded file's notes. The old file must be a
// valid bot file of the previous versions; anything else is an error wrapping ErrUpgrade (or
// ErrCorrupt for a file that is not a bot file at all).
func UpgradeBot(old []byte, source string) (*BotFile, error) {
	b, err := ReadBot(bytes.NewReader(old))
	if err != nil {
		return nil, err
	}
	h := b.Header
	cur := CurrentActionLayout()
	newVersion, ok := encoding.UpgradedVersion(h.EncodingVersion)
	if !ok || h.Actions.version() != "actions-v1" {
		if h.Actions.Equal(cur) && slices.Contains(encoding.Versions(), h.EncodingVersion) {
			return nil, fmt.Errorf("%w: it is already %s / %s, nothing to upgrade", ErrUpgrade, h.EncodingVersion, cur.version())
		}
		return nil, fmt.Errorf("%w: it reads observation %s and action layout %s; only %s or %s with actions-v1 upgrade to this build's %s / %s",
			ErrUpgrade, rules.Quote(h.EncodingVersion), rules.Quote(h.Actions.version()), encoding.VersionV1, encoding.HiddenCashVersionV1,
			encoding.Version, cur.version())
	}
	// actions-v1 is this layout without the kinds added since: ids keep their kind and index.
	oldFirst := map[int]KindRange{}
	for _, k := range h.Actions.Kinds {
		oldFirst[k.Kind] = k
	}
	actionMap := make([]int, h.Actions.NumActions) // old id -> new id
	for i := range actionMap {
		actionMap[i] = -1
	}
	for _, k := range cur.Kinds {
		o, ok := oldFirst[k.Kind]
		if !ok {
			if rules.MoveKind(k.Kind) != rules.AmountHundred {
				return nil, fmt.Errorf("%w: the file's action layout lacks move kind %d, which actions-v2 did not add", ErrUpgrade, k.Kind)
			}
			continue
		}
		if o.Count != k.Count || o.First < 0 || o.First+o.Count > len(actionMap) {
			return nil, fmt.Errorf("%w: move kind %d has ids %d..+%d in the file, not the actions-v1 layout", ErrUpgrade, k.Kind, o.First, o.Count)
		}
		for i := range o.Count {
			actionMap[o.First+i] = k.First + i
		}
		delete(oldFirst, k.Kind)
	}
	if len(oldFirst) != 0 || slices.Contains(actionMap, -1) {
		return nil, fmt.Errorf("%w: the file's action layout (%d ids) is not actions-v1", ErrUpgrade, h.Actions.NumActions)
	}
	eo, err := encoding.OptionsForVersion(newVersion)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	if err := h.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("%w: the file's rules options: %v", ErrUpgrade, err)
	}
	oldSpec, err := encoding.NewSpecV1(h.Rules, eo)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	newSpec, err := encoding.NewSpecWith(h.Rules, eo)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	if b.Weights.Config.ObsDim != oldSpec.Size {
		return nil, fmt.Errorf("%w: the network reads %d features, but %s has %d for %s", ErrUpgrade,
			b.Weights.Config.ObsDim, oldSpec.Version, oldSpec.Size, describeOptions(h.Rules))
	}
	// Input rows by column name (group.label): old index -> new index.
	newCol := map[string]int{}
	for i, c := range newSpec.Columns() {
		newCol[c] = i
	}
	oldCols := oldSpec.Columns()
	rowMap := make([]int, len(oldCols))
	for i, c := range oldCols {
		j, ok := newCol[c]
		if !ok {
			return nil, fmt.Errorf("%w: %s entry %s has no place in %s", ErrUpgrade, oldSpec.Version, c, newSpec.Version)
		}
		rowMap[i] = j
	}

	cfg := b.Weights.Config
	cfg.ObsDim, cfg.NumActions = newSpec.Size, cur.NumActions
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	oldPs, newPs := b.Weights.Config.Params(), cfg.Params()
	w := &Weights{Config: cfg}
	for k, p := range newPs {
		src, op := b.Weights.Tensors[k], oldPs[k]
		dst := make([]float32, p.Size())
		rows, cols := 1, op.Shape[0]
		if len(op.Shape) == 2 {
			rows, cols = op.Shape[0], op.Shape[1]
		}
		newCols := p.Shape[len(p.Shape)-1]
		policy := strings.HasPrefix(p.Name, "policy_")
		for r := range rows {
			nr := r
			if len(op.Shape) == 2 && op.Shape[0] == b.Weights.Config.ObsDim && (k == 0 || cfg.Depth == 0) {
				nr = rowMap[r] // first layer: rows are observation entries
			}
			for c := range cols {
				nc := c
				if policy {
					nc = actionMap[c]
				}
				dst[nr*newCols+nc] = src[r*cols+c]
			}
		}
		if p.Name == "policy_b" {
			for a := range cfg.NumActions {
				if !slices.Contains(actionMap, a) {
					dst[a] = UpgradeNewActionBias
				}
			}
		}
		w.Tensors = append(w.Tensors, dst)
	}
	if err := w.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpgrade, err)
	}
	sum := sha256.Sum256(old)
	ti := h.Training
	ti.Commands = slices.Clone(ti.Commands)
	note := fmt.Sprintf("Upgraded from %s (%s, %s, sha256 %x) to %s / %s without retraining: first-layer rows moved by feature name, rows of new features zero, +$100 id logit bias %d",
		source, h.EncodingVersion, h.Actions.version(), sum[:8], newSpec.Version, cur.version(), UpgradeNewActionBias)
	if n := strings.TrimSpace(ti.Notes); n != "" {
		if !strings.HasSuffix(n, ".") {
			n += "."
		}
		note = n + " " + note
	}
	ti.Notes = note
	nb := newBotFile(h.Name, newSpec.Version, h.Rules, w, ti)
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
