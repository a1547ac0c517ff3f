package training

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

// actionsV1 is the action layout before the +$100 id: this one without AmountHundred, no
// version recorded.
func actionsV1() ActionLayout {
	l := CurrentActionLayout()
	l.Version = ""
	l.Kinds = slices.DeleteFunc(l.Kinds, func(k KindRange) bool { return rules.MoveKind(k.Kind) == rules.AmountHundred })
	l.NumActions = 240
	return l
}

// v1BotFile is an obs-v1 / actions-v1 bot file with random weights for o and eo.
func v1BotFile(t *testing.T, o rules.Options, eo encoding.Options, depth int, seed uint64) ([]byte, *Weights) {
	t.Helper()
	spec, err := encoding.NewSpecV1(o, eo)
	if err != nil {
		t.Fatal(err)
	}
	cfg := NetConfig{ObsDim: spec.Size, NumActions: 240, ValueDim: o.Players, Width: 16, Depth: depth, Norm: NormLayer}
	w, err := NewWeights(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	// Non-zero biases and norms, so that every copied tensor matters.
	r := rand.New(rand.NewPCG(seed, 3))
	for _, tn := range w.Tensors {
		for i := range tn {
			tn[i] += float32(r.NormFloat64() * 0.1)
		}
	}
	b := &BotFile{Header: BotHeader{Name: "old", EncodingVersion: spec.Version, Actions: actionsV1(), Rules: o,
		Training: TrainingInfo{Method: "bc", Notes: "made for a test"}}, Weights: w}
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w
}

// projection maps each obs-v1 entry to its obs-v2 index by column name, and lists the obs-v2
// entries without an obs-v1 counterpart.
func projection(t *testing.T, o rules.Options, eo encoding.Options) (toNew, added []int) {
	t.Helper()
	v1, err := encoding.NewSpecV1(o, eo)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := encoding.NewSpecWith(o, eo)
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for i, c := range v2.Columns() {
		at[c] = i
	}
	used := make([]bool, v2.Size)
	for _, c := range v1.Columns() {
		j, ok := at[c]
		if !ok {
			t.Fatalf("obs-v1 column %s missing from obs-v2", c)
		}
		toNew = append(toNew, j)
		used[j] = true
	}
	for j, u := range used {
		if !u {
			added = append(added, j)
		}
	}
	return toNew, added
}

// softmaxOver is the softmax of logits restricted to ids.
func softmaxOver(logits []float32, ids []int) []float64 {
	m := math.Inf(-1)
	for _, id := range ids {
		m = max(m, float64(logits[id]))
	}
	p := make([]float64, len(ids))
	var sum float64
	for i, id := range ids {
		p[i] = math.Exp(float64(logits[id]) - m)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// The upgrade is exact: on positions of random games (+$100 never played, so no amount is
// built and every id means what it meant in actions-v1), the upgraded network's policy over
// the old legal ids and its values equal the old network's on the obs-v1 observation (the
// same entries by name), also where an obs-v2 entry is set (a player loan offered this turn:
// its first-layer row is zero), for
// base, Classic, all modules, 3-5 players, the hidden-cash variant and trunk depths 0-2.
// The +$100 id, where legal, gets practically no probability.
func TestUpgradeBotKeepsPolicyAndValueOnOldPositions(t *testing.T) {
	hundred, _ := rules.KindBase(rules.AmountHundred)
	cases := []struct {
		o     rules.Options
		eo    encoding.Options
		depth int
	}{
		{rules.Options{Players: 4}, encoding.Options{}, 2},
		{rules.Options{Players: 5, Variant: rules.Classic}, encoding.Options{}, 1},
		{rules.Options{Players: 3, Modules: rules.AllModules}, encoding.Options{}, 2},
		{rules.Options{Players: 4, Modules: rules.PlayerLoans}, encoding.Options{HideOpponentCash: true}, 0},
	}
	compared, withHundred, newSeen := 0, 0, 0
	for ci, c := range cases {
		o, err := rules.NewGame(c.o)
		if err != nil {
			t.Fatal(err)
		}
		opts := o.Options()
		old, oldW := v1BotFile(t, opts, c.eo, c.depth, uint64(ci+1))
		up, err := UpgradeBot(old, "old.bot")
		if err != nil {
			t.Fatal(err)
		}
		eo, _ := encoding.OptionsForVersion(up.Header.EncodingVersion)
		enc := encoding.NewEncoderWith(o, eo)
		if err := up.CheckCompatible(enc.Spec().Version, enc.Size(), CurrentActionLayout(), opts); err != nil {
			t.Fatalf("upgraded bot does not fit this build: %v", err)
		}
		if !strings.Contains(up.Header.Training.Notes, "made for a test. Upgraded from old.bot (obs-v1") {
			t.Fatalf("notes %q", up.Header.Training.Notes)
		}
		oldNet, err := NewNet(oldW)
		if err != nil {
			t.Fatal(err)
		}
		newNet, err := NewNet(up.Weights)
		if err != nil {
			t.Fatal(err)
		}
		toNew, added := projection(t, opts, c.eo)
		obs := make([]float32, enc.Size())
		oldObs := make([]float32, len(toNew))
		mask := make([]float32, enc.NumActions())
		oldMask := make([]float32, 240)
		logits, oldLogits := make([]float32, enc.NumActions()), make([]float32, 240)
		values, oldValues := make([]float32, opts.Players), make([]float32, opts.Players)
		var ws, oldWS Workspace
		r := rand.New(rand.NewPCG(uint64(ci), 9))
		for game := 0; game < 3; game++ {
			s := o.NewInitialStateSeed(uint64(50 + game))
			if game == 2 { // rich players: bids of $100 or more become legal
				s = richPlayers(t, s, 150)
			}
			for !s.IsTerminal() {
				ids := s.LegalActions(nil)
				if r.IntN(3) == 0 {
					var d rules.Decision
					s.DecisionFor(s.CurrentPlayer(), &d)
					var view rules.State
					s.Redact(d.Decider, &view)
					if err := enc.Encode(&view, d.Decider, d, obs); err != nil {
						t.Fatal(err)
					}
					for _, j := range added {
						if obs[j] != 0 {
							newSeen++ // no amount is built (+$100 is never played): a loan offered
							break
						}
					}
					{
						for i, j := range toNew {
							oldObs[i] = obs[j]
						}
						clear(mask)
						clear(oldMask)
						var oldIDs []int
						for _, id := range ids {
							mask[id] = 1
							if id < 240 {
								oldMask[id] = 1
								oldIDs = append(oldIDs, id)
							}
						}
						newNet.Forward(&ws, 1, obs, mask, logits, values)
						oldNet.Forward(&oldWS, 1, oldObs, oldMask, oldLogits, oldValues)
						pNew, pOld := softmaxOver(logits, oldIDs), softmaxOver(oldLogits, oldIDs)
						for i := range pNew {
							if math.Abs(pNew[i]-pOld[i]) > 1e-5 {
								t.Fatalf("%v: id %d: probability %g upgraded, %g old", opts, oldIDs[i], pNew[i], pOld[i])
							}
						}
						for i := range values {
							if math.Abs(float64(values[i]-oldValues[i])) > 1e-5 {
								t.Fatalf("%v: value %d: %g upgraded, %g old", opts, i, values[i], oldValues[i])
							}
						}
						if slices.Contains(ids, hundred) {
							withHundred++
							if p := softmaxOver(logits, ids)[len(ids)-1]; p > 1e-6 {
								t.Fatalf("+$100 gets probability %g", p)
							}
						}
						compared++
					}
				}
				id := ids[r.IntN(len(ids))]
				if id == hundred {
					id = ids[0]
				}
				s.Apply(id)
			}
		}
	}
	if compared < 1000 || withHundred == 0 || newSeen == 0 {
		t.Fatalf("compared %d positions (%d with +$100 legal, %d with an obs-v2 entry set)", compared, withHundred, newSeen)
	}
	t.Logf("compared %d positions, %d with +$100 legal, %d with an obs-v2 entry set", compared, withHundred, newSeen)
}

// v1Outputs are positions of random games with what the last obs-v1 build computed for
// them with the shipped default bots before their upgrade (the decider's obs-v1 observation,
// sparse, and the network's logits of the legal ids and values):
// testdata/obs-v1-bot-outputs.json.gz.
type v1Outputs struct {
	Bot     string `json:"bot"`
	Samples []struct {
		Position json.RawMessage `json:"position"`
		ObsIdx   []int           `json:"obs_idx"`
		ObsVal   []float32       `json:"obs_val"`
		Legal    []int           `json:"legal"`
		Logits   []float32       `json:"logits"`
		Value    []float32       `json:"value"`
	} `json:"samples"`
}

// The shipped default bots, upgraded, are the networks the last obs-v1 build shipped: on 60
// recorded positions each of default, default-classic-5p and default-modules-3p, this build's
// obs-v2 observation holds the recorded obs-v1 observation entry for entry, and the upgraded
// network gives the recorded logits and values (also where an obs-v2 entry is set, such as a
// player loan offered this turn: its first-layer row is zero).
func TestShippedBotsMatchTheirObsV1Outputs(t *testing.T) {
	f, err := os.Open("testdata/obs-v1-bot-outputs.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []v1Outputs
	if err := json.NewDecoder(z).Decode(&recorded); err != nil {
		t.Fatal(err)
	}
	if len(recorded) != 3 {
		t.Fatalf("%d recorded bots", len(recorded))
	}
	newSeen := 0
	for _, rb := range recorded {
		path := filepath.Join("..", "models", rb.Bot)
		if _, err := os.Stat(filepath.Join("..", "models", "retired", rb.Bot)); err == nil {
			path = filepath.Join("..", "models", "retired", rb.Bot) // replaced since by a retrained model
		}
		b, err := ReadBotFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.Header.Training.Notes, "Upgraded from") {
			t.Fatalf("%s: notes %q do not say it was upgraded", rb.Bot, b.Header.Training.Notes)
		}
		b = onCurrentLayout(t, b) // a retired file after a later layout change
		net, err := NewNet(b.Weights)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rules.NewGame(b.Header.Rules)
		if err != nil {
			t.Fatal(err)
		}
		enc := encoding.NewEncoder(g)
		toNew, added := projection(t, g.Options(), encoding.Options{})
		obs, mask, logits := make([]float32, enc.Size()), make([]float32, enc.NumActions()), make([]float32, enc.NumActions())
		values := make([]float32, b.Weights.Config.ValueDim)
		var ws Workspace
		for si, sm := range rb.Samples {
			s, err := rules.LoadPosition(sm.Position)
			if err != nil {
				t.Fatalf("%s sample %d: %v", rb.Bot, si, err)
			}
			var d rules.Decision
			s.DecisionFor(s.CurrentPlayer(), &d)
			var view rules.State
			s.Redact(d.Decider, &view)
			if err := enc.Encode(&view, d.Decider, d, obs); err != nil {
				t.Fatal(err)
			}
			want := make([]float32, len(toNew))
			for k, i := range sm.ObsIdx {
				want[i] = sm.ObsVal[k]
			}
			for i, j := range toNew {
				if obs[j] != want[i] {
					t.Fatalf("%s sample %d: obs-v1 entry %d (obs-v2 %d) is %g, recorded %g", rb.Bot, si, i, j, obs[j], want[i])
				}
			}
			for _, j := range added {
				if obs[j] != 0 {
					newSeen++ // e.g. a player loan offered this turn: the zero rows ignore it
					break
				}
			}
			ids := s.LegalActions(nil)
			if old := slices.DeleteFunc(slices.Clone(ids), func(id int) bool { return id >= 240 }); !slices.Equal(old, sm.Legal) {
				t.Fatalf("%s sample %d: legal %v, recorded %v", rb.Bot, si, ids, sm.Legal)
			}
			if _, err := enc.Mask(s, mask); err != nil {
				t.Fatal(err)
			}
			net.Forward(&ws, 1, obs, mask, logits, values)
			for k, id := range sm.Legal {
				if math.Abs(float64(logits[id]-sm.Logits[k])) > 1e-4 {
					t.Fatalf("%s sample %d: logit of %d is %g, recorded %g", rb.Bot, si, id, logits[id], sm.Logits[k])
				}
			}
			for i := range values {
				if math.Abs(float64(values[i]-sm.Value[i])) > 1e-4 {
					t.Fatalf("%s sample %d: value %d is %g, recorded %g", rb.Bot, si, i, values[i], sm.Value[i])
				}
			}
		}
	}
	t.Logf("%d recorded positions had an obs-v2 entry set", newSeen)
	// All nine shipped files say where they came from: upgraded from an obs-v1 file, or
	// trained on this layout from a named file (both by its sha256).
	files, err := DefaultBots()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		n := f.Header.Training.Notes
		upgraded := strings.Contains(n, "Upgraded from default") && strings.Contains(n, "(obs-v1, actions-v1, sha256 ")
		retrained := strings.Contains(n, "Fine-tuned from default") && strings.Contains(n, "(obs-v2, actions-v2, sha256 ")
		if !upgraded && !retrained {
			t.Errorf("%s: notes %q do not say what it was made from", describeOptions(f.Header.Rules), n)
		}
	}
}

// Only a file whose layout can be named upgrades: garbage, a truncated file, a file already
// on this build's layout, an observation version this build does not know in a file that
// records no feature names, and a network of the wrong width for its names are refused with
// one line saying why; the loader still refuses an old file (upgrading is explicit), naming
// both versions and the upgrade command.
func TestUpgradeBotRefusesWhatItCannotMap(t *testing.T) {
	opts := rules.DefaultOptions()
	old, _ := v1BotFile(t, opts, encoding.Options{}, 2, 1)
	up, err := UpgradeBotFile(old, "old.bot")
	if err != nil {
		t.Fatal(err)
	}
	wrongDim := func() []byte {
		b, err := ReadBot(bytes.NewReader(old))
		if err != nil {
			t.Fatal(err)
		}
		w, _ := NewWeights(NetConfig{ObsDim: 700, NumActions: 240, ValueDim: 4, Width: 8, Depth: 1, Norm: NormLayer}, 1)
		b.Weights = w
		b.Header.Features = nil // as a file written before headers named the inputs
		var buf bytes.Buffer
		b.Write(&buf)
		return buf.Bytes()
	}()
	otherVersion := func() []byte {
		b, _ := ReadBot(bytes.NewReader(old))
		b.Header.EncodingVersion = "obs-v0"
		b.Header.Features = nil // no names: this build cannot say what its inputs were
		var buf bytes.Buffer
		b.Write(&buf)
		return buf.Bytes()
	}()
	for name, c := range map[string]struct {
		data []byte
		is   error
		want string
	}{
		"garbage":       {[]byte("not a bot file at all"), ErrCorrupt, ""},
		"empty":         {nil, ErrCorrupt, ""},
		"truncated":     {old[:len(old)/2], ErrCorrupt, ""},
		"upgraded":      {up, ErrUpgrade, "already " + encoding.Version + " / " + rules.ActionLayoutVersion + ", nothing to upgrade"},
		"other version": {otherVersion, ErrUpgrade, `reads observation "obs-v0", whose feature names the file does not record`},
		"wrong width":   {wrongDim, ErrUpgrade, "reads 700 features, but obs-v1 has 771"},
	} {
		_, err := UpgradeBotFile(c.data, "x.bot")
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
	b, err := ReadBot(bytes.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(opts)
	enc := encoding.NewEncoder(g)
	err = b.CheckCompatible(enc.Spec().Version, enc.Size(), CurrentActionLayout(), opts)
	if !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), `"obs-v1" (771 features) and action layout actions-v1 (240 ids)`) ||
		!strings.Contains(err.Error(), "--upgrade") {
		t.Fatalf("old file: %v", err)
	}
}

// richPlayers returns s with every player given extra dollars from the supply, through the
// position format (the cash ledger's from_supply grows with them, so the position stays valid).
func richPlayers(t *testing.T, s *rules.State, extra int32) *rules.State {
	t.Helper()
	b, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	var pos map[string]any
	if err := json.Unmarshal(b, &pos); err != nil {
		t.Fatal(err)
	}
	players := pos["players"].([]any)
	for _, p := range players {
		p.(map[string]any)["cash"] = p.(map[string]any)["cash"].(float64) + float64(extra)
	}
	m := pos["machine"].(map[string]any)
	m["from_supply"] = m["from_supply"].(float64) + float64(extra)*float64(len(players))
	if b, err = json.Marshal(pos); err != nil {
		t.Fatal(err)
	}
	rich, err := rules.LoadPosition(b)
	if err != nil {
		t.Fatal(err)
	}
	return rich
}

// Edge cases of the bot upgrade (upgrade.go; the mutation records in docs/results/ name the bug each one catches).

// A file that records no action names and whose move kinds do not cover its ids as this
// build's kinds do is refused with one line wrapping ErrUpgrade, never upgraded and never a
// panic: a move kind whose ids run past the file's action count, a kind number this build
// does not have (or a negative one), and a layout that leaves an id without a kind (EndTurn
// moved from id 0 onto id 1, so id 0 means nothing).
func TestUpgradeBotRefusesAnActionLayoutThatIsNotActionsV1(t *testing.T) {
	old, _ := v1BotFile(t, rules.DefaultOptions(), encoding.Options{}, 1, 2)
	tamper := func(edit func(l *ActionLayout)) []byte {
		b, err := ReadBot(bytes.NewReader(old))
		if err != nil {
			t.Fatal(err)
		}
		b.Header.ActionNames = nil // as a file written before headers named the actions
		l := b.Header.Actions
		l.Kinds = append([]KindRange(nil), l.Kinds...)
		edit(&l)
		b.Header.Actions = l
		var buf bytes.Buffer
		if err := b.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	last := func(l *ActionLayout) *KindRange {
		k := &l.Kinds[0]
		for i := range l.Kinds {
			if l.Kinds[i].First > k.First {
				k = &l.Kinds[i]
			}
		}
		return k
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"a kind past the end": {tamper(func(l *ActionLayout) { last(l).First++ }), "move kinds do not cover them"},
		"a kind this build lacks": {tamper(func(l *ActionLayout) {
			l.Kinds = append(l.Kinds, KindRange{Kind: int(rules.NumMoveKinds), First: 0, Count: 1})
		}), "move kinds do not cover them"},
		"a negative kind": {tamper(func(l *ActionLayout) {
			l.Kinds = append(l.Kinds, KindRange{Kind: -1, First: 0, Count: 1})
		}), "move kinds do not cover them"},
		"id 0 without a kind": {tamper(func(l *ActionLayout) {
			for i := range l.Kinds {
				if rules.MoveKind(l.Kinds[i].Kind) == rules.EndTurn {
					if l.Kinds[i].First != 0 {
						t.Fatalf("EndTurn starts at id %d in actions-v1", l.Kinds[i].First)
					}
					l.Kinds[i].First = 1
				}
			}
		}), "move kinds do not cover them"},
	} {
		_, err := UpgradeBotFile(c.data, "x.bot")
		if !errors.Is(err, ErrUpgrade) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line wrapping ErrUpgrade saying %q", name, err, c.want)
		}
	}
}
