package eval

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Merge's gap detection at its boundaries: one game missing at the very start, at the very
// end, on either side of a shard boundary, a shard cut one game before its end; one game held
// twice at a boundary; and the whole set, which merges.

// without returns a copy of f without the game of index g, marked interrupted (the way a
// shard stopped early writes its file) or not.
func without(f *ResultsFile, g int, interrupted bool) *ResultsFile {
	c := *f
	c.Results = nil
	for _, r := range f.Results {
		if r.Index != g {
			c.Results = append(c.Results, r)
		}
	}
	c.Interrupted = interrupted
	return &c
}

func TestMerge_OneMissingGameIsRefusedWhereverItIs(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer")
	cfg.Games = 9
	files, names := runShards(t, cfg, 3) // [0,3) [3,6) [6,9)
	if _, err := Merge(files, names); err != nil {
		t.Fatalf("every game present: %v", err)
	}
	for _, tc := range []struct {
		game, shard int
		why         string
	}{
		{0, 0, "the first game of the tournament"},
		{2, 0, "the last game of a shard before a boundary"},
		{3, 1, "the first game of a shard after a boundary"},
		{5, 1, "the last game of a middle shard"},
		{8, 2, "the last game of the tournament"},
	} {
		// An interrupted shard's file that holds all but one game: only a game at its end can
		// be missing that way, but Merge must refuse any gap whatever the file claims.
		for _, interrupted := range []bool{true, false} {
			fs := append([]*ResultsFile{}, files...)
			fs[tc.shard] = without(files[tc.shard], tc.game, interrupted)
			_, err := Merge(fs, names)
			if err == nil {
				t.Errorf("%s (game %d) missing, interrupted %v: merged", tc.why, tc.game, interrupted)
				continue
			}
			if !interrupted {
				// Validate catches a short file that does not say it was interrupted.
				if !strings.Contains(err.Error(), "not marked interrupted") {
					t.Errorf("%s: %v", tc.why, err)
				}
				continue
			}
			want := fmt.Sprintf("1 of 9 games missing: games [%d,%d): shard %d/3 in %s was interrupted after 2 of 3 games", tc.game, tc.game+1, tc.shard, names[tc.shard])
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v\nwant it to contain %q", tc.why, err, want)
			}
		}
	}
	// A shard whose file is missing altogether, at either end.
	for _, s := range []int{0, 2} {
		var fs []*ResultsFile
		var ns []string
		for i := range files {
			if i != s {
				fs, ns = append(fs, files[i]), append(ns, names[i])
			}
		}
		_, err := Merge(fs, ns)
		want := fmt.Sprintf("3 of 9 games missing: games [%d,%d): no file named holds them", 3*s, 3*s+3)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("shard %d's file left out: %v, want %q", s, err, want)
		}
	}
	// Two gaps, each of one game, are both named.
	fs := append([]*ResultsFile{}, files...)
	fs[0] = without(files[0], 2, true)
	fs[2] = without(files[2], 8, true)
	_, err := Merge(fs, names)
	if err == nil || !strings.Contains(err.Error(), "2 of 9 games missing: games [2,3)") || !strings.Contains(err.Error(), "; games [8,9)") {
		t.Errorf("two one-game gaps: %v", err)
	}
}

// A shard cut exactly one game before its end, the shape a Ctrl-C'd last game leaves, is
// refused and named, whichever shard it is; a shard cut after zero games too.
func TestMerge_AShardInterruptedOneGameBeforeItsEndIsRefused(t *testing.T) {
	cfg := smallConfig("valuer", "random", "shipper")
	cfg.Games = 8
	files, names := runShards(t, cfg, 2) // [0,4) [4,8)
	for s, last := range []int{3, 7} {
		fs := append([]*ResultsFile{}, files...)
		cut := *files[s]
		cut.Results, cut.Interrupted = files[s].Results[:len(files[s].Results)-1], true
		fs[s] = &cut
		_, err := Merge(fs, names)
		want := fmt.Sprintf("1 of 8 games missing: games [%d,%d): shard %d/2 in %s was interrupted after 3 of 4 games (run it again)", last, last+1, s, names[s])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("shard %d cut one game short: %v\nwant %q", s, err, want)
		}
		empty := *files[s]
		empty.Results, empty.Interrupted = nil, true
		fs[s] = &empty
		_, err = Merge(fs, names)
		want = fmt.Sprintf("4 of 8 games missing: games [%d,%d): shard %d/2 in %s was interrupted after 0 of 4 games", 4*s, 4*s+4, s, names[s])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("shard %d with no game: %v\nwant %q", s, err, want)
		}
	}
	// The whole tournament as one file with its last game missing.
	whole, wnames := runShards(t, cfg, 1)
	cut := *whole[0]
	cut.Results, cut.Interrupted = whole[0].Results[:7], true
	_, err := Merge([]*ResultsFile{&cut}, wnames)
	if err == nil || !strings.Contains(err.Error(), "1 of 8 games missing: games [7,8)") {
		t.Errorf("one file, last game missing: %v", err)
	}
	if res, err := Merge(whole, wnames); err != nil || len(res.Games) != 8 {
		t.Errorf("one whole file: %v", err)
	}
}

