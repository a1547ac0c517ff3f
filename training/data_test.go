package training

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// TestLoadSamplesRotatesReturnsToTheDecider writes a two-game Arrow dataset and checks rows,
// masks and that value targets start with the decider's own return.
func TestLoadSamplesRotatesReturnsToTheDecider(t *testing.T) {
	dir := t.TempDir()
	meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 2, NumActions: 5, Seats: 3,
		ActionNames: []string{"a", "b", "c", "d", "e"}, PhaseNames: []string{"turn"}}
	ret := []float32{1, 0, -1}
	writeOneGameDataset(t, dir, meta, []datasets.Step{
		{GameID: 0, Step: 0, Decider: 0, Obs: []float32{1, 0}, Legal: []int{0, 3}, Action: 3, Returns: ret},
		{GameID: 0, Step: 1, Decider: 2, Obs: []float32{0, 1}, Legal: []int{1, 4}, Action: 4, Returns: ret, Done: true},
	})
	s, err := LoadSamples(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || !slices.Equal(s.Actions, []int32{3, 4}) || !slices.Equal(s.Obs, []float32{1, 0, 0, 1}) {
		t.Fatalf("rows: %+v", s)
	}
	if !slices.Equal(s.Values, []float32{1, 0, -1, -1, 1, 0}) {
		t.Fatalf("value targets %v, want each row to start with its decider's return", s.Values)
	}
	var b Batch
	s.fill(&b, []int{1})
	if !slices.Equal(b.Mask, []float32{0, 1, 0, 0, 1}) {
		t.Fatalf("mask %v", b.Mask)
	}
}

// writeToyDataset writes a one-game dataset of two steps whose observations start with first
// and whose rules options are opts (JSON in the meta), and returns its directory.
func writeToyDataset(t *testing.T, first float32, rulesJSON string) string {
	t.Helper()
	dir := t.TempDir()
	meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 2, NumActions: 5, Seats: 3,
		ActionNames: []string{"a", "b", "c", "d", "e"}, PhaseNames: []string{"turn"}, RulesOptions: []byte(rulesJSON)}
	ret := []float32{1, 0, -1}
	writeOneGameDataset(t, dir, meta, []datasets.Step{
		{GameID: 0, Step: 0, Decider: 0, Obs: []float32{first, 0}, Legal: []int{0, 3}, Action: 3, Returns: ret},
		{GameID: 0, Step: 1, Decider: 1, Obs: []float32{first, 1}, Legal: []int{1, 4}, Action: 1, Returns: ret, Done: true},
	})
	return dir
}

// Several datasets load as one set of samples in the order named; each keeps its games
// apart (game 0 of the second is not game 0 of the first), the source names both, and
// datasets of other games are refused naming the difference.
func TestLoadSamplesFromSeveralDatasets(t *testing.T) {
	const three = `{"players":3}`
	a, b := writeToyDataset(t, 7, three), writeToyDataset(t, 9, three)
	s, err := LoadSamplesFrom([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 4 || !slices.Equal(s.Obs, []float32{7, 0, 7, 1, 9, 0, 9, 1}) || !slices.Equal(s.Actions, []int32{3, 1, 3, 1}) {
		t.Fatalf("rows %v actions %v", s.Obs, s.Actions)
	}
	if s.Games[0] != s.Games[1] || s.Games[2] != s.Games[3] || s.Games[0] == s.Games[2] {
		t.Fatalf("game ids %v: want each dataset's game apart", s.Games)
	}
	one, err := LoadSamples(a)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Games, s.Games[:2]) || !strings.Contains(s.Source, one.Source+" + ") {
		t.Fatalf("the first dataset changed: games %v vs %v, source %q", one.Games, s.Games[:2], s.Source)
	}
	c := writeToyDataset(t, 5, `{"players":4}`)
	if _, err := LoadSamplesFrom([]string{a, c}); !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "players") {
		t.Fatalf("3- and 4-player datasets: %v, want ErrIncompatible naming the players", err)
	}
	if _, err := LoadSamplesFrom(nil); err == nil {
		t.Fatal("no dataset: no error")
	}
}

