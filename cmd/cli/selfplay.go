package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/progress"
	"github.com/spf13/cobra"
)

// ErrSelfplayOptions is wrapped by every selfplay option error.
var ErrSelfplayOptions = errors.New("selfplay: invalid options")

type selfplayOptions struct {
	gameFlags
	agents      string
	games       int
	out         string
	format      string
	compression string
	workers     int
	seed        uint64
	resume      bool
	reward      string
	shardGames  int
	// evenShards: --shard-games was not given, so with --shard the shard size is chosen for
	// the parts to share the games evenly (evenShardGames).
	evenShards bool
	policy     bool
	hideCash   bool
	shard      string
	progress   io.Writer // progress bar destination (stderr); nil for none
}

func newSelfplayCmd() *cobra.Command {
	o := selfplayOptions{}
	var quiet bool
	cmd := &cobra.Command{
		Use:   "selfplay",
		Short: "Play games between bots and write every decision as an Arrow or Parquet dataset",
		Long: `Play games between bots and record every decision: the decider's observation, its legal-action
mask, the action, the rewards and every seat's return-to-go, plus one row per game with the
final score breakdown and winners. The output directory holds shards (steps-NNNNN and
games-NNNNN files) and a manifest.json; docs/DATASETS.md describes the columns.

Game i is played from a seed derived from --seed and i, and shard k always holds the same
range of games, so the data is the same whatever --workers is (only the games' duration_us
column differs). A shard is written under a temporary name and renamed when complete; after
an interruption, --resume plays exactly the shards the manifest does not list yet.

With fewer agents than players, the agents fill the seats in turn (a,b -> a,b,a,b).

--shard I/N plays only part I of N of the run (a contiguous block of its shards, with the same
seeds) into --out/shard-IIIII-of-NNNNN. Without --shard-games the shards are then sized so
that the N parts share the games evenly, part I holding the I-th range: the games are cut into
N times k shards of at most 256 games (k as small as that allows), so --games 30 --shard I/3
gives every part 10 games; every part computes the same plan from --games and N. Give
--shard-games to fix the shard size yourself. auto/N takes I from JOB_COMPLETION_INDEX
(Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm). container dataset merge joins the parts (docs/SCALE.md).

--out must be a new or empty directory or a dataset; it is locked while the run writes, and
only the dataset's own files are ever replaced or removed. --resume checks every shard already
listed (a deleted one is played again, an altered one stops the run) and refuses any change of
the settings that shape the data, including the content of .bot agents: every flag must be
the one the dataset was started with. Ctrl-C keeps the complete shards and exits with status
130.

--hide-opponent-cash records observations without the other players' cash (encoding
obs-v2-hidden-cash, for imperfect-recall studies); the bots still play from the full view.`,
		Example: `  container selfplay --agents random,random,random,random --games 1000 --out runs/random
  container selfplay --agents valuer,shipper,manufacturer,random --games 20000 --workers 2 --format parquet --out runs/scripted
  container selfplay --agents valuer --players 5 --modules all --games 500 --seed 7 --out runs/v5
  container selfplay --agents valuer,shipper,manufacturer,random --games 20000 --out runs/scripted --resume
  container selfplay --agents valuer,shipper,manufacturer,valuer --games 2000 --hide-opponent-cash --out runs/hidden
  container selfplay --agents valuer,shipper,manufacturer,random --games 1000000 --format parquet --resume --shard auto/8 --out /shared/runs/big`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !quiet {
				o.progress = cmd.ErrOrStderr()
			}
			o.evenShards = !cmd.Flags().Changed("shard-games")
			ctx, stop := interruptible(cmd)
			defer stop()
			return runSelfplay(ctx, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.agents, "agents", "", "comma-separated bot names or .bot files, one per seat; a trained bot may end in @T to sample at temperature T (see container bots); required")
	f.StringVar(&o.agents, "bots", "", "alias of --agents")
	f.IntVar(&o.games, "games", 100, "number of games")
	f.StringVar(&o.out, "out", "", "dataset directory (created; must be new, empty or a dataset); required")
	f.StringVar(&o.format, "format", "arrow", "shard format: arrow (Arrow IPC file) or parquet")
	f.StringVar(&o.compression, "compression", "", "compression: none, zstd, lz4, or snappy for parquet (default: zstd for arrow, snappy for parquet)")
	f.IntVar(&o.workers, "workers", 0, "parallel workers, one shard each (0: one per CPU); the data does not depend on it")
	f.Uint64Var(&o.seed, "seed", 1, "run seed: fixes every game's setup and every bot's seed")
	f.BoolVar(&o.resume, "resume", false, "continue the dataset in --out, playing only the shards its manifest lacks")
	addGameFlags(cmd, &o.gameFlags, gameFlagSet{playersFromAgents: true, turnLimit: true})
	f.StringVar(&o.reward, "reward", "win-loss", "reward scheme for rewards and returns: win-loss, rank or cash-margin")
	f.IntVar(&o.shardGames, "shard-games", selfplay.DefaultGamesPerShard, "games per shard (with --shard and this flag left out: sized so the parts share the games evenly)")
	f.BoolVar(&o.policy, "record-policy", false, "record each decision's behaviour probabilities and value estimate (bots that report them, e.g. trained bots)")
	f.BoolVar(&o.hideCash, "hide-opponent-cash", false, "observations leave out the other players' cash (encoding obs-v2-hidden-cash)")
	f.StringVar(&o.shard, "shard", "", "play only part I of N of the games (I/N, I from 0; auto/N reads I from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID) into --out/shard-I-of-N; join the parts with container dataset merge")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

func init() { register(newSelfplayCmd) }

// selfplayConfig checks the flags and builds the run's configuration.
func selfplayConfig(o selfplayOptions) (selfplay.Config, error) {
	var c selfplay.Config
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrSelfplayOptions, fmt.Sprintf(format, args...))
	}
	agents := bots.SplitAgents(o.agents)
	if o.evenShards && o.shard != "" && o.games > 0 {
		if _, n, err := parseShard(o.shard); err == nil { // a bad --shard is reported below
			o.shardGames = evenShardGames(o.games, n, selfplay.DefaultGamesPerShard)
		}
	}
	shards := 0
	if o.shardGames > 0 {
		shards = (o.games + o.shardGames - 1) / o.shardGames
	}
	if err := checkIntFlags(intIn("selfplay", "games", o.games), intIn("selfplay", "workers", o.workers),
		intIn("selfplay", "shard-games", o.shardGames)); err != nil {
		return c, fmt.Errorf("%w: %w", ErrSelfplayOptions, err)
	}
	if shards > maxFlagShards {
		return c, bad("--games %d in shards of --shard-games %d makes %d shards; at most %d", o.games, o.shardGames, shards, maxFlagShards)
	}
	switch {
	case len(agents) == 0:
		return c, bad("--agents is required (for example --agents random,random,random,random)")
	case len(agents) > rules.MaxPlayers:
		return c, bad("--agents names %d bots; at most %d", len(agents), rules.MaxPlayers)
	case o.out == "":
		return c, bad("--out is required")
	case o.games < 1:
		return c, bad("--games %d is less than 1", o.games)
	case o.workers < 0:
		return c, bad("--workers %d is negative", o.workers)
	case o.shardGames < 1:
		return c, bad("--shard-games %d is less than 1", o.shardGames)
	}
	eo := env.DefaultOptions()
	var err error
	if eo.Rules, err = o.rulesOptions(len(agents)); err != nil {
		return c, fmt.Errorf("%w: %w", ErrSelfplayOptions, err)
	}
	if len(agents) > eo.Rules.Players {
		return c, bad("--agents names %d bots for %d players", len(agents), eo.Rules.Players)
	}
	eo.HideOpponentCash = o.hideCash
	if eo.Reward, err = env.ParseRewardScheme(o.reward); err != nil {
		return c, fmt.Errorf("%w: --reward: %w", ErrSelfplayOptions, err)
	}
	if err := eo.Validate(); err != nil {
		return c, fmt.Errorf("%w: %w", ErrSelfplayOptions, err)
	}
	format, err := datasets.ParseFormat(o.format)
	if err != nil {
		return c, fmt.Errorf("%w: --format: %w", ErrSelfplayOptions, err)
	}
	c.Write = datasets.WriteOptions{Format: format, Compression: datasets.Compression(o.compression)}
	if _, err := datasets.CheckWriteOptions(c.Write); err != nil {
		return c, fmt.Errorf("%w: --compression: %w", ErrSelfplayOptions, err)
	}
	for s := 0; s < eo.Rules.Players; s++ {
		c.Agents = append(c.Agents, agents[s%len(agents)])
	}
	c.Env, c.Games, c.Seed, c.Out, c.Resume = eo, o.games, o.seed, o.out, o.resume
	c.Workers = o.workers
	if c.Workers == 0 {
		c.Workers = runtime.NumCPU()
	}
	c.Workers = min(c.Workers, shards) // a worker plays whole shards
	c.GamesPerShard = o.shardGames
	if c.Part, c.Out, err = selfplayPart(o.shard, o.out); err != nil {
		return c, fmt.Errorf("%w: %w", ErrSelfplayOptions, err)
	}
	c.ToolVersion = Version
	c.RecordPolicy = o.policy
	return c, nil
}

