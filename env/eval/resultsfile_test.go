package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sealedFile plays a small tournament and returns its results file as written to disk.
func sealedFile(t *testing.T) (*ResultsFile, []byte) {
	t.Helper()
	cfg := smallConfig("valuer", "shipper", "random")
	cfg.Games = 6
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := NewResultsFile(cfg, res, "test")
	b, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return f, b
}

// edit decodes a written results file as plain JSON, lets change alter it, and encodes it
// again; with reseal the checksum is recomputed (a forger who knows the algorithm).
func edit(t *testing.T, b []byte, reseal bool, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if reseal {
		sum, err := resultsSum(out)
		if err != nil {
			t.Fatal(err)
		}
		m["checksum"] = sum
		if out, err = json.Marshal(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// score returns seat s's score object of game g in a decoded results file.
func scoreOf(m map[string]any, g, s int) map[string]any {
	return m["results"].([]any)[g].(map[string]any)["scores"].([]any)[s].(map[string]any)
}

func num(v any) int {
	n, _ := v.(json.Number).Int64()
	return int(n)
}

func TestResultsFile_ReadsBackWhatWasWritten(t *testing.T) {
	f, b := sealedFile(t)
	got, err := ParseResultsFile(b)
	if err != nil {
		t.Fatal(err)
	}
	want := *f
	want.Checksum = got.Checksum
	if !reflect.DeepEqual(got, &want) || got.Checksum == "" || got.Format != ResultsFormat {
		t.Fatalf("read back %+v", got)
	}
	// Pretty-printing changes no value: the checksum still holds.
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseResultsFile(pretty.Bytes()); err != nil {
		t.Fatalf("pretty-printed: %v", err)
	}
}

// A forged or damaged file is refused: an edit fails the checksum, and an edit whose
// checksum was recomputed fails the cross-checks of totals, ranks, winners, seeds and seats.
func TestResultsFile_EditedFilesAreRefused(t *testing.T) {
	_, b := sealedFile(t)
	type change func(m map[string]any)
	// loser is a seat that did not win game 2.
	loser := func(m map[string]any) map[string]any {
		for s := 0; ; s++ {
			if sc := scoreOf(m, 2, s); num(sc["rank"]) > 1 {
				return sc
			}
		}
	}
	addToTotal := func(m map[string]any) { s := loser(m); s["total"] = json.Number(fmt.Sprint(num(s["total"]) + 900)) }
	moveWinner := func(m map[string]any) {
		for s := range 3 {
			sc := scoreOf(m, 0, s)
			sc["winner"] = !sc["winner"].(bool)
		}
	}
	for _, tc := range []struct {
		name   string
		reseal bool
		change change
		want   string
	}{
		{"a total 900 higher", false, addToTotal, "checksum mismatch"},
		{"a total 900 higher, resealed", true, addToTotal, "'s total"},
		{"a total and its cash 900 higher, resealed", true, func(m map[string]any) {
			s := loser(m)
			addToTotal(m)
			s["cash"] = json.Number(fmt.Sprint(num(s["cash"]) + 900))
		}, "rank"},
		{"the winner flag moved", false, moveWinner, "checksum mismatch"},
		{"the winner flag moved, resealed", true, moveWinner, "winner flag"},
		{"a rank changed, resealed", true, func(m map[string]any) { scoreOf(m, 3, 0)["rank"] = json.Number("9") }, "has rank 9"},
		{"a game's steps changed", false, func(m map[string]any) {
			m["results"].([]any)[1].(map[string]any)["steps"] = json.Number("5")
		}, "checksum mismatch"},
		{"a seed changed, resealed", true, func(m map[string]any) {
			m["results"].([]any)[1].(map[string]any)["seed"] = json.Number("7")
		}, "has seed 7"},
		{"seats swapped, resealed", true, func(m map[string]any) {
			a := m["results"].([]any)[1].(map[string]any)["agents"].([]any)
			a[0], a[1] = a[1], a[0]
		}, "seats agents"},
		{"the tournament seed changed", false, func(m map[string]any) { m["seed"] = json.Number("43") }, "checksum mismatch"},
		{"no checksum", false, func(m map[string]any) { delete(m, "checksum") }, "no checksum"},
		{"a game dropped and marked interrupted, resealed", true, func(m map[string]any) {
			m["results"] = m["results"].([]any)[1:]
			m["interrupted"] = true
		}, ""}, // consistent: Merge names the missing game
		{"an unknown key", true, func(m map[string]any) { m["note"] = "x" }, "unknown key"},
		{"a key in capitals", true, func(m map[string]any) { m["SEED"] = m["seed"]; delete(m, "seed") }, "unknown key"},
	} {
		_, err := ParseResultsFile(edit(t, b, tc.reseal, tc.change))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrMerge) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%s: %v, want one line containing %q", tc.name, err, tc.want)
		}
	}
	dup := bytes.Replace(b, []byte(`"seed":`), []byte(`"seed":1,"seed":`), 1)
	if _, err := ParseResultsFile(dup); err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Errorf("a key given twice: %v", err)
	}
}

// A file of the format before checksums is refused by readers and accepted, once checked, by
// the upgrade; an edited one is refused by both.
func TestResultsFile_OldFormatNeedsTheUpgrade(t *testing.T) {
	_, b := sealedFile(t)
	old := edit(t, b, false, func(m map[string]any) { m["format"] = ResultsFormatV1; delete(m, "checksum") })
	if _, err := ParseResultsFile(old); !errors.Is(err, ErrNoChecksum) || !strings.Contains(err.Error(), "--upgrade-results") {
		t.Fatalf("old format read: %v", err)
	}
	f, upgraded, err := UpgradeResultsFile(old)
	if err != nil || !upgraded {
		t.Fatalf("upgrade: %v, %v", upgraded, err)
	}
	nb, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseResultsFile(nb); err != nil {
		t.Fatalf("upgraded file: %v", err)
	}
	if _, upgraded, err := UpgradeResultsFile(nb); err != nil || upgraded {
		t.Fatalf("upgrading a current file: %v, %v", upgraded, err)
	}
	forged := edit(t, old, false, func(m map[string]any) { scoreOf(m, 0, 0)["winner"] = !scoreOf(m, 0, 0)["winner"].(bool) })
	if _, _, err := UpgradeResultsFile(forged); err == nil || !strings.Contains(err.Error(), "winner flag") {
		t.Fatalf("upgrade of an edited old file: %v", err)
	}
	withSum := edit(t, old, false, func(m map[string]any) { m["checksum"] = "00" })
	if _, _, err := UpgradeResultsFile(withSum); err == nil {
		t.Fatalf("an old-format file with a checksum is upgraded")
	}
}

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
