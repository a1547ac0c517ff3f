package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/atomicfile"
	"github.com/container-rl/container/internal/rundir"
	"github.com/spf13/cobra"
)

// ErrEvalOptions is wrapped by every eval and rate option error.
var ErrEvalOptions = errors.New("eval: invalid options")

// tourneyOptions are the flags eval and rate share.
type tourneyOptions struct {
	gameFlags
	agents   string
	games    int
	seed     uint64
	workers  int
	batch    int
	json     bool
	schedule string
	progress io.Writer // progress bar destination (stderr); nil for none
	quiet    bool      // --quiet: no progress
	shardOptions
	// maxAgents bounds --agents (0: one per seat at most); rate takes a ladder of more
	// agents than seats, --schedule saying which of them sit in each game.
	maxAgents int
}

func addTourneyFlags(cmd *cobra.Command, o *tourneyOptions) {
	f := cmd.Flags()
	f.StringVar(&o.agents, "agents", "", fmt.Sprintf("comma-separated bot names or .bot files, 1 to %d; a trained bot may end in @T to sample at temperature T (see container bots); required",
		max(o.maxAgents, rules.MaxPlayers)))
	f.StringVar(&o.agents, "bots", "", "alias of --agents")
	f.IntVar(&o.games, "games", 100, "number of games (seat rotation is exact for a multiple of the number of agents)")
	addGameFlags(cmd, &o.gameFlags, gameFlagSet{playersFromAgents: true, turnLimit: true})
	f.Uint64Var(&o.seed, "seed", 1, "tournament seed: fixes every game's setup and every bot's seed")
	f.IntVar(&o.workers, "workers", 0, "parallel games (0: one per CPU); results do not depend on it")
	f.IntVar(&o.batch, "batch", 0, "games each worker plays in lockstep so trained bots decide in batches (0: off)")
	f.BoolVar(&o.json, "json", false, "print JSON instead of a table")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress bar (on a terminal) or progress lines (elsewhere) on standard error")
	f.StringVar(&o.schedule, "schedule", string(eval.ScheduleBalanced), "with more agents than seats, who sits in each game: balanced (every set of agents in turn, each pair meeting equally often) or window (agents g, g+1, ... in game g)")
	addShardFlags(cmd, &o.shardOptions)
	cmd.Args = tourneyArgs(&o.shardOptions)
}

// tourneyConfig checks the shared flags and builds the tournament configuration.
func tourneyConfig(o tourneyOptions) (eval.Config, error) {
	var cfg eval.Config
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrEvalOptions, fmt.Sprintf(format, args...))
	}
	cfg.Agents = bots.SplitAgents(o.agents)
	if len(cfg.Agents) == 0 {
		return cfg, bad("--agents is required (for example --agents valuer,shipper,manufacturer,random)")
	}
	if most := max(o.maxAgents, rules.MaxPlayers); len(cfg.Agents) > most {
		return cfg, bad("--agents names %d bots; at most %d", len(cfg.Agents), most)
	}
	if err := checkIntFlags(intIn("eval", "games", o.games), intIn("eval", "workers", o.workers),
		intIn("eval", "batch", o.batch)); err != nil {
		return cfg, fmt.Errorf("%w: %w", ErrEvalOptions, err)
	}
	if o.games < 1 {
		return cfg, bad("--games %d is less than 1", o.games)
	}
	if o.workers < 0 {
		return cfg, bad("--workers %d is negative", o.workers)
	}
	if o.batch < 0 {
		return cfg, bad("--batch %d is negative", o.batch)
	}
	opts, err := o.rulesOptions(len(cfg.Agents))
	if err != nil {
		return cfg, fmt.Errorf("%w: %w", ErrEvalOptions, err)
	}
	cfg.Options, cfg.Games, cfg.Seed, cfg.Workers, cfg.Batch = opts, o.games, o.seed, o.workers, o.batch
	cfg.Schedule = eval.ScheduleBalanced // the flag's default (options built in code leave it empty)
	if o.schedule != "" {
		cfg.Schedule, err = eval.ParseSchedule(o.schedule)
	}
	if err != nil {
		return cfg, bad("--schedule %s: want balanced (every set of agents in turn) or window (a window rotating along the list)", rules.Quote(o.schedule))
	}
	if cfg.Shard, err = o.tourneyShard(); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// interruptible returns a context cancelled by Ctrl-C, so a long run prints what it has.
