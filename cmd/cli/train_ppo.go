package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
)

type trainPPOOptions struct {
	netFlags
	gameFlags
	out             string
	init            string
	iterations      int
	games           int
	epochs          int
	minibatch       int
	opponents       string
	poolEvery       int
	snapshotEvery   int
	evalEvery       int
	evalGames       int
	evalOpponent    string
	entropy         float64
	reward          string
	checkpointEvery int
	hideCash        bool
	maxSteps        int
	progress        io.Writer
}

func newTrainPPOCmd() *cobra.Command {
	o := trainPPOOptions{}
	cmd := &cobra.Command{
		Use:   "ppo",
		Short: "Self-play PPO against an opponent pool of scripted bots and past checkpoints",
		Long: `Proximal policy optimisation with generalised advantage estimation and masked policies. Each
iteration plays --games games in lockstep (one VecEnv, one batched forward pass per step for
every game where the learner decides); the learner takes one random seat and the other seats
are drawn from the opponent pool: the --opponents bots and, every --pool-every iterations, a
snapshot of the learner. Every --eval-every iterations the learner (argmax) plays --eval-games
games against copies of --eval-opponent in the other seats; the win rate goes into the metrics.
--snapshot-every N keeps the learner as RUN/snapshots/iter-N.bot every N iterations without
adding it to the pool, so the evaluated networks can be compared and exported afterwards.
--init starts from a run directory, a .bot file or "default" made for the same games
(players, rules, modules, length) and observation encoding.

--out must be a new or empty directory or a PPO run directory; it is locked while the run
trains. Running the same command again resumes from the checkpoint; only --iterations (to
extend the run) and --snapshot-every may change, every other setting must be the one the run
started with. Ctrl-C abandons the games in play, checkpoints the last finished iteration and
exits with status 130; the same command resumes from there.`,
		Example: `  container train ppo --out runs/ppo --init runs/bc --iterations 50
  container train ppo --out runs/ppo-scratch --iterations 200 --opponents valuer,shipper,manufacturer
  container train ppo --out runs/classic --rules classic --init runs/classic-bc --iterations 70
  container train ppo --out runs/p4 --init default --iterations 300 --games 128 --lr 0.00005 --reward win-loss \
      --opponents valuer --pool-every 0 --eval-every 10 --eval-games 400 --snapshot-every 10`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.progress = cmd.ErrOrStderr()
			ctx, stop := interruptible(cmd)
			defer stop()
			return runTrainPPO(ctx, o, cmd.OutOrStdout())
		},
	}
	addNetFlags(cmd, &o.netFlags)
	cmd.Flags().Lookup("lr").DefValue = "0.0003"
	_ = cmd.Flags().Set("lr", "0.0003")
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "run directory (created; resumed when it has a checkpoint); required")
	f.StringVar(&o.init, "init", "", "initial network: a run directory, a .bot file or \"default\" (none: fresh)")
	f.IntVar(&o.iterations, "iterations", 50, "total PPO iterations")
	f.IntVar(&o.games, "games", 32, "games played per iteration (in lockstep)")
	f.IntVar(&o.epochs, "epochs", 2, "passes over each iteration's decisions")
	f.IntVar(&o.minibatch, "minibatch", 512, "rows per optimisation step")
	f.StringVar(&o.opponents, "opponents", "valuer,shipper", "comma-separated bots in the opponent pool")
	f.IntVar(&o.poolEvery, "pool-every", 5, "iterations between learner snapshots added to the pool (0: none)")
	f.IntVar(&o.snapshotEvery, "snapshot-every", 0, "iterations between learner snapshots kept in RUN/snapshots, outside the pool (0: none; may change on resume)")
	f.IntVar(&o.evalEvery, "eval-every", 5, "iterations between evaluations (0: none)")
	f.IntVar(&o.evalGames, "eval-games", 200, "games per evaluation")
	f.StringVar(&o.evalOpponent, "eval-opponent", "valuer", "the learner plays one seat against copies of this bot")
	f.Float64Var(&o.entropy, "entropy-coef", 0.01, "entropy bonus weight")
	addGameFlags(cmd, &o.gameFlags, gameFlagSet{})
	f.StringVar(&o.reward, "reward", "rank", "reward scheme: win-loss, rank or cash-margin")
	f.IntVar(&o.checkpointEvery, "checkpoint-every", 1, "iterations between checkpoints")
	f.IntVar(&o.maxSteps, "max-steps", 0, "truncate a rollout game after this many decisions with zero rewards for everyone (0: never); discourages dragging won games to the turn limit")
	f.BoolVar(&o.hideCash, "hide-opponent-cash", false, "train on observations without the other players' cash (encoding obs-v2-hidden-cash; the exported bot reads that variant)")
	return cmd
}

