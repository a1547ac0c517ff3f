package encoding

import (
	"fmt"
	"slices"

	"github.com/container-rl/container/env/rules"
)

// The previous observation layout, obs-v1, is kept as a spec (names, offsets, bounds) so that
// networks trained on it can be upgraded feature by feature (training.UpgradeBot); this build
// no longer encodes it. obs-v2 = obs-v1 plus the groups in addedInV2 and the entries in
// addedLabelsInV2, each appended where the layout builder now puts it.

// Versions of the previous layout.
const (
	VersionV1           = "obs-v1"
	HiddenCashVersionV1 = "obs-v1-hidden-cash"
)

// addedInV2 are the feature groups obs-v2 added.
var addedInV2 = []string{"decision.amount_base", "loan_request.offered"}

// addedLabelsInV2 are the entries obs-v2 added to existing groups (group name -> labels): the
// last-move kind one-hot gained the +$100 move kind.
var addedLabelsInV2 = map[string][]string{"action.kind": {"amount-hundred"}}

// numActionsV1 is the number of action ids of actions-v1 (no +$100 id).
const numActionsV1 = 240

// UpgradedVersion maps an obs-v1 version name to the obs-v2 name with the same options
// (ok false for any other name).
func UpgradedVersion(v1 string) (string, bool) {
	switch v1 {
	case VersionV1:
		return Version, true
	case HiddenCashVersionV1:
		return HiddenCashVersion, true
	}
	return "", false
}

// NewSpecV1 returns the obs-v1 spec of the observation variant eo for the rules options:
// the current layout without the groups and entries obs-v2 added, offsets recomputed. The
// encoding tests hold it against specs printed by the last obs-v1 build.
func NewSpecV1(o rules.Options, eo Options) (Spec, error) {
	cur, err := NewSpecWith(o, eo)
	if err != nil {
		return Spec{}, err
	}
	v := VersionV1
	if eo.HideOpponentCash {
		v = HiddenCashVersionV1
	}
	old := Spec{Version: v, Options: cur.Options, NumActions: numActionsV1}
	if len(cur.ActionNames) >= numActionsV1 {
		old.ActionNames = slices.Clone(cur.ActionNames[:numActionsV1])
	}
	for _, f := range cur.Features {
		if slices.Contains(addedInV2, f.Name) {
			continue
		}
		if drop, ok := addedLabelsInV2[f.Name]; ok {
			var labels []string
			for _, l := range f.Labels {
				if !slices.Contains(drop, l) {
					labels = append(labels, l)
				}
			}
			if len(labels) != len(f.Labels)-len(drop) {
				return Spec{}, fmt.Errorf("encoding: obs-v1 spec: group %s lacks the entries %v that obs-v2 added", f.Name, drop)
			}
			f.Labels, f.Size = labels, len(labels)
		}
		f.Labels = slices.Clone(f.Labels)
		f.Offset = old.Size
		old.Size += f.Size
		old.Features = append(old.Features, f)
	}
	return old, nil
}
