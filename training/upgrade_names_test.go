package training

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/models"
)

// upgradeShipped rewrites the shipped models (models/*.bot) onto this build's layout:
// go test ./training -run TestEveryShippedModelUpgradesByName -upgrade-shipped
var upgradeShipped = flag.Bool("upgrade-shipped", false, "rewrite models/*.bot onto this build's layout (the general upgrade)")

// insertAt returns s with v inserted at i.
func insertAt[T any](s []T, i int, v T) []T { return slices.Insert(slices.Clone(s), i, v) }

// syntheticLayout is l with a feature inserted at input fi and an action inserted at id ai:
// what a build that adds one observation entry and one move id would have.
func syntheticLayout(l Layout, fi, ai int) Layout {
	s := l
	s.Encoding = l.Encoding + "-test"
	s.Features = insertAt(l.Features, fi, "test.inserted")
	s.ActionNames = insertAt(l.ActionNames, ai, "test-new-action")
	s.Actions = ActionLayout{Version: "actions-test", NumActions: l.Actions.NumActions + 1}
	for _, k := range l.Actions.Kinds {
		if k.First >= ai {
			k.First++
		} else if k.First+k.Count > ai {
			k.Count++
		}
		s.Actions.Kinds = append(s.Actions.Kinds, k)
	}
	return s
}

// sameWeights reports whether two networks have the same configuration and bit-identical tensors.
func sameWeights(a, b *Weights) bool {
	if a.Config != b.Config || len(a.Tensors) != len(b.Tensors) {
		return false
	}
	for i := range a.Tensors {
		if !slices.Equal(a.Tensors[i], b.Tensors[i]) {
			return false
		}
	}
	return true
}

// argmaxOver is the id of ids with the largest logit (the first on a tie).
func argmaxOver(logits []float32, ids []int) int {
	best := ids[0]
	for _, id := range ids[1:] {
		if logits[id] > logits[best] {
			best = id
		}
	}
	return best
}

