package training

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// Tests written to kill surviving mutants of training/data.go (docs/TESTING.md).

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
