package encoding

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// NewSpecV1 is the obs-v1 layout exactly: testdata/obs-v1-specs.json.gz holds the specs the
// last obs-v1 build printed (`container spec --json`, 3-5 players, base, Classic, all modules;
// docs cut), and every group's name, offset, size, labels and bounds must match.
func TestSpecV1MatchesTheLastObsV1Build(t *testing.T) {
	f, err := os.Open("testdata/obs-v1-specs.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var want []Spec
	if err := json.NewDecoder(z).Decode(&want); err != nil {
		t.Fatal(err)
	}
	if len(want) != 9 {
		t.Fatalf("%d recorded specs, want 9", len(want))
	}
	for _, w := range want {
		for _, eo := range []Options{{}, {HideOpponentCash: true}} {
			got, err := NewSpecV1(w.Options, eo)
			if err != nil {
				t.Fatal(err)
			}
			wantVersion := map[bool]string{false: "obs-v1", true: "obs-v1-hidden-cash"}[eo.HideOpponentCash]
			if got.Version != wantVersion || got.Size != w.Size || got.NumActions != w.NumActions || len(got.Features) != len(w.Features) {
				t.Fatalf("%s: got %s %d features %d actions %d groups, want %s %d %d %d", describeOptions(w.Options),
					got.Version, got.Size, got.NumActions, len(got.Features), wantVersion, w.Size, w.NumActions, len(w.Features))
			}
			for i, g := range got.Features {
				e := w.Features[i]
				if g.Name != e.Name || g.Offset != e.Offset || g.Size != e.Size || !slices.Equal(g.Labels, e.Labels) ||
					g.Low != e.Low || g.High != e.High || g.Scale != e.Scale {
					t.Fatalf("%s: group %d is %+v, want %+v", describeOptions(w.Options), i, g, e)
				}
			}
			cur, _ := NewSpecWith(w.Options, eo)
			if up, ok := UpgradedVersion(got.Version); !ok || up != cur.Version {
				t.Fatalf("%s upgrades to %q, want %q", got.Version, up, cur.Version)
			}
		}
	}
	if _, ok := UpgradedVersion("obs-v2"); ok {
		t.Fatal("obs-v2 is not a version to upgrade")
	}
}

// The obs-v1 spec keeps the action names of actions-v1: the current names without the
// +$100 id, which obs-v2 appended last.
func TestSpecV1KeepsTheFirstActionNames(t *testing.T) {
	s, err := NewSpecV1(rules.DefaultOptions(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.ActionNames) != numActionsV1 || !slices.Equal(s.ActionNames, ActionNames()[:numActionsV1]) {
		t.Errorf("obs-v1 spec has %d action names, want the first %d of this build", len(s.ActionNames), numActionsV1)
	}
}