// writeOneGameDataset writes steps as the one game (agents x, y, z) of an Arrow dataset in
// dir, with its manifest.
func writeOneGameDataset(t *testing.T, dir string, meta datasets.Meta, steps []datasets.Step) {
	t.Helper()
	w, err := datasets.NewShardWriter(dir, 0, 0, &meta, datasets.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := datasets.Game{GameID: 0, Agents: []string{"x", "y", "z"}, Scores: make([]datasets.Score, 3), Winners: []int8{0},
		Length: int32(len(steps)), Turns: 1, EndReason: "two-colours"}
	if err := w.WriteGame(&g, steps); err != nil {
		t.Fatal(err)
	}
	info, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := &datasets.Manifest{Version: 1, Format: datasets.Format("arrow"), Games: 1, GamesPerShard: 1, Agents: g.Agents, Meta: meta}
	m.AddShard(info)
	if err := datasets.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}

// CollectSamplesProgress reports every finished game once, and collects the same samples as
// CollectSamples.
func TestCollectSamplesProgressCountsEveryGame(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 6}
	var n atomic.Int64
	got, err := CollectSamplesProgress(context.Background(), []string{"valuer", "shipper"}, nil, 5, opts, env.Rank, 3, 2, func() { n.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	want, err := CollectSamples([]string{"valuer", "shipper"}, nil, 5, opts, env.Rank, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if n.Load() != 5 || !slices.Equal(got.Actions, want.Actions) || got.Source != want.Source {
		t.Fatalf("%d calls for 5 games; same samples: %v", n.Load(), slices.Equal(got.Actions, want.Actions))
	}
}

// A cancelled collection stops and returns the context's error, not a partial set.
func TestCollectSamplesProgressStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	s, err := CollectSamplesProgress(ctx, []string{"valuer"}, nil, 50, rules.Options{Players: 3}, env.Rank, 3, 1, func() {
		if n.Add(1) == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || s != nil {
		t.Fatalf("cancelled after 2 games: %v, %v", s, err)
	}
	if n.Load() > 3 {
		t.Fatalf("%d games finished after the cancel at 2", n.Load())
	}
}

// Edge cases of training/data.go (the mutation records in docs/results/ name the bug each one catches).

// The source line of teacher samples (recorded by a behaviour-cloning run, which refuses to
// resume on other data) says whose decisions were recorded: every seat when no teacher is
// listed, else the listed teachers.
func TestCollectSamplesSourceNamesTheRecordedSeats(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 4}
	for _, c := range []struct {
		record []string
		want   string
	}{
		{nil, "(learning from every seat)"},
		{[]string{"valuer", "shipper"}, "(learning from valuer,shipper)"},
	} {
		s, err := CollectSamples([]string{"valuer", "shipper", "random"}, c.record, 1, opts, env.WinLoss, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s.Source, c.want) {
			t.Errorf("recording %v: source %q, want it to say %q", c.record, s.Source, c.want)
		}
	}
}

// pinnedTeacherGames is the digest of the teacher games below (rows, then an FNV-1a hash of
// every row's game id and action). A behaviour-cloning run identifies its teacher data by
// its source line (teachers, games, seed, reward) and resumes on data with the same line, so
// the same arguments must keep giving the same games: change this only on purpose (a rules or
// bot change), with the reason in the commit.
const pinnedTeacherGames = "rows 235 hash d871ec9e1dc05caf"

// Teacher samples from a seed are the same games in every version (pinned digest): each
// seat's bot gets its own seed derived from the game's, so the random teacher in seat 0 and
// the one in seat 2 do not play the same stream.
func TestCollectSamplesFromASeedArePinnedGames(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 12}
	s, err := CollectSamples([]string{"random", "valuer", "random"}, nil, 3, opts, env.WinLoss, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var b [8]byte
	for i, a := range s.Actions {
		binary.LittleEndian.PutUint64(b[:], s.Games[i])
		h.Write(b[:])
		binary.LittleEndian.PutUint32(b[:4], uint32(a))
		h.Write(b[:4])
	}
	if got := fmt.Sprintf("rows %d hash %016x", s.Len(), h.Sum64()); got != pinnedTeacherGames {
		t.Fatalf("teacher games digest %q, pinned %q: the same arguments now give other games", got, pinnedTeacherGames)
	}
}

// A dataset whose manifest has no rules options (the key absent, as in a hand-made or older
// manifest, or null) loads with the rules options unknown (zero), like one whose options are
// null; present options are read.
func TestLoadSamplesWithoutRulesOptionsLoadsWithTheRulesUnknown(t *testing.T) {
	for _, c := range []struct {
		name, opts string
		want       rules.Options
	}{
		{name: "absent"},
		{name: "null", opts: "null"},
		{name: "present", opts: `{"players":3,"turn_limit":9}`, want: rules.Options{Players: 3, TurnLimit: 9}},
	} {
		dir := t.TempDir()
		meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 2, NumActions: 5, Seats: 3,
			ActionNames: []string{"a", "b", "c", "d", "e"}, PhaseNames: []string{"turn"}}
		if c.opts != "" {
			meta.RulesOptions = json.RawMessage(c.opts)
		}
		writeOneGameDataset(t, dir, meta, []datasets.Step{{GameID: 0, Step: 0, Decider: 1, Obs: []float32{1, 0}, Legal: []int{0, 3}, Action: 3, Returns: []float32{1, 0, -1}, Done: true}})
		if c.name == "absent" {
			path := filepath.Join(dir, datasets.ManifestName)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]json.RawMessage
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			var mm map[string]json.RawMessage
			if err := json.Unmarshal(raw["meta"], &mm); err != nil {
				t.Fatal(err)
			}
			if _, ok := mm["rules_options"]; !ok {
				t.Fatalf("the manifest has no meta.rules_options key to remove: %s", b)
			}
			delete(mm, "rules_options")
			delete(raw, "checksum")
			if raw["meta"], err = json.Marshal(mm); err != nil {
				t.Fatal(err)
			}
			if b, err = json.Marshal(raw); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := LoadSamples(dir)
		if err != nil {
			t.Fatalf("rules options %s: %v", c.name, err)
		}
		if s.Rules != c.want || s.Len() != 1 {
			t.Errorf("rules options %s: %d rows with rules %+v, want 1 with %+v", c.name, s.Len(), s.Rules, c.want)
		}
	}
}

// illegalBot plays the first action id that is not legal.
type illegalBot struct{}

func (illegalBot) Name() string { return "training-illegal" }

func (illegalBot) Act(_ *rules.State, legal []int) int {
	for a := range rules.NumDistinctActions() {
		if len(legal) <= a || legal[a] != a {
			return a
		}
	}
	return -1
}

func init() {
	if err := bots.Register("training-illegal", "plays an illegal action (training tests)", func(rules.Options, uint64) (bots.Bot, error) {
		return illegalBot{}, nil
	}); err != nil {
		panic(err)
	}
}

// Teachers and PPO opponents decide through the bots seat loop, so a bot's illegal choice is
// an error naming the bot, not a recorded sample or a corrupted rollout.
func TestTeacherOrOpponentChoosingAnIllegalActionIsAnErrorNamingIt(t *testing.T) {
	opts := rules.DefaultOptions()
	opts.TurnLimit = 20
	_, err := CollectSamples([]string{"training-illegal", "valuer"}, nil, 1, opts, env.Rank, 1, 1)
	if !errors.Is(err, bots.ErrIllegalAction) || !strings.Contains(err.Error(), "training-illegal") {
		t.Fatalf("CollectSamples with an illegal teacher: %v, want bots.ErrIllegalAction naming it", err)
	}

	o := tinyPPO(t)
	o.Games, o.SnapshotShare, o.Opponents = 2, 0, []string{"training-illegal"}
	g, _, net := testLearner(t, &o)
	col := &collector{opts: &o, game: g, scheme: env.Rank}
	if _, err := col.collect(net, nil, rand.New(rand.NewPCG(1, 2)), 1); !errors.Is(err, bots.ErrIllegalAction) || !strings.Contains(err.Error(), "training-illegal") {
		t.Fatalf("PPO collect against an illegal opponent: %v, want bots.ErrIllegalAction naming it", err)
	}
}

// LoadSamples keeps the rules options a dataset was played with (a bot cloned from it is
// made for those rules), and each row's value targets come from that row's own returns
// (rotated to its decider): a three-step dataset of a 3-player luxury game, each step with
// other returns, loads with exactly those options and targets.
func TestLoadSamplesKeepsTheDatasetsRulesOptionsAndEachRowsReturns(t *testing.T) {
	want := rules.Options{Players: 3, Modules: rules.Luxury, Length: rules.Short, TurnLimit: 50}
	opts, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 2, NumActions: 3, Seats: 3, RulesOptions: opts,
		ActionNames: []string{"a", "b", "c"}, PhaseNames: []string{"turn"}}
	writeOneGameDataset(t, dir, meta, []datasets.Step{
		{GameID: 0, Step: 0, Decider: 1, Obs: []float32{1, 0}, Legal: []int{0, 2}, Action: 2, Returns: []float32{1, 2, 3}},
		{GameID: 0, Step: 1, Decider: 2, Obs: []float32{0, 1}, Legal: []int{1}, Action: 1, Returns: []float32{4, 5, 6}},
		{GameID: 0, Step: 2, Decider: 0, Obs: []float32{1, 1}, Legal: []int{0}, Action: 0, Returns: []float32{7, 8, 9}, Done: true},
	})
	s, err := LoadSamples(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rules != want {
		t.Fatalf("rules %+v, want the dataset's %+v", s.Rules, want)
	}
	if wantV := []float32{2, 3, 1, 6, 4, 5, 7, 8, 9}; !slices.Equal(s.Values, wantV) {
		t.Fatalf("value targets %v, want %v (each row's returns, decider first)", s.Values, wantV)
	}
}

// CollectSamples (train bc --teachers) records each decision with value targets equal to
// every seat's final reward under the scheme, rotated so index 0 is the decider. The check
// replays each recorded game through the rules engine from its seed and actions.
func TestCollectSamplesValueTargetsAreFinalRewardsRotatedToTheDecider(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 25}
	const seed, games = 5, 3
	s, err := CollectSamples([]string{"random", "valuer", "shipper"}, nil, games, opts, env.Rank, seed, 2)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	P := opts.Players
	row := 0
	offSeat0 := 0
	for gi := range games {
		st := g.NewInitialStateSeed(env.GameSeed(seed, gi, 0))
		first := row
		var deciders []int
		for ; row < s.Len() && s.Games[row] == uint64(gi); row++ {
			deciders = append(deciders, st.CurrentPlayer())
			if err := st.ApplyChecked(int(s.Actions[row])); err != nil {
				t.Fatalf("game %d row %d: replay: %v", gi, row, err)
			}
		}
		if !st.IsTerminal() {
			t.Fatalf("game %d: replaying %d recorded actions does not end the game", gi, row-first)
		}
		final := make([]float32, P)
		env.FinalRewards(env.Rank, 0, st.Scores(), final)
		for i, d := range deciders {
			got := s.Values[(first+i)*P : (first+i+1)*P]
			for k := range P {
				if want := final[(d+k)%P]; got[k] != want {
					t.Fatalf("game %d step %d (decider %d): value targets %v, want the final rewards %v rotated to the decider", gi, i, d, got, final)
				}
			}
			if d != 0 {
				offSeat0++
			}
		}
	}
	if row != s.Len() || offSeat0 == 0 {
		t.Fatalf("checked %d of %d rows, %d off seat 0", row, s.Len(), offSeat0)
	}
}

// CollectSamples plays as few as one game and refuses none (or no teachers) with ErrConfig.
func TestCollectSamplesPlaysOneGameAndRefusesNone(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 10}
	s, err := CollectSamples([]string{"random"}, nil, 1, opts, env.WinLoss, 1, 1)
	if err != nil {
		t.Fatalf("one game: %v", err)
	}
	if s.Len() == 0 || slices.ContainsFunc(s.Games, func(g uint64) bool { return g != 0 }) {
		t.Fatalf("one game: %d rows of games %v", s.Len(), s.Games)
	}
	if _, err := CollectSamples([]string{"random"}, nil, 0, opts, env.WinLoss, 1, 1); !errors.Is(err, ErrConfig) {
		t.Fatalf("no games: %v, want ErrConfig", err)
	}
	if _, err := CollectSamples(nil, nil, 1, opts, env.WinLoss, 1, 1); !errors.Is(err, ErrConfig) {
		t.Fatalf("no teachers: %v, want ErrConfig", err)
	}
}