// A game held twice is refused at a shard boundary too, with both files named.
func TestMerge_AGameHeldTwiceAtABoundaryIsRefused(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer")
	cfg.Games = 6
	files, names := runShards(t, cfg, 2) // [0,3) [3,6)
	// A forged file for shard 0 that also claims game 3 cannot validate (outside its range);
	// two copies of shard 1 under different names hold games 3-5 twice.
	_, err := Merge([]*ResultsFile{files[0], files[1], files[1]}, []string{names[0], names[1], "copy"})
	if err == nil || !strings.Contains(err.Error(), "game 3 is in both "+names[1]+" and copy") {
		t.Errorf("shard 1 twice: %v", err)
	}
	grab := *files[0]
	grab.Results = append(append([]GameResult{}, files[0].Results...), files[1].Results[0])
	_, err = Merge([]*ResultsFile{&grab, files[1]}, names)
	if err == nil || !strings.Contains(err.Error(), "outside the shard's games [0,3)") {
		t.Errorf("shard 0 holding game 3: %v", err)
	}
}

// With batched games (blocks of 4) the shards hold whole blocks; one game missing from the
// end of a block or of the tournament is refused all the same.
func TestMerge_OneMissingGameOfABatchedTournamentIsRefused(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer", "random")
	cfg.Games, cfg.Batch = 10, 4
	files, names := runShards(t, cfg, 3) // [0,4) [4,8) [8,10)
	if res, err := Merge(files, names); err != nil || len(res.Games) != 10 {
		t.Fatalf("every game present: %v", err)
	}
	for _, tc := range []struct{ game, shard int }{{3, 0}, {4, 1}, {7, 1}, {9, 2}} {
		fs := append([]*ResultsFile{}, files...)
		fs[tc.shard] = without(files[tc.shard], tc.game, true)
		_, err := Merge(fs, names)
		want := fmt.Sprintf("1 of 10 games missing: games [%d,%d)", tc.game, tc.game+1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("game %d missing: %v, want %q", tc.game, err, want)
		}
	}
}

// Files named in any order merge alike; a shard named twice is reported at its first game,
// naming the two files in the order given, whichever comes first.
func TestMerge_FilesInAnyOrderAndACopyNamedFirst(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer")
	cfg.Games = 9
	files, names := runShards(t, cfg, 3)
	one, err := Merge(files, names)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := Merge([]*ResultsFile{files[2], files[0], files[1]}, []string{names[2], names[0], names[1]})
	if err != nil || len(rev.Games) != 9 {
		t.Fatalf("files in another order: %v", err)
	}
	for i := range one.Games {
		if one.Games[i].Index != rev.Games[i].Index || one.Games[i].Seed != rev.Games[i].Seed {
			t.Fatalf("game %d differs when the files are named in another order", i)
		}
	}
	_, err = Merge([]*ResultsFile{files[1], files[0], files[1], files[2]}, []string{"copy", names[0], names[1], names[2]})
	if err == nil || !strings.Contains(err.Error(), "game 3 is in both copy and "+names[1]) {
		t.Errorf("a copy of shard 1 named first: %v", err)
	}
	// A copy cut after its first game (an interrupted rerun): the game it shares is named
	// with both files, not the next game's holder.
	cut := *files[1]
	cut.Results, cut.Interrupted = files[1].Results[:1], true
	_, err = Merge([]*ResultsFile{&cut, files[0], files[1], files[2]}, []string{"cut", names[0], names[1], names[2]})
	if err == nil || !strings.Contains(err.Error(), "game 3 is in both cut and "+names[1]) {
		t.Errorf("a one-game copy of shard 1: %v", err)
	}
	// Enough games that the sort is not a plain insertion sort (more than 12 held games).
	big := cfg
	big.Games = 30
	bfiles, bnames := runShards(t, big, 3) // [0,10) [10,20) [20,30)
	_, err = Merge([]*ResultsFile{bfiles[2], bfiles[1], bfiles[0], bfiles[1]}, []string{bnames[2], "copy", bnames[0], bnames[1]})
	if err == nil || !strings.Contains(err.Error(), "game 10 is in both copy and "+bnames[1]) {
		t.Errorf("30 games, a copy of shard 1: %v", err)
	}
	if res, err := Merge([]*ResultsFile{bfiles[2], bfiles[0], bfiles[1]}, nil); err != nil || len(res.Games) != 30 {
		t.Errorf("30 games in another order: %v", err)
	} else {
		for i, g := range res.Games {
			if g.Index != i {
				t.Fatalf("merged game %d has index %d", i, g.Index)
			}
		}
	}
	// Without names the files are numbered from 1 in the order given.
	_, err = Merge([]*ResultsFile{files[0], files[2]}, nil)
	if err == nil || !strings.Contains(err.Error(), "games [3,6): no file named holds them") {
		t.Errorf("unnamed files with a gap: %v", err)
	}
	_, err = Merge([]*ResultsFile{files[0], files[1], files[1]}, nil)
	if err == nil || !strings.Contains(err.Error(), "game 3 is in both results file 2 and results file 3") {
		t.Errorf("unnamed files, one twice: %v", err)
	}
	short := *files[2]
	short.Results = files[2].Results[1:]
	_, err = Merge([]*ResultsFile{files[0], files[1], &short}, nil)
	if err == nil || !strings.Contains(err.Error(), "results file 3: ") || !strings.Contains(err.Error(), "2 games for the shard's 3, and not marked interrupted") {
		t.Errorf("unnamed short file: %v", err)
	}
}

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