// runTrainPPO runs train ppo; cancelling ctx (Ctrl-C) stops it within a few decisions,
// checkpointed at the last finished iteration, with an ErrInterrupted error.
func runTrainPPO(ctx context.Context, o trainPPOOptions, out io.Writer) error {
	if o.out == "" {
		return fmt.Errorf("%w: --out is required", ErrTrainOptions)
	}
	if err := o.netFlags.check(); err != nil {
		return err
	}
	in := func(flag string, v int) intFlag { return intIn("train ppo", flag, v) }
	if err := checkIntFlags(in("iterations", o.iterations), in("games", o.games), in("epochs", o.epochs),
		in("minibatch", o.minibatch), in("pool-every", o.poolEvery), in("snapshot-every", o.snapshotEvery),
		in("eval-every", o.evalEvery), in("eval-games", o.evalGames), in("checkpoint-every", o.checkpointEvery),
		in("max-steps", o.maxSteps)); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	if err := checkFloatFlags(floatIn("train ppo", "entropy-coef", o.entropy)); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	if err := training.CheckBackend(); err != nil {
		return err
	}
	if err := rundir.Check(o.out, rundir.TrainPPO); err != nil {
		return fmt.Errorf("train ppo: --out: %w", err)
	}
	if o.iterations < 1 || o.games < 1 || o.epochs < 1 || o.minibatch < 1 || o.checkpointEvery < 1 || o.evalGames < 1 {
		return fmt.Errorf("%w: --iterations, --games, --epochs, --minibatch, --checkpoint-every and --eval-games must be positive", ErrTrainOptions)
	}
	if o.poolEvery < 0 {
		return fmt.Errorf("%w: --pool-every %d is negative (0: no learner snapshots)", ErrTrainOptions, o.poolEvery)
	}
	if o.evalEvery < 0 {
		return fmt.Errorf("%w: --eval-every %d is negative (0: no evaluations)", ErrTrainOptions, o.evalEvery)
	}
	if o.entropy < 0 {
		return fmt.Errorf("%w: --entropy-coef %g is negative", ErrTrainOptions, o.entropy)
	}
	po := training.DefaultPPOOptions()
	var err error
	if po.Rules, err = o.rulesOptions(0); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	po.Out, po.Iterations, po.Games, po.Epochs, po.Minibatch = o.out, int64(o.iterations), o.games, o.epochs, o.minibatch
	po.Opponents = bots.SplitAgents(o.opponents)
	if len(po.Opponents) == 0 {
		return fmt.Errorf("%w: --opponents names no bot", ErrTrainOptions)
	}
	// Each bot is made now, so that a bot file that cannot be read or cannot play these games
	// is refused before the run directory is made.
	for _, b := range po.Opponents {
		if _, err := bots.New(b, po.Rules, 0); err != nil {
			return fmt.Errorf("%w: --opponents: %w", ErrTrainOptions, err)
		}
	}
	if o.evalEvery > 0 {
		if _, err := bots.New(o.evalOpponent, po.Rules, 0); err != nil {
			return fmt.Errorf("%w: --eval-opponent: %w", ErrTrainOptions, err)
		}
	} else if err := bots.Resolve(o.evalOpponent); err != nil {
		return fmt.Errorf("%w: --eval-opponent: %w", ErrTrainOptions, err)
	}
	po.PoolEvery, po.EvalEvery, po.EvalGames, po.EvalOpponent = int64(o.poolEvery), int64(o.evalEvery), o.evalGames, o.evalOpponent
	po.SnapshotEvery = int64(o.snapshotEvery)
	po.CheckpointEvery, po.Seed, po.Reward = int64(o.checkpointEvery), o.seed, o.reward
	po.HideOpponentCash, po.MaxSteps = o.hideCash, o.maxSteps
	if o.maxSteps < 0 {
		return fmt.Errorf("%w: --max-steps %d is negative", ErrTrainOptions, o.maxSteps)
	}
	po.Net = training.NetConfig{Width: o.width, Depth: o.depth, Norm: o.norm}
	po.Hyper.LearningRate, po.Hyper.ValueCoef, po.Hyper.EntropyCoef = o.lr, o.valueCoef, o.entropy
	po.Progress, po.Log = o.progress, out
	po.InitFrom = o.init // compared with the run's on resume
	if po.Init, po.InitEncoding, po.InitRules, err = readInit(o.init, o.out, po.Rules); err != nil {
		return err
	}
	res, err := training.TrainPPO(ctx, po)
	if stopped := (*training.StoppedError)(nil); errors.As(err, &stopped) {
		return stoppedError("train ppo", "iteration", stopped)
	}
	if err != nil {
		return err
	}
	if res.Resumed {
		fmt.Fprintf(out, "resumed from the checkpoint in %s\n", o.out)
	}
	fmt.Fprintf(out, "done: %d iterations in %.1fs; run: %s (export with: container export --run %s --out NAME.bot)\n",
		res.Iterations, res.Seconds, o.out, o.out)
	return nil
}

// readInit reads --init src for a new run in out: nothing when src is empty or out holds a
// checkpoint (a resumed run's network is in it; src is only compared with the run's). opts
// are the games whose shipped network "default" names.
func readInit(src, out string, opts rules.Options) (*training.Weights, string, *rules.Options, error) {
	if src == "" {
		return nil, "", nil, nil
	}
	if _, err := os.Stat(filepath.Join(out, training.CheckpointFile)); err == nil {
		return nil, "", nil, nil
	}
	w, enc, ro, err := initWeights(src, opts)
	if err != nil {
		return nil, "", nil, err
	}
	return w, enc, &ro, nil
}

// initWeights reads the starting network of a run for games with opts ("default": the
// shipped model for them), with the encoding and rules options it was trained for.
func initWeights(src string, opts rules.Options) (*training.Weights, string, rules.Options, error) {
	switch {
	case src == bots.DefaultName:
		b, err := training.DefaultBotFor(opts)
		if err != nil {
			return nil, "", opts, err
		}
		return b.Weights, b.Header.EncodingVersion, b.Header.Rules, nil
	case strings.HasSuffix(src, ".bot"):
		b, err := training.ReadBotFile(src)
		if err != nil {
			return nil, "", opts, err
		}
		return b.Weights, b.Header.EncodingVersion, b.Header.Rules, nil
	}
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return nil, "", opts, fmt.Errorf("%w: --init %s is not a run directory, a .bot file or \"default\"", ErrTrainOptions, rules.Quote(src))
	}
	w, info, err := training.WeightsFromRun(src)
	return w, info.EncodingVersion, info.Rules, err
}
