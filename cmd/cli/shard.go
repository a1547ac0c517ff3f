package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/atomicfile"
	"github.com/container-rl/container/internal/progress"
	"github.com/spf13/cobra"
)

// shardIndexVars are the variables --shard auto/N reads the index from: Kubernetes Indexed
// Jobs set JOB_COMPLETION_INDEX, Slurm job arrays SLURM_ARRAY_TASK_ID (use --array=0-(N-1)).
var shardIndexVars = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}

// parseShard reads --shard I/N or auto/N (the index from the scheduler's variable).
func parseShard(s string) (index, count int, err error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("--shard %s: %s", s, fmt.Sprintf(format, args...))
	}
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return 0, 0, bad("want I/N (shard I of N, I from 0) or auto/N")
	}
	if count, err = strconv.Atoi(n); err != nil {
		return 0, 0, bad("the shard count %s is not a number", rules.Quote(n))
	}
	if count < 1 {
		return 0, 0, bad("the shard count must be at least 1")
	}
	if count > maxFlagShards {
		return 0, 0, bad("%d shards is above the maximum; at most %d", count, maxFlagShards)
	}
	if i == "auto" {
		var from string
		for _, v := range shardIndexVars {
			val, set := os.LookupEnv(v)
			if !set || strings.TrimSpace(val) == "" {
				continue
			}
			k, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				return 0, 0, bad("%s=%s is not a number", v, rules.Quote(val))
			}
			if from != "" && k != index {
				return 0, 0, bad("%s=%d and %s=%d disagree", from, index, v, k)
			}
			if from == "" {
				index, from = k, v
			}
		}
		if from == "" {
			return 0, 0, bad("neither %s (Kubernetes Indexed Job) nor %s (Slurm job array) is set; give the index: --shard I/%d",
				shardIndexVars[0], shardIndexVars[1], count)
		}
		if index < 0 || index >= count {
			return 0, 0, bad("%s=%d is outside 0 to %d (Slurm arrays must run --array=0-%d)", from, index, count-1, count-1)
		}
		return index, count, nil
	}
	if index, err = strconv.Atoi(i); err != nil {
		return 0, 0, bad("the index %s is not a number (or auto)", rules.Quote(i))
	}
	if index < 0 || index >= count {
		return 0, 0, bad("the index must be 0 to %d", count-1)
	}
	return index, count, nil
}

// shardName names shard index of count's output: a dataset directory (selfplay) or, with
// ".json" and the "results-" prefix, a tournament results file (eval, rate).
func shardName(index, count int) string { return fmt.Sprintf("shard-%05d-of-%05d", index, count) }

// selfplayPart applies --shard to selfplay's --out: the part to play and its directory.
func selfplayPart(shard, out string) (*datasets.Part, string, error) {
	if shard == "" {
		return nil, out, nil
	}
	i, n, err := parseShard(shard)
	if err != nil {
		return nil, "", err
	}
	if err := outIsDir(out); err != nil {
		return nil, "", err
	}
	return &datasets.Part{Index: i, Count: n}, filepath.Join(out, shardName(i, n)), nil
}

// outIsDir refuses an --out that exists and is not a directory (a shard writes inside it),
// or that lies under a file.
func outIsDir(out string) error {
	st, err := os.Stat(out)
	if err == nil && !st.IsDir() {
		return fmt.Errorf("--out %s is a file, not a directory; the shard's output goes inside --out", out)
	}
	if errors.Is(err, syscall.ENOTDIR) {
		for p := filepath.Dir(out); p != filepath.Dir(p); p = filepath.Dir(p) {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return fmt.Errorf("--out %s: %s is a file, not a directory", out, p)
			}
		}
		return fmt.Errorf("--out %s: %w", out, err)
	}
	return nil
}

// partGames is the number of games part p (nil: the whole run) plays.
func partGames(games, perShard int, p *datasets.Part) int {
	m := datasets.Manifest{Games: games, GamesPerShard: max(perShard, 1), Part: p}
	first, end := m.OwnedGames()
	return int(end - first)
}

// shardOptions are the flags eval and rate add for running on a cluster.
type shardOptions struct {
	shard     string
	out       string
	merge     bool
	mergeFrom []string // the arguments of --merge
	upgrade   bool     // --upgrade-results
}