// CollectSamples seats the teachers in rotation (in game g, seat i plays teachers[(i+g) mod
// k]) and records only the listed teachers' decisions: with teachers random, valuer, shipper
// and record valuer, the recorded rows are exactly the rows of a full recording whose decider
// is seat (1-g) mod 3 (deciders found by replaying the full recording). The samples do not
// depend on the number of workers (0 meaning one per CPU).
func TestCollectSamplesRotatesTeachersAndRecordsOnlyTheListed(t *testing.T) {
	opts := rules.Options{Players: 3, TurnLimit: 15}
	teachers := []string{"random", "valuer", "shipper"}
	const seed, games = 2, 3
	full, err := CollectSamples(teachers, nil, games, opts, env.WinLoss, seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	only, err := CollectSamples(teachers, []string{"valuer"}, games, opts, env.WinLoss, seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(opts)
	D := full.ObsDim
	var wantActions []int32
	var wantObs []float32
	st := g.NewInitialStateSeed(env.GameSeed(seed, 0, 0))
	for r := 0; r < full.Len(); r++ {
		gi := int(full.Games[r])
		if r == 0 || full.Games[r-1] != full.Games[r] {
			st = g.NewInitialStateSeed(env.GameSeed(seed, gi, 0))
		}
		if st.CurrentPlayer() == (1-gi+3)%3 {
			wantActions = append(wantActions, full.Actions[r])
			wantObs = append(wantObs, full.Obs[r*D:(r+1)*D]...)
		}
		if err := st.ApplyChecked(int(full.Actions[r])); err != nil {
			t.Fatalf("row %d: replay: %v", r, err)
		}
	}
	if len(wantActions) == 0 || !slices.Equal(only.Actions, wantActions) || !slices.Equal(only.Obs, wantObs) {
		t.Fatalf("recorded %d valuer decisions, want the %d of seat (1-g) mod 3 in game g", only.Len(), len(wantActions))
	}
	for _, w := range []int{0, 3} {
		o, err := CollectSamples(teachers, []string{"valuer"}, games, opts, env.WinLoss, seed, w)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(o.Actions, only.Actions) || !slices.Equal(o.Values, only.Values) || !slices.Equal(o.Obs, only.Obs) {
			t.Fatalf("%d workers give other samples than 1", w)
		}
	}
}