// TestEveryShippedModelUpgradesByName runs the general upgrade (UpgradeTo) on every shipped
// model: onto this build's layout it is the identity (bit-identical weights, so identical
// decisions), and each file records that layout's names; onto a layout with one feature and
// one action inserted, the upgraded network makes the same decision with the same values on
// positions of real games (the new input 0, the new action not legal), and upgrading back
// drops both again, giving the original weights bit for bit. When a layout change makes this
// fail, rewrite the shipped files with -upgrade-shipped (docs/ENV.md, "Adding a feature").
func TestEveryShippedModelUpgradesByName(t *testing.T) {
	m, err := models.Load()
	if err != nil {
		t.Fatal(err)
	}
	shipped := m.Shipped(bots.DefaultName)
	if len(shipped) == 0 {
		t.Fatal("no shipped models")
	}
	positions := 0
	layouts := map[string]Layout{} // -upgrade-shipped: each rewritten file's layout
	for mi, e := range shipped {
		data, err := models.ReadFile(e.File)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ReadBot(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		h := b.Header
		eo := observationVariant(h.EncodingVersion)
		cur, err := CurrentLayout(h.Rules, eo)
		if err != nil {
			t.Fatal(err)
		}
		if *upgradeShipped {
			rewriteShipped(t, e.File, data, b, cur)
			layouts[e.File] = cur
			continue
		}
		from, err := FileLayout(b)
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		if !sameLayout(from, cur) || h.Features == nil || h.ActionNames == nil {
			t.Fatalf("%s: the file is not on this build's layout with its names recorded (%s / %s, %d inputs, %d actions named; this build %s / %s): "+
				"go test ./training -run TestEveryShippedModelUpgradesByName -upgrade-shipped", e.File, h.EncodingVersion, h.Actions.version(),
				len(h.Features), len(h.ActionNames), cur.Encoding, cur.Actions.version())
		}
		same, rep, err := UpgradeTo(b, cur)
		if err != nil {
			t.Fatal(err)
		}
		if !sameWeights(same.Weights, b.Weights) || rep.NewFeatures+rep.DroppedFeatures+rep.NewActions+rep.Dropped != 0 {
			t.Fatalf("%s: the identity upgrade changed the network (%s)", e.File, rep)
		}

		fi, ai := len(cur.Features)/2+mi, len(cur.ActionNames)/3+mi
		syn := syntheticLayout(cur, fi, ai)
		up, rep, err := UpgradeTo(b, syn)
		if err != nil {
			t.Fatal(err)
		}
		if rep.NewFeatures != 1 || rep.NewActions != 1 || rep.DroppedFeatures != 0 || rep.Dropped != 0 {
			t.Fatalf("%s: %s, want one new input and one new action", e.File, rep)
		}
		back, rep, err := UpgradeTo(up, cur)
		if err != nil {
			t.Fatal(err)
		}
		if !sameWeights(back.Weights, b.Weights) || rep.DroppedFeatures != 1 || rep.Dropped != 1 {
			t.Fatalf("%s: upgrading back (%s) did not give the original network", e.File, rep)
		}

		oldNet, err := NewNet(b.Weights)
		if err != nil {
			t.Fatal(err)
		}
		newNet, err := NewNet(up.Weights)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rules.NewGame(h.Rules)
		if err != nil {
			t.Fatal(err)
		}
		enc := encoding.NewEncoderWith(g, eo)
		n, na := len(cur.Features), len(cur.ActionNames)
		obs, mask := make([]float32, n), make([]float32, na)
		obs2, mask2 := make([]float32, n+1), make([]float32, na+1)
		logits, values := make([]float32, na), make([]float32, h.Rules.Players)
		logits2, values2 := make([]float32, na+1), make([]float32, h.Rules.Players)
		var ws, ws2 Workspace
		r := rand.New(rand.NewPCG(uint64(mi), 45))
		s := g.NewInitialStateSeed(uint64(100 + mi))
		for compared := 0; compared < 40 && !s.IsTerminal(); {
			ids := s.LegalActions(nil)
			if r.IntN(4) == 0 {
				var d rules.Decision
				s.DecisionFor(s.CurrentPlayer(), &d)
				var view rules.State
				s.Redact(d.Decider, &view)
				if err := enc.Encode(&view, d.Decider, d, obs); err != nil {
					t.Fatal(err)
				}
				clear(mask)
				for _, id := range ids {
					mask[id] = 1
				}
				copy(obs2, obs[:fi])
				obs2[fi] = 0
				copy(obs2[fi+1:], obs[fi:])
				copy(mask2, mask[:ai])
				mask2[ai] = 0
				copy(mask2[ai+1:], mask[ai:])
				oldNet.Forward(&ws, 1, obs, mask, logits, values)
				newNet.Forward(&ws2, 1, obs2, mask2, logits2, values2)
				ids2 := make([]int, len(ids))
				for i, id := range ids {
					ids2[i] = id
					if id >= ai {
						ids2[i] = id + 1
					}
					if logits2[ids2[i]] != logits[id] {
						t.Fatalf("%s: id %d: logit %g upgraded, %g old", e.File, id, logits2[ids2[i]], logits[id])
					}
				}
				if a, a2 := argmaxOver(logits, ids), argmaxOver(logits2, ids2); a2 != a+btoi(a >= ai) {
					t.Fatalf("%s: the upgraded network chooses id %d, the old one %d", e.File, a2, a)
				}
				if !slices.Equal(values, values2) {
					t.Fatalf("%s: values %v upgraded, %v old", e.File, values2, values)
				}
				compared++
				positions++
			}
			s.Apply(ids[r.IntN(len(ids))])
		}
	}
	if *upgradeShipped {
		updateManifest(t, layouts)
		return
	}
	if positions < 20*len(shipped) {
		t.Fatalf("compared only %d positions", positions)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rewriteShipped writes a shipped model onto this build's layout with its names recorded
// (-upgrade-shipped): through UpgradeBot where its layout differs, else as it is (the header
// gains the names it lacks).
func rewriteShipped(t *testing.T, file string, data []byte, b *BotFile, cur Layout) {
	t.Helper()
	from, err := FileLayout(b)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	out := b
	if !sameLayout(from, cur) {
		if out, err = UpgradeBot(data, file); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	path := filepath.Join("..", "models", filepath.FromSlash(file))
	if err := out.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote %s (%s / %s)", path, cur.Encoding, cur.Actions.version())
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// updateManifest sets the layout versions of the rewritten files' entries in
// models/MANIFEST.json (-upgrade-shipped), so that the manifest agrees with the files again.
func updateManifest(t *testing.T, layouts map[string]Layout) {
	t.Helper()
	path := filepath.Join("..", "models", "MANIFEST.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := models.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range m.Models {
		if l, ok := layouts[e.File]; ok {
			m.Models[i].Encoding, m.Models[i].Actions = l.Encoding, l.Actions.version()
		}
	}
	out, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// onCurrentLayout returns b upgraded by name onto this build's layout (b itself when it is
// already on it): how a test plays a retired model after a layout change.
func onCurrentLayout(t *testing.T, b *BotFile) *BotFile {
	t.Helper()
	cur, err := CurrentLayout(b.Header.Rules, observationVariant(b.Header.EncodingVersion))
	if err != nil {
		t.Fatal(err)
	}
	from, err := FileLayout(b)
	if err != nil {
		t.Fatal(err)
	}
	if sameLayout(from, cur) {
		return b
	}
	up, _, err := UpgradeTo(b, cur)
	if err != nil {
		t.Fatal(err)
	}
	return up
}

// onCurrentLayoutPath is the path of the bot file at path on this build's layout: path
// itself, or an upgraded copy in a temporary directory.
func onCurrentLayoutPath(t *testing.T, path string) string {
	t.Helper()
	b, err := ReadBotFile(path)
	if err != nil {
		t.Fatal(err)
	}
	up := onCurrentLayout(t, b)
	if up == b {
		return path
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := up.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFileLayoutNamesFilesThatRecordNoNames: a file written before headers named its inputs
// and actions is named from its versions: this build's layout for an obs-v2 / actions-v2
// file (hidden cash included), obs-v1 as encoding.NewSpecV1 gives it with the actions-v1 ids;
// a version this build does not know is refused.
func TestFileLayoutNamesFilesThatRecordNoNames(t *testing.T) {
	files, err := DefaultBots()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files[:3] {
		for _, eo := range []encoding.Options{{}, {HideOpponentCash: true}} {
			b := *f
			b.Header.Features, b.Header.ActionNames = nil, nil
			b.Header.EncodingVersion = eo.Version()
			got, err := FileLayout(&b)
			if err != nil {
				t.Fatal(err)
			}
			want, err := CurrentLayout(b.Header.Rules, eo)
			if err != nil {
				t.Fatal(err)
			}
			if !sameLayout(got, want) {
				t.Fatalf("%s, %s: the names derived are not this build's layout", describeOptions(b.Header.Rules), eo.Version())
			}
		}
	}
	o := rules.Options{Players: 5, Variant: rules.Classic}
	data, _ := v1BotFile(t, o, encoding.Options{HideOpponentCash: true}, 1, 3)
	b, err := ReadBot(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b.Header.Features, b.Header.ActionNames = nil, nil
	got, err := FileLayout(b)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := encoding.NewSpecV1(o, encoding.Options{HideOpponentCash: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Features, v1.Columns()) || !slices.Equal(got.ActionNames, v1.ActionNames) {
		t.Fatalf("obs-v1 file: the names derived are not obs-v1's (%d inputs, %d actions)", len(got.Features), len(got.ActionNames))
	}
	b.Header.EncodingVersion = "obs-v0"
	if _, err := FileLayout(b); !errors.Is(err, ErrUpgrade) || !strings.Contains(err.Error(), `"obs-v0"`) {
		t.Fatalf("an unknown version without names: err = %v, want ErrUpgrade naming it", err)
	}
}

// TestObservationVariantReadsTheVersionName: the hidden-cash variant is read from every
// version name that has one, current and previous.
func TestObservationVariantReadsTheVersionName(t *testing.T) {
	for v, hidden := range map[string]bool{encoding.Version: false, encoding.HiddenCashVersion: true,
		encoding.VersionV1: false, encoding.HiddenCashVersionV1: true, encoding.OracleVersion: false} {
		if got := observationVariant(v).HideOpponentCash; got != hidden {
			t.Errorf("%s: hidden cash %v, want %v", v, got, hidden)
		}
		if eo, err := encoding.OptionsForVersion(v); err == nil && eo.HideOpponentCash != hidden {
			t.Errorf("%s: the encoder's options hide cash: %v; the name says %v", v, eo.HideOpponentCash, hidden)
		}
	}
}
