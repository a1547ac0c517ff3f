package eval

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// shardFilesOf cuts the result of one whole run into the files of count shards (games in
// blocks of batch), as the shards would have written them.
func shardFilesOf(cfg Config, all *Result, count, batch int) ([]*ResultsFile, []string) {
	var files []*ResultsFile
	var names []string
	for i := 0; i < count; i++ {
		c := cfg
		c.Shard, c.Batch = &Shard{Index: i, Count: count}, batch
		first, end := c.Shard.Range(c.Games, batch)
		part := *all
		part.Games = append([]GameResult(nil), all.Games[first:end]...)
		files = append(files, NewResultsFile(c, &part, "test"))
		names = append(names, fmt.Sprintf("shard-%d-of-%d", i, count))
	}
	return files, names
}

// Any one game missing is refused, wherever it is: the first or last game of the tournament,
// the first or last game of a shard (either side of every shard boundary), the only game of a
// one-game shard or tournament; with and without lockstep blocks.
func TestMerge_RefusesAnyOneMissingGame(t *testing.T) {
	for _, games := range []int{1, 2, 9} {
		cfg := smallConfig("random", "valuer", "shipper")
		cfg.Games = games
		all, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, count := range []int{1, 2, 3, games} {
			for _, batch := range []int{0, 4} {
				files, names := shardFilesOf(cfg, all, count, batch)
				if _, err := Merge(files, names); err != nil {
					t.Fatalf("%d games, %d shards, batch %d: the complete files do not merge: %v", games, count, batch, err)
				}
				for i, f := range files {
					if count > 1 {
						rest := append(append([]*ResultsFile(nil), files[:i]...), files[i+1:]...)
						restNames := append(append([]string(nil), names[:i]...), names[i+1:]...)
						if len(f.Results) > 0 {
							if _, err := Merge(rest, restNames); err == nil || !strings.Contains(err.Error(), "missing") {
								t.Errorf("%d games, %d shards, batch %d: without %s: %v, want missing games", games, count, batch, names[i], err)
							}
						}
					}
					for j, g := range f.Results {
						cut := *f
						cut.Results = append(append([]GameResult(nil), f.Results[:j]...), f.Results[j+1:]...)
						cut.Interrupted = true
						set := append([]*ResultsFile(nil), files...)
						set[i] = &cut
						want := fmt.Sprintf("1 of %d games missing: games [%d,%d): shard %s in %s was interrupted after %d of %d games",
							games, g.Index, g.Index+1, f.Shard, names[i], len(f.Results)-1, f.EndGame-f.FirstGame)
						if _, err := Merge(set, names); err == nil || !strings.Contains(err.Error(), want) {
							t.Errorf("%d games, %d shards, batch %d, game %d missing: %v, want %q", games, count, batch, g.Index, err, want)
						}
						cut.Interrupted = false
						if _, err := Merge(set, names); err == nil || !strings.Contains(err.Error(), "not marked interrupted") {
							t.Errorf("%d games, %d shards, batch %d, game %d missing unmarked: %v", games, count, batch, g.Index, err)
						}
					}
				}
			}
		}
	}
}