// evenShardGames is the shard size for games split into parts parts when --shard-games is not
// given: parts*k shards of at most maxSize games, k as small as that allows, so that every
// part holds k shards (the last part's last shard may be shorter). With fewer games than
// would fill one shard per part the shards shrink (down to one game) so that no part is
// left empty while there are games for it.
func evenShardGames(games, parts, maxSize int) int {
	k := (games + parts*maxSize - 1) / (parts * maxSize) // shards per part
	size := max(1, (games+parts*k-1)/(parts*k))
	if (games+size-1)/size < parts {
		size = max(1, games/parts)
	}
	return size
}

func runSelfplay(ctx context.Context, o selfplayOptions, out io.Writer) error {
	c, err := selfplayConfig(o)
	if err != nil {
		return err
	}
	var bar *progress.Bar
	if o.progress != nil {
		done := 0
		if m, err := datasets.ReadManifest(c.Out); err == nil && o.resume {
			for _, s := range m.Shards { // a shard whose files are gone is played again
				_, e1 := os.Stat(filepath.Join(c.Out, s.StepsFile))
				_, e2 := os.Stat(filepath.Join(c.Out, s.GamesFile))
				if e1 == nil && e2 == nil {
					done += s.Games
				}
			}
		}
		bar = gamesBar(o.progress, partGames(c.Games, c.GamesPerShard, c.Part), "games")
		bar.SetStart(int64(done))
		var (
			mu    sync.Mutex
			steps atomic.Int64
			start = time.Now()
			last  time.Time
		)
		c.OnGame = func(n int) {
			s := steps.Add(int64(n))
			mu.Lock()
			defer mu.Unlock()
			_ = bar.Add(1)
			if now := time.Now(); now.Sub(last) > 250*time.Millisecond {
				last = now
				bar.Describe(fmt.Sprintf("games (%s steps/s)", humanRate(float64(s)/now.Sub(start).Seconds())))
			}
		}
	}
	res, err := selfplay.Run(ctx, c)
	if err == nil {
		_ = bar.Finish()
	} else {
		bar.Close()
	}
	if errors.Is(err, selfplay.ErrExists) {
		err = fmt.Errorf("%w; add --resume to continue it or pick another --out", err)
	}
	if res == nil {
		return err
	}
	games, steps := res.Manifest.GamesDone()
	rate := float64(res.Steps) / res.Elapsed.Seconds()
	fmt.Fprintf(out, "played %d games (%d steps) in %s: %s steps/s, %s games/s\n",
		res.Games, res.Steps, res.Elapsed.Round(time.Millisecond), humanRate(rate), humanRate(float64(res.Games)/res.Elapsed.Seconds()))
	fmt.Fprintf(out, "%s: %d of %d games (%d steps) in %d of %d shards, %s/%s, encoding %s\n",
		c.Out, games, res.Manifest.Games, steps, len(res.Manifest.Shards), res.Manifest.NumShards(),
		res.Manifest.Format, res.Manifest.Compression, res.Manifest.Meta.EncodingVersion)
	printPartNote(out, c, res.Manifest)
	if err != nil && !res.Manifest.Complete() {
		fmt.Fprintf(out, "stopped; continue with the same flags and --resume\n")
		if ctx.Err() != nil {
			return fmt.Errorf("selfplay: %w with %d of %d shards written", ErrInterrupted, len(res.Manifest.Shards), res.Manifest.NumShards())
		}
	}
	return err
}

func humanRate(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	case x >= 10:
		return fmt.Sprintf("%.0f", x)
	case x >= 0.01:
		return fmt.Sprintf("%.2g", x) // a slow search field plays 0.48 games/s, not "0"
	}
	return fmt.Sprintf("%.1g", x)
}