func addShardFlags(cmd *cobra.Command, o *shardOptions) {
	f := cmd.Flags()
	f.StringVar(&o.shard, "shard", "", "play only shard I of N of the games (I/N, I from 0; auto/N reads I from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID); needs --out")
	f.StringVar(&o.out, "out", "", "directory to write this run's results file to (results-shard-I-of-N.json, every game's result), for --merge")
	f.BoolVar(&o.merge, "merge", false, "combine results files (the arguments: files, or directories holding results-shard-*.json) instead of playing")
	f.BoolVar(&o.upgrade, "upgrade-results", false, "with --merge: give results files written before they carried a checksum (container-eval-results/1) one, in place, once every check passes")
}

// tourneyArgs accepts no arguments, or with --merge one or more results files and none of
// the flags that describe the tournament (the files do).
func tourneyArgs(o *shardOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if o.upgrade && !o.merge {
			return fmt.Errorf("%w: --upgrade-results goes with --merge (it upgrades the files being merged)", ErrEvalOptions)
		}
		if !o.merge {
			return cobra.NoArgs(cmd, args)
		}
		if len(args) == 0 {
			return fmt.Errorf("%w: --merge needs the results files (or directories) to merge", ErrEvalOptions)
		}
		for _, name := range []string{"agents", "bots", "games", "players", "rules", "length", "modules", "turn-limit",
			"seed", "workers", "batch", "shard", "out", "save"} {
			if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
				return fmt.Errorf("%w: --merge takes the tournament from the results files; drop --%s", ErrEvalOptions, name)
			}
		}
		o.mergeFrom = args
		return nil
	}
}

// tourneyShard parses --shard for eval and rate.
func (o *shardOptions) tourneyShard() (*eval.Shard, error) {
	if o.shard == "" {
		return nil, nil
	}
	i, n, err := parseShard(o.shard)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEvalOptions, err)
	}
	if o.out == "" {
		return nil, fmt.Errorf("%w: --shard needs --out DIR for the shard's results file", ErrEvalOptions)
	}
	if err := outIsDir(o.out); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEvalOptions, err)
	}
	return &eval.Shard{Index: i, Count: n}, nil
}

// resultsPath is the file a run with --out writes.
func (o *shardOptions) resultsPath(cfg eval.Config) string {
	sh := eval.Shard{Index: 0, Count: 1}
	if cfg.Shard != nil {
		sh = *cfg.Shard
	}
	return filepath.Join(o.out, "results-"+shardName(sh.Index, sh.Count)+".json")
}

// playTourney plays the tournament (or merges results files with --merge) and, with --out,
// writes the results file. note receives one-line remarks (stderr); nil for none.
func playTourney(ctx context.Context, o tourneyOptions, keepRecords bool, note io.Writer) (*eval.Result, error) {
	if o.merge {
		return mergeResults(o.mergeFrom, o.upgrade, note)
	}
	cfg, err := tourneyConfig(o)
	if err != nil {
		return nil, err
	}
	cfg.KeepRecords = keepRecords
	var path string
	if o.out != "" {
		if err := outIsDir(o.out); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrEvalOptions, err)
		}
		path = o.resultsPath(cfg)
		// Refuse before playing if the file is someone else's. The file holds the options as
		// the game settles them (turn limit 0 becomes the default), so compare those.
		opts := cfg.Options
		if g, err := rules.NewGame(opts); err == nil {
			opts = g.Options()
		}
		if err := checkResultsTarget(path, eval.NewResultsFile(cfg, &eval.Result{Agents: cfg.Agents, Options: opts, Seed: cfg.Seed}, Version)); err != nil {
			return nil, err
		}
	}
	var bar *progress.Bar
	if o.progress != nil {
		total := cfg.Games
		if cfg.Shard != nil {
			first, end := cfg.Shard.Range(cfg.Games, cfg.Batch)
			total = end - first
		}
		bar = gamesBar(o.progress, total, "games")
		cfg.Progress = func(done, _ int) { _ = bar.Set(done) }
	}
	res, err := eval.Run(ctx, cfg)
	if err == nil && !res.Interrupted {
		_ = bar.Finish()
	} else {
		bar.Close()
	}
	if err != nil || path == "" {
		return res, err
	}
	f := eval.NewResultsFile(cfg, res, Version)
	if res.Interrupted {
		// A rerun of a shard that holds more games than this interrupted one keeps them
		// (checkResultsTarget proved before playing that the file is this shard's).
		if old, rerr := eval.ReadResultsFile(path); rerr == nil && len(old.Results) >= len(res.Games) {
			if note != nil {
				fmt.Fprintf(note, "interrupted: %d of %d games played; kept %s, which holds %d\n", len(res.Games), f.EndGame-f.FirstGame, path, len(old.Results))
			}
			return res, nil
		}
	}
	b, err := f.Marshal()
	if err == nil {
		if err = os.MkdirAll(o.out, 0o755); err == nil {
			err = atomicfile.Write(path, b)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("eval: --out: %w", err)
	}
	if note != nil {
		if res.Interrupted {
			fmt.Fprintf(note, "interrupted: %d of %d games written to %s; run this shard again to complete it\n", len(res.Games), f.EndGame-f.FirstGame, path)
		} else {
			fmt.Fprintf(note, "results of games [%d,%d) written to %s\n", f.FirstGame, f.EndGame, path)
		}
	}
	return res, nil
}