func interruptible(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	parent := cmd.Context()
	if parent == nil {
		parent = context.Background()
	}
	return signal.NotifyContext(parent, os.Interrupt)
}

type evalOptions struct {
	tourneyOptions
	save  string
	csv   string
	force bool
}

func newEvalCmd() *cobra.Command {
	o := evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Play a tournament between bots and report win rates, scores and seat effects",
		Long: `Play a tournament between bots. Seats are rotated so every agent plays every seat equally
often (exactly so when --games is a multiple of the number of agents); with fewer agents than
players an agent fills several seats. Every game's setup and every bot's seed come from --seed
and the game's index, so the results are the same whatever --workers is.

Per agent: games (seats played), wins (shared wins split), win rate with a 95% Wilson interval,
mean and median final total, mean rank, and the mean score breakdown (cash, island, leftover
containers, loans). Then the win rate by turn order (of whoever moved first, second, ...: the
first player is drawn at setup, and the records say who it was) and by seat, game lengths and
why the games ended. Ctrl-C stops early, prints (and saves) the results so far and exits with
status 130.

--save DIR writes every game as a game record (container-game/1 JSON, naming the agent of
each seat) that container replay reads; DIR must be new, empty or an earlier eval --save
directory, whose game files are replaced (with --shard, those of the shard's games). --csv
FILE writes the per-agent table as CSV ("-": to standard output, the table then going to
standard error); an existing regular FILE is replaced only when it is an eval CSV (or with
--force); a device or named pipe (/dev/stdout) is written through, a symbolic link followed,
and nothing else is ever replaced (docs/FILES.md). Both are checked before the first game is played, and
the table is printed even when writing them fails.

On a cluster, --shard I/N --out DIR plays only shard I of N of the games (auto/N: I from
JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID) and writes DIR/results-shard-I-of-N.json;
--merge DIR (or the files) prints the table one run would have (docs/SCALE.md).`,
		Example: `  container eval --agents valuer,shipper,manufacturer,random --games 400
  container eval --agents valuer,random --players 4 --games 200 --modules all --json
  container eval --agents shipper,valuer,manufacturer --rules classic --games 90 --save runs/games
  container eval --agents valuer,shipper,manufacturer,random --games 400000 --shard auto/8 --out /shared/eval/t1
  container eval --merge /shared/eval/t1`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.quiet {
				o.progress = cmd.ErrOrStderr()
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			return runEval(ctx, o, cmd.OutOrStdout())
		},
	}
	addTourneyFlags(cmd, &o.tourneyOptions)
	cmd.Flags().StringVar(&o.save, "save", "", "directory to write every game's record to (created)")
	cmd.Flags().StringVar(&o.csv, "csv", "", "file to write the per-agent results to as CSV")
	cmd.Flags().BoolVar(&o.force, "force", false, "with --csv: replace a regular FILE even if it is not an eval CSV")
	return cmd
}

func init() { register(newEvalCmd) }

