package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// runShards plays cfg as count shards and returns their results files, round-tripped
// through JSON as they would be on disk.
func runShards(t *testing.T, cfg Config, count int) ([]*ResultsFile, []string) {
	t.Helper()
	var files []*ResultsFile
	var names []string
	for i := 0; i < count; i++ {
		c := cfg
		c.Shard = &Shard{Index: i, Count: count}
		r, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(NewResultsFile(c, r, "test"))
		if err != nil {
			t.Fatal(err)
		}
		f := &ResultsFile{}
		if err := json.Unmarshal(b, f); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		names = append(names, fmt.Sprintf("shard-%d", i))
	}
	return files, names
}

func TestShardRange_CoversTheGamesOnceInWholeBlocks(t *testing.T) {
	for _, tc := range []struct{ games, batch, count int }{{12, 0, 3}, {10, 0, 3}, {10, 4, 3}, {3, 0, 5}, {100, 7, 8}, {1, 1, 1}} {
		next := 0
		for i := 0; i < tc.count; i++ {
			first, end := Shard{i, tc.count}.Range(tc.games, tc.batch)
			if first != next || end < first {
				t.Fatalf("%+v: shard %d is [%d,%d), want it to start at %d", tc, i, first, end, next)
			}
			if b := max(tc.batch, 1); first%b != 0 || (end%b != 0 && end != tc.games) {
				t.Fatalf("%+v: shard %d [%d,%d) splits a block of %d", tc, i, first, end, b)
			}
			next = end
		}
		if next != tc.games {
			t.Fatalf("%+v: shards end at %d", tc, next)
		}
	}
}

func TestMerge_ShardsGiveTheSameTableAndRatingsAsOneRun(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer", "random")
	one, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	files, names := runShards(t, cfg, 3)
	merged, err := Merge(files, names)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, merged) {
		t.Fatalf("merged result differs from one run")
	}
	if !reflect.DeepEqual(Summarize(one), Summarize(merged)) {
		t.Fatalf("summaries differ")
	}
	if !reflect.DeepEqual(DefaultRatingModel.Rate(one), DefaultRatingModel.Rate(merged)) {
		t.Fatalf("ratings differ")
	}
	// Files in any order merge the same.
	rev, err := Merge([]*ResultsFile{files[2], files[0], files[1]}, nil)
	if err != nil || !reflect.DeepEqual(rev, merged) {
		t.Fatalf("reordered merge: %v", err)
	}
}

// seededBatch is a batch bot whose choices depend on its seed and on how many decisions it
// has made, so results depend on where the lockstep blocks start.
type seededBatch struct{ seed uint64 }

func (b *seededBatch) Name() string { return "seeded-batch" }
func (b *seededBatch) Act(_ *rules.State, l []int) int {
	b.seed = mix(b.seed)
	return l[b.seed%uint64(len(l))]
}
func (b *seededBatch) ActBatch(v []*rules.State, l [][]int, out []int) {
	for i := range v {
		out[i] = b.Act(v[i], l[i])
	}
}

func TestMerge_BatchedShardsKeepTheBlocksOfOneRun(t *testing.T) {
	cfg := smallConfig("seeded-batch", "valuer", "shipper")
	cfg.Games, cfg.Batch = 11, 4
	cfg.NewBot = func(name string, o rules.Options, seed uint64) (bots.Bot, error) {
		if name == "seeded-batch" {
			return &seededBatch{seed}, nil
		}
		return bots.New(name, o, seed)
	}
	one, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	files, names := runShards(t, cfg, 2)
	merged, err := Merge(files, names)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Games, merged.Games) {
		t.Fatalf("batched shards differ from one batched run")
	}
}

func TestMerge_RefusesWhatIsNotOneTournament(t *testing.T) {
	cfg := smallConfig("valuer", "random", "shipper")
	cfg.Games = 9
	files, names := runShards(t, cfg, 3)
	expect := func(want string, fs []*ResultsFile, ns []string) {
		t.Helper()
		_, err := Merge(fs, ns)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("got %v, want an error containing %q", err, want)
		}
	}
	expect("games [3,6): no file named holds them", []*ResultsFile{files[0], files[2]}, []string{names[0], names[2]})
	expect("game 3 is in both shard-1 and shard-1b", []*ResultsFile{files[0], files[1], files[2], files[1]},
		[]string{names[0], names[1], names[2], "shard-1b"})

	other := cfg
	other.Seed++
	ofiles, _ := runShards(t, other, 3)
	expect("seed 43, not 42", []*ResultsFile{files[0], ofiles[1], files[2]}, names)
	more := cfg
	more.Games = 12
	mfiles, _ := runShards(t, more, 3)
	expect("12 games, not 9", []*ResultsFile{files[0], mfiles[1]}, names[:2])

	// An interrupted shard: the games it did not play are named, with the shard.
	cut := *files[1]
	cut.Results, cut.Interrupted = cut.Results[:1], true
	expect("games [4,6): shard 1/3 in shard-1 was interrupted after 1 of 3 games (run it again)",
		[]*ResultsFile{files[0], &cut, files[2]}, names)
	// A file edited by hand: a game whose seed is not the tournament's.
	bad := *files[2]
	bad.Results = append([]GameResult{}, bad.Results...)
	bad.Results[0].Seed++
	expect("has seed", []*ResultsFile{files[0], files[1], &bad}, names)
	// Not marked interrupted but short.
	short := *files[2]
	short.Results = short.Results[1:]
	expect("not marked interrupted", []*ResultsFile{files[0], files[1], &short}, names)
}