// checkResultsTarget refuses to replace a file that is not a results file of the same
// tournament and shard (a rerun of this shard may replace its own earlier file).
func checkResultsTarget(path string, want *eval.ResultsFile) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%w: --out: %w", ErrEvalOptions, err)
	}
	old, err := eval.ReadResultsFile(path)
	if err != nil {
		return fmt.Errorf("%w: --out: %s exists and is not a results file this build reads (%v); not replacing it", ErrEvalOptions, path, err)
	}
	if d := old.SameTournament(want); d != "" {
		return fmt.Errorf("%w: --out: %s holds another tournament's results (%s); not replacing it, pick another --out", ErrEvalOptions, path, d)
	}
	if old.Shard != want.Shard {
		return fmt.Errorf("%w: --out: %s holds shard %s, not %s; not replacing it", ErrEvalOptions, path, old.Shard, want.Shard)
	}
	return nil
}

// mergeResults reads the named results files (a directory stands for its
// results-shard-*.json files) and merges them. With upgrade, files of the format without a
// checksum are checked like any other and, once every named file has passed, written again
// with their checksum (nothing is written if one fails); note hears of each.
func mergeResults(args []string, upgrade bool, note io.Writer) (*eval.Result, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%w: --merge: %w", ErrEvalOptions, err)
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		found, _ := filepath.Glob(filepath.Join(a, "results-shard-*.json"))
		if len(found) == 0 {
			return nil, fmt.Errorf("%w: --merge: %s holds no results-shard-*.json files", ErrEvalOptions, a)
		}
		sort.Strings(found)
		paths = append(paths, found...)
	}
	files := make([]*eval.ResultsFile, len(paths))
	var stale []int
	for i, p := range paths {
		var err error
		if !upgrade {
			files[i], err = eval.ReadResultsFile(p)
		} else {
			var old bool
			files[i], old, err = eval.ReadResultsFileForUpgrade(p)
			if old {
				stale = append(stale, i)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	res, err := eval.Merge(files, paths)
	if err != nil {
		return nil, err
	}
	for _, i := range stale { // every file replaceable before the first is replaced
		if st, err := os.Lstat(paths[i]); err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%w: --upgrade-results: %s is not a regular file (a link is not followed); not upgrading any file", ErrEvalOptions, paths[i])
		}
	}
	for _, i := range stale {
		if err := upgradeResultsFile(paths[i], files[i]); err != nil {
			return nil, err
		}
		if note != nil {
			fmt.Fprintf(note, "upgraded %s: every check passed; checksum added (format %s)\n", paths[i], eval.ResultsFormat)
		}
	}
	return res, nil
}

// upgradeResultsFile writes f over path, a regular file (not a link) it was read from.
func upgradeResultsFile(path string, f *eval.ResultsFile) error {
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%w: --upgrade-results: %s is not a regular file; not replacing it", ErrEvalOptions, path)
	}
	b, err := f.Marshal()
	if err == nil {
		err = atomicfile.Write(path, b)
	}
	if err != nil {
		return fmt.Errorf("eval: --upgrade-results: %s: %w", path, err)
	}
	return nil
}