func runEval(ctx context.Context, o evalOptions, out io.Writer) error {
	// The outputs are checked before the first game: a tournament is not lost to a typo.
	if o.csv != "" {
		if err := rundir.CheckFile(o.csv, "an eval CSV", rundir.HasPrefix(evalCSVHeader), o.force); err != nil {
			return fmt.Errorf("eval: --csv: %w", err)
		}
	}
	if o.save != "" {
		if err := rundir.Check(o.save, rundir.EvalGames); err != nil {
			return fmt.Errorf("eval: --save: %w", err)
		}
	}
	res, err := playTourney(ctx, o.tourneyOptions, o.save != "", o.progress)
	if err != nil {
		return err
	}
	if res.Interrupted && o.progress != nil {
		fmt.Fprintln(o.progress) // end the progress bar's line
	}
	sum := eval.Summarize(res)
	// With --csv - the CSV alone goes to standard output, the table to standard error.
	csvOut := out
	if o.csv == "-" {
		out = o.progress
		if out == nil {
			out = io.Discard
		}
	}
	// The results are printed first, so a failing output file loses nothing on screen.
	if o.json {
		if err := writeJSON(out, struct {
			Agents      []string      `json:"agents"`
			Options     rules.Options `json:"options"`
			Seed        uint64        `json:"seed"`
			Requested   int           `json:"requested"`
			Interrupted bool          `json:"interrupted"`
			Schedule    eval.Schedule `json:"schedule,omitempty"`
			Summary     *eval.Summary `json:"summary"`
		}{res.Agents, res.Options, res.Seed, res.Requested, res.Interrupted, seatedBy(res), sum}); err != nil {
			return err
		}
	} else {
		writeEvalHeader(out, res)
		writeEvalTable(out, sum)
	}
	var errs []error
	if o.save != "" {
		if err := saveRecords(o.save, o.tourneyOptions, res); err != nil {
			errs = append(errs, err)
		} else if !o.json {
			fmt.Fprintf(out, "games saved to %s\n", o.save)
		}
	}
	if o.csv != "" {
		if err := writeEvalCSV(o.csv, sum, csvOut); err != nil {
			errs = append(errs, err)
		}
	}
	if res.Interrupted {
		errs = append(errs, interruptedErr("eval", len(res.Games), res.Requested))
	}
	return errors.Join(errs...)
}

// interruptedErr is the error of a command stopped by Ctrl-C after done of total games.
func interruptedErr(cmd string, done, total int) error {
	return fmt.Errorf("%s: %w after %d of %d games; the results above are partial", cmd, ErrInterrupted, done, total)
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func describeOptions(o rules.Options) string {
	mods := o.Modules.String()
	if mods == "" {
		mods = "none"
	}
	return fmt.Sprintf("%d players, %s rules, %s length, modules: %s", o.Players, o.Variant, o.Length, mods)
}

func writeEvalHeader(out io.Writer, res *eval.Result) {
	seats := "seats rotated"
	if sc := seatedBy(res); sc != "" {
		seats = fmt.Sprintf("%d agents seated by the %s schedule", len(res.Agents), sc)
	}
	fmt.Fprintf(out, "%d games (%s), seed %d, %s\n", len(res.Games), describeOptions(res.Options), res.Seed, seats)
	if res.Interrupted {
		fmt.Fprintf(out, "interrupted: %d of %d games played; results so far\n", len(res.Games), res.Requested)
	}
}

// seatedBy is the schedule that seated a tournament of more agents than seats ("" otherwise).
func seatedBy(res *eval.Result) eval.Schedule {
	return eval.SeatedBy(res.Schedule, len(res.Agents), res.Options.Players)
}

// ordinal writes n (1 to 5) as 1st, 2nd, 3rd, 4th, 5th.
func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

func writeEvalTable(out io.Writer, sum *eval.Summary) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "agent\tgames\twins\twin rate\t95% CI\tmean total\tmedian\tmean rank\tcash\tisland\tleftover\tloans\t")
	for _, a := range sum.Agents {
		fmt.Fprintf(w, "%s\t%d\t%.1f\t%s\t[%s, %s]\t%.1f\t%.1f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t\n",
			a.Name, a.Games, a.Wins, pct(a.Rate.Rate), pct(a.Lo), pct(a.Hi), a.MeanTotal, a.MedianTotal, a.MeanRank,
			a.MeanCash, a.MeanIsland, a.MeanLeftover, a.MeanLoans)
	}
	_ = w.Flush()
	if len(sum.TurnOrder) > 0 {
		fmt.Fprint(out, "win rate by turn order (1st: the first player, drawn at setup):")
		for k, r := range sum.TurnOrder {
			fmt.Fprintf(out, "  %s: %s [%s, %s]", ordinal(k+1), pct(r.Rate), pct(r.Lo), pct(r.Hi))
		}
		fmt.Fprintln(out)
	}
	fmt.Fprint(out, "win rate by seat (who moves first is drawn at setup):")
	for s, r := range sum.Seats {
		fmt.Fprintf(out, "  %d: %s [%s, %s]", s, pct(r.Rate), pct(r.Lo), pct(r.Hi))
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "game length: %.0f decisions (median %.0f, %d-%d), %.1f turns (median %.0f, %d-%d)\n",
		sum.Steps.Mean, sum.Steps.Median, sum.Steps.Min, sum.Steps.Max, sum.Turns.Mean, sum.Turns.Median, sum.Turns.Min, sum.Turns.Max)
	fmt.Fprint(out, "game end:")
	for _, k := range []string{"two-colours", "turn-limit", "not-ended", "other"} {
		if n := sum.EndReason[k]; n > 0 {
			fmt.Fprintf(out, " %s %d", k, n)
		}
	}
	fmt.Fprintln(out)
}

