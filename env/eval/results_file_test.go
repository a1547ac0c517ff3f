package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A shard is 0 <= Index < Count <= MaxShards: each bound accepted at its edge, refused one past.
func TestShardValidateAtItsBounds(t *testing.T) {
	for _, tc := range []struct {
		s    Shard
		want string // "" : valid
	}{
		{Shard{0, 1}, ""},
		{Shard{MaxShards - 1, MaxShards}, ""},
		{Shard{0, 0}, "the shard count must be at least 1"},
		{Shard{0, -1}, "the shard count must be at least 1"},
		{Shard{0, MaxShards + 1}, "at most 1048576 shards"},
		{Shard{-1, 3}, "the index must be 0 to 2"},
		{Shard{3, 3}, "the index must be 0 to 2"},
		{Shard{2, 3}, ""},
	} {
		err := tc.s.Validate()
		if tc.want == "" {
			if err != nil {
				t.Errorf("shard %s: %v", tc.s, err)
			}
			continue
		}
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "shard "+tc.s.String()) {
			t.Errorf("shard %s: %v, want ErrConfig naming the shard and %q", tc.s, err, tc.want)
		}
	}
}

// ReadResultsFile reads back what a shard wrote and refuses, naming the file, what is not a
// results file: missing, not JSON, another format, a file whose settings are impossible or
// whose range is not its shard's.
func TestReadResultsFileRefusesWhatIsNotAResultsFile(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer")
	cfg.Games = 6
	files, _ := runShards(t, cfg, 2)
	dir := t.TempDir()
	write := func(name string, f any) string {
		t.Helper()
		// Written as a shard writes it (with its checksum), so each case is refused for what
		// it changes, not for a missing checksum.
		var b []byte
		var err error
		switch v := f.(type) {
		case *ResultsFile:
			b, err = v.Marshal()
		case ResultsFile:
			b, err = v.Marshal()
		default:
			b, err = json.Marshal(f)
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", files[1])
	if f, err := ReadResultsFile(good); err != nil || len(f.Results) != 3 || f.FirstGame != 3 || f.EndGame != 6 {
		t.Fatalf("a shard's own file: %+v, %v", f, err)
	}
	if _, err := ReadResultsFile(filepath.Join(dir, "missing.json")); err == nil || errors.Is(err, ErrMerge) {
		t.Errorf("a missing file: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "text.json"), []byte("games: 6\n"), 0o644)
	if _, err := ReadResultsFile(filepath.Join(dir, "text.json")); !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), "text.json") || !strings.Contains(err.Error(), "not a results file") {
		t.Errorf("not JSON: %v", err)
	}
	edit := func(name string, change func(f *ResultsFile), want string) {
		t.Helper()
		c := *files[1]
		c.Results = append([]GameResult{}, files[1].Results...)
		change(&c)
		p := write(name, &c)
		_, err := ReadResultsFile(p)
		if !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ErrMerge naming the file and %q", name, err, want)
		}
	}
	other := *files[1]
	other.Format = "container-eval-results/9"
	if _, err := ReadResultsFile(write("format.json", map[string]any{"format": other.Format, "games": other.Games})); !errors.Is(err, ErrMerge) ||
		!strings.Contains(err.Error(), "format.json") || !strings.Contains(err.Error(), "container-eval-results/9") {
		t.Errorf("another format: %v", err)
	}
	edit("agents.json", func(f *ResultsFile) { f.Agents = nil }, "0 agents")
	edit("games.json", func(f *ResultsFile) { f.Games = 0 }, "0 games")
	edit("batch.json", func(f *ResultsFile) { f.Batch = -1 }, "batch -1")
	edit("options.json", func(f *ResultsFile) { f.Options.Players = 9 }, "")
	edit("shard.json", func(f *ResultsFile) { f.Shard = Shard{2, 2} }, "the index must be 0 to 1")
	edit("range.json", func(f *ResultsFile) { f.FirstGame = 2 }, "shard 1/2 of 6 games is [3,6), the file says [2,6)")
	edit("end.json", func(f *ResultsFile) { f.EndGame = 7 }, "the file says [3,7)")
	edit("order.json", func(f *ResultsFile) { f.Results[0], f.Results[1] = f.Results[1], f.Results[0] }, "out of order")
	edit("twice.json", func(f *ResultsFile) { f.Results[1] = f.Results[0]; f.Interrupted = true }, "out of order")
	edit("scores.json", func(f *ResultsFile) { f.Results[2].Scores = f.Results[2].Scores[:3] }, "game 5 has 3 scores for 4 players")
	edit("seats.json", func(f *ResultsFile) { f.Results[0].Agents = []int{2, 1, 0, 2} }, "game 3 seats agents")
}

// The smallest tournament, one game, is a valid results file and merges on its own.
func TestAOneGameTournamentReadsBackAndMerges(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer")
	cfg.Games = 1
	files, names := runShards(t, cfg, 1)
	if err := files[0].Validate(); err != nil {
		t.Fatalf("one game: %v", err)
	}
	if res, err := Merge(files, names); err != nil || len(res.Games) != 1 {
		t.Fatalf("merge of one game: %v", err)
	}
}

// SameTournament names the first setting two results files differ in, each setting alone;
// the options' seed (overridden per game) and a batch of 0 against 1 are not differences.
func TestSameTournamentNamesTheSettingThatDiffers(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer", "random", "valuer")
	cfg.Games = 2
	files, _ := runShards(t, cfg, 1)
	base := files[0]
	for _, tc := range []struct {
		change func(f *ResultsFile)
		want   string
	}{
		{func(f *ResultsFile) { f.Agents = []string{"valuer", "shipper", "manufacturer", "random", "shipper"} }, "agents valuer,shipper,manufacturer,random,shipper, not valuer,shipper,manufacturer,random,valuer"},
		{func(f *ResultsFile) { f.Options.TurnLimit++ }, "options {"},
		{func(f *ResultsFile) { f.Seed++ }, "seed 43, not 42"},
		{func(f *ResultsFile) { f.Games = 3 }, "3 games, not 2"},
		{func(f *ResultsFile) { f.Batch = 2 }, "batch 2, not 0"},
		{func(f *ResultsFile) { f.Schedule = ScheduleBalanced }, "schedule balanced, not window"},
		{func(f *ResultsFile) { f.ToolVersion = "other" }, "tool version other, not test"},
		{func(f *ResultsFile) { f.Options.Seed = 99 }, ""},
		{func(f *ResultsFile) { f.Batch = 1 }, ""},
		{func(f *ResultsFile) { f.Schedule = ScheduleWindow }, ""},
	} {
		c := *base
		tc.change(&c)
		if got := c.SameTournament(base); got != tc.want && (tc.want == "" || !strings.HasPrefix(got, tc.want)) {
			t.Errorf("SameTournament = %q, want %q", got, tc.want)
		}
		if got := base.SameTournament(&c); (got == "") != (tc.want == "") {
			t.Errorf("the other way round: SameTournament = %q, want %q", got, tc.want)
		}
	}
}

// More than eight gaps: the first eight ranges are listed and the rest counted; eight are
// listed whole. The merged games, when none is missing, come out in index order.
func TestMerge_ListsAtMostEightMissingRanges(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer")
	cfg.Games = 20
	files, names := runShards(t, cfg, 1)
	for _, gaps := range []int{8, 9} {
		c := *files[0]
		c.Interrupted = true
		c.Results = nil
		for _, r := range files[0].Results {
			if r.Index%2 == 0 || r.Index/2 >= gaps { // games 1, 3, 5, ... missing, gaps of them
				c.Results = append(c.Results, r)
			}
		}
		_, err := Merge([]*ResultsFile{&c}, names)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d of 20 games missing", gaps)) {
			t.Fatalf("%d gaps: %v", gaps, err)
		}
		if n := strings.Count(err.Error(), "was interrupted"); n != 8 {
			t.Errorf("%d gaps: %d ranges listed, want 8: %v", gaps, n, err)
		}
		if more := strings.Contains(err.Error(), "more ranges"); more != (gaps > 8) || gaps > 8 && !strings.Contains(err.Error(), "and 1 more ranges") {
			t.Errorf("%d gaps: %v", gaps, err)
		}
	}
}
