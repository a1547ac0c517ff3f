package training

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
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