// evalCSVHeader is the first line of an eval CSV (how an existing one is recognised).
const evalCSVHeader = "agent,games,wins,win_rate,ci_lo,ci_hi,mean_total,median_total,mean_rank,mean_cash,mean_island,mean_leftover,mean_loans\n"

func writeEvalCSV(path string, sum *eval.Summary, stdout io.Writer) error {
	var b bytes.Buffer
	b.WriteString(evalCSVHeader)
	w := csv.NewWriter(&b)
	ff := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, a := range sum.Agents {
		_ = w.Write([]string{a.Name, strconv.Itoa(a.Games), ff(a.Wins), ff(a.Rate.Rate), ff(a.Lo), ff(a.Hi),
			ff(a.MeanTotal), ff(a.MedianTotal), ff(a.MeanRank), ff(a.MeanCash), ff(a.MeanIsland), ff(a.MeanLeftover), ff(a.MeanLoans)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("eval: writing %s: %w", path, err)
	}
	if err := writeOutputFile(path, b.Bytes(), stdout); err != nil {
		return fmt.Errorf("eval: writing %s: %w", path, err)
	}
	return nil
}

// saveRecords writes game-NNNNN.json (a rules game record) for every game into dir, after
// removing the game files an earlier eval --save left there for the same games: all of them,
// or with --shard those of the shard's range (the other shards of the tournament may save
// into the same directory; the directory is locked only while a run writes).
func saveRecords(dir string, o tourneyOptions, res *eval.Result) error {
	d, err := rundir.OpenWait(dir, rundir.EvalGames)
	if err != nil {
		return fmt.Errorf("eval: --save: %w", err)
	}
	defer d.Close()
	var stale func(rel string) bool
	if sh, err := o.tourneyShard(); err == nil && sh != nil {
		first, end := sh.Range(o.games, o.batch)
		stale = func(rel string) bool {
			var i int
			_, err := fmt.Sscanf(rel, "game-%d.json", &i)
			return err == nil && i >= first && i < end
		}
	}
	if err := d.RemoveFilesFunc([]string{"game-*.json"}, stale); err != nil {
		return fmt.Errorf("eval: --save: %w", err)
	}
	for _, g := range res.Games {
		if g.Record == nil {
			continue
		}
		// The record names who played each seat (the agents as given on the command line).
		g.Record.Agents = make([]string, len(g.Agents))
		for seat, a := range g.Agents {
			g.Record.Agents[seat] = res.Agents[a]
		}
		data, err := g.Record.MarshalRecord()
		if err != nil {
			return fmt.Errorf("eval: game %d: %w", g.Index, err)
		}
		path := filepath.Join(dir, fmt.Sprintf("game-%05d.json", g.Index))
		if err := atomicfile.Write(path, data); err != nil {
			return fmt.Errorf("eval: --save: %w", err)
		}
	}
	return nil
}
