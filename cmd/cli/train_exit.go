package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
)

type trainExItOptions struct {
	gameFlags
	netFlags
	out                string
	init               string
	generations        int
	games              int
	shardGames         int
	sims               int
	c                  float64
	explore            int
	rollout            string
	expert             string
	window             int
	buffer             int
	steps              int
	batch              int
	valueMix           float64
	gateEvery          int
	gateGames          int
	gateOpponent       string
	gateMargin         float64
	gateTurnLimitShare float64
	gateOpponentDrop   float64
	selfplayTurnLimit  int
	keepBuffer         bool
	workers            int
	league             []string
	progress           io.Writer
}

func newTrainExItCmd() *cobra.Command {
	o := trainExItOptions{}
	d := training.DefaultExItOptions()
	cmd := &cobra.Command{
		Use:   "exit",
		Short: "Search-guided self-play (Expert Iteration): the network learns the ismcts search's choices",
		Long: `Expert Iteration (AlphaZero-style training). Each generation:

1. self-play: --games games in which every seat is the ismcts search guided by the best
   network so far (PUCT with the network's policy as the prior and its value head scoring
   the leaves; --sims simulations per decision, --c, moves drawn in proportion to the root
   visits for the first --explore turns, then the most visited). The games are written to
   RUN/buffer/gen-NNNNNN, a selfplay dataset (container dataset stats reads it) whose policy
   column holds the search's root visit shares and whose value column its value estimate;
2. training: --steps steps of --batch decisions drawn from the last --window generations
   (streamed from their files through a shuffle buffer of --buffer decisions, without
   replacement, in an order fixed by --seed and the generation):
   cross-entropy of the policy against the visit shares, plus --value-coef times the squared
   error of the value head against the game's outcome (rank reward per seat; with
   --value-mix X the decider's target is (1-X) outcome + X search value). A self-play game
   that reaches --selfplay-turn-limit counts as a LOSS for every seat, so no seat learns to
   stall a won game; the new network is RUN/nets/gen-NNNNNN.bot;
3. gating, every --gate-every generations and at the last: the new network (most likely
   move, no search) plays --gate-games seat-rotated games against players-1 copies of the
   best network and against players-1 copies of --gate-opponent (plain ismcts by default), at
   the standard rules' turn limit. The win rates (95% Wilson intervals) and the share of games
   ended at the turn limit go into the metrics. The new network becomes the best when it wins
   at least 1/players + --gate-margin against the best and at most --gate-turn-limit-share of
   its games against --gate-opponent (against the best without one) ended at the turn limit.
   --gate-opponent-drop X (0: off) also refuses it when its win rate against --gate-opponent
   is more than X below the best's (generation 0's is measured at the first gating), e.g.
   "not promoted: dropped against ismcts:sims=50,workers=1 from 27.5% to 5.0%".
   --gate-every 0: every new network is the best.

--league OPPONENT@WEIGHT (repeatable) mixes opponents into step 1: each game's entry is drawn
in proportion to the weights (from --seed, the generation and the game); "self" is a game of
step 1 as above, any other entry seats the learner's search in one seat (drawn too) and the
opponent in the others: "best" the best network's policy alone, "past" an earlier best
network (generation 0 or a promoted one, drawn per game), or a bot spec such as
ismcts:sims=50 (ismcts opponents play with one worker). Only the learner's decisions are
trained on. For example --league self@0.5 --league past@0.25 --league ismcts:sims=50@0.125
--league ismcts:sims=200@0.125.

--expert SPEC replaces the network-guided search in step 1 by a fixed search: a plain ismcts
spec (e.g. "ismcts"), or one guided by networks training does not change (e.g.
"ismcts:sims=300,net=default,value=value-4p,leaf=mix,depth=40": default's prior and the value
network's leaves). The network then learns to imitate it, the first step of Expert Iteration,
for while the network is weaker than that search.
--sims, --c and --rollout belong to the network-guided search and are refused with --expert
(the spec sets its own); the expert plays with one worker a game and the --explore turns.

Buffer generations that leave the window are deleted (--keep-buffer keeps them). RUN holds the
checkpoint (one per generation), run.json, metrics.csv/json, nets/ and buffer/. Ctrl-C (or a
kill) loses at most the generation in progress, and of that only its unfinished buffer
shard: running the same command again resumes (only --generations, --workers and
--keep-buffer may change) and ends with the same networks as an uninterrupted run.
--init starts from a run directory, a .bot file or "default" made for the same games.`,
		Example: `  container train exit --out runs/exit --init default --generations 10
  container train exit --out runs/exit-small --init default --games 16 --sims 32 --gate-games 24 --gate-every 1
  container train exit --out runs/league --init default --league self@0.5 --league past@0.25 --league ismcts:sims=50@0.125 --league ismcts:sims=200@0.125
  container train exit --out runs/distil --init default --expert ismcts --games 16 --window 8 --steps 400
  container eval --agents runs/exit/nets/gen-000010.bot,valuer,valuer,valuer --games 400`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.progress = cmd.ErrOrStderr()
			ctx, stop := interruptible(cmd)
			defer stop()
			if o.expert != "" {
				for _, name := range []string{"sims", "c", "rollout"} {
					if cmd.Flags().Changed(name) {
						return fmt.Errorf("%w: --%s and --expert both given; --%s sets the network-guided search, the --expert spec sets its own",
							ErrTrainOptions, name, name)
					}
				}
			}
			return runTrainExIt(ctx, o, cmd.OutOrStdout())
		},
	}
	addGameFlags(cmd, &o.gameFlags, gameFlagSet{})
	addNetFlags(cmd, &o.netFlags)
	cmd.Flags().Lookup("lr").DefValue = "0.0003"
	_ = cmd.Flags().Set("lr", "0.0003")
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "run directory (created; resumed when it has a checkpoint); required")
	f.StringVar(&o.init, "init", "", "initial network: a run directory, a .bot file or \"default\" (none: fresh)")
	f.IntVar(&o.generations, "generations", int(d.Generations), "total generations (self-play, training, gating)")
	f.IntVar(&o.games, "games", d.Games, "self-play games per generation")
	f.IntVar(&o.shardGames, "shard-games", d.ShardGames, "self-play games per buffer shard")
	f.IntVar(&o.sims, "sims", d.Sims, "search simulations per self-play decision")
	f.Float64Var(&o.c, "c", d.C, "PUCT exploration constant of the self-play search")
	f.StringVar(&o.rollout, "rollout", "", "rollout policy that scores the self-play search's leaves instead of the value head: "+strings.Join(search.Rollouts, ", ")+" (\"\": the value head)")
	f.StringVar(&o.expert, "expert", "", "a fixed ismcts spec (plain, or with fixed networks: net=default,value=value-4p) that plays every self-play seat instead of the network-guided search (\"\": the network-guided search)")
	f.IntVar(&o.explore, "explore", d.Explore, "turns at the start of a self-play game whose moves are drawn in proportion to the root visits")
	f.IntVar(&o.window, "window", d.Window, "generations of the replay buffer trained on")
	f.IntVar(&o.buffer, "buffer", d.Buffer, "decisions of the window held in memory at once, the shuffle buffer (the window is streamed from RUN/buffer)")
	f.IntVar(&o.steps, "steps", d.Steps, "optimisation steps per generation")
	f.IntVar(&o.batch, "batch", d.Batch, "decisions per optimisation step")
	f.Float64Var(&o.valueMix, "value-mix", d.ValueMix, "weight of the search's value in the decider's value target (0: the game outcome only)")
	f.IntVar(&o.gateEvery, "gate-every", int(d.GateEvery), "generations between gating evaluations (0: none, every new network is the best)")
	f.IntVar(&o.gateGames, "gate-games", d.GateGames, "games per gating evaluation (a multiple of --players is seat-balanced)")
	f.StringVar(&o.gateOpponent, "gate-opponent", d.GateOpponent, "bot the new network also plays against in players-1 seats (\"\": none)")
	f.Float64Var(&o.gateMargin, "gate-margin", d.GateMargin, "win rate above 1/players the new network needs against the best to replace it")
	f.Float64Var(&o.gateTurnLimitShare, "gate-turn-limit-share", d.GateTurnLimitShare, "largest share of gating games ended at the turn limit for the new network to replace the best")
	f.Float64Var(&o.gateOpponentDrop, "gate-opponent-drop", 0, "largest drop of the win rate against --gate-opponent below the best's for the new network to replace the best (0: off)")
	f.IntVar(&o.selfplayTurnLimit, "selfplay-turn-limit", d.SelfplayTurnLimit, "turn limit of self-play games (reaching it is a loss for every seat; 0: the rules' 1000)")
	f.BoolVar(&o.keepBuffer, "keep-buffer", false, "keep the buffer generations that left the window")
	f.IntVar(&o.workers, "workers", d.Workers, "self-play and gating games played in parallel")
	f.StringArrayVar(&o.league, "league", nil, "a league entry OPPONENT@WEIGHT, repeatable: self (every seat the search), best or past (a best network's policy), or a bot spec (ismcts:sims=50); none: every game self")
	return cmd
}

func runTrainExIt(ctx context.Context, o trainExItOptions, out io.Writer) error {
	if o.out == "" {
		return fmt.Errorf("%w: --out is required", ErrTrainOptions)
	}
	if err := o.netFlags.check(); err != nil {
		return err
	}
	const cmd = "train exit"
	in := func(flag string, v int) intFlag { return intIn(cmd, flag, v) }
	if err := checkIntFlags(in("generations", o.generations), in("games", o.games), in("shard-games", o.shardGames),
		in("sims", o.sims), in("explore", o.explore), in("window", o.window), in("buffer", o.buffer), in("steps", o.steps), in("batch", o.batch),
		in("gate-every", o.gateEvery), in("gate-games", o.gateGames), in("selfplay-turn-limit", o.selfplayTurnLimit),
		in("workers", o.workers)); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	if err := checkFloatFlags(floatIn(cmd, "c", o.c), floatIn(cmd, "value-mix", o.valueMix),
		floatIn(cmd, "gate-margin", o.gateMargin), floatIn(cmd, "gate-turn-limit-share", o.gateTurnLimitShare),
		floatIn(cmd, "gate-opponent-drop", o.gateOpponentDrop)); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	if err := training.CheckBackend(); err != nil {
		return err
	}
	if o.rollout != "" && !slices.Contains(search.Rollouts, o.rollout) {
		return fmt.Errorf("%w: --rollout %s: want one of %s (or \"\": the value head)", ErrTrainOptions, rules.Quote(o.rollout), strings.Join(search.Rollouts, ", "))
	}
	if o.gateOpponent != "" {
		if err := bots.Resolve(o.gateOpponent); err != nil {
			return fmt.Errorf("%w: --gate-opponent: %w", ErrTrainOptions, err)
		}
	}
	if err := rundir.Check(o.out, rundir.TrainExIt); err != nil {
		return fmt.Errorf("train exit: --out: %w", err)
	}
	eo := training.DefaultExItOptions()
	var err error
	if eo.Rules, err = o.rulesOptions(0); err != nil {
		return fmt.Errorf("%w: %w", ErrTrainOptions, err)
	}
	if o.gateOpponent != "" {
		// A bot that cannot play these games (a network made for others) is refused up front.
		if _, err := bots.New(o.gateOpponent, eo.Rules, 0); err != nil {
			return fmt.Errorf("%w: --gate-opponent: %w", ErrTrainOptions, err)
		}
	}
	eo.Out, eo.Generations, eo.Games, eo.ShardGames = o.out, int64(o.generations), o.games, o.shardGames
	eo.Rollout, eo.Expert = o.rollout, o.expert
	eo.Sims, eo.C, eo.Explore, eo.Window, eo.Steps, eo.Batch = o.sims, o.c, o.explore, o.window, o.steps, o.batch
	eo.Buffer = o.buffer
	eo.ValueMix, eo.GateEvery, eo.GateGames, eo.GateOpponent = o.valueMix, int64(o.gateEvery), o.gateGames, o.gateOpponent
	eo.GateMargin, eo.GateTurnLimitShare, eo.SelfplayTurnLimit = o.gateMargin, o.gateTurnLimitShare, o.selfplayTurnLimit
	eo.GateOpponentDrop = o.gateOpponentDrop
	eo.KeepBuffer, eo.Workers, eo.Seed = o.keepBuffer, o.workers, o.seed
	for _, s := range o.league {
		e, err := training.ParseLeagueEntry(s)
		if err != nil {
			return fmt.Errorf("%w: --league: %w", ErrTrainOptions, err)
		}
		eo.League = append(eo.League, e)
	}
	eo.Net = training.NetConfig{Width: o.width, Depth: o.depth, Norm: o.norm}
	eo.Hyper.LearningRate, eo.Hyper.ValueCoef = o.lr, o.valueCoef
	eo.Progress, eo.Log = o.progress, out
	eo.InitFrom = o.init
	if eo.Init, eo.InitEncoding, eo.InitRules, err = readInit(o.init, o.out, eo.Rules); err != nil {
		return err
	}
	res, err := training.TrainExIt(ctx, eo)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			n := int64(0)
			if res != nil {
				n = res.Generations
			}
			return fmt.Errorf("train exit: %w after %d complete generations (run the same command again to resume)", ErrInterrupted, n)
		}
		return err
	}
	if res.Resumed {
		fmt.Fprintf(out, "resumed from the checkpoint in %s\n", o.out)
	}
	best := filepath.Join(o.out, res.Best)
	fmt.Fprintf(out, "done: %d generations in %.1fs; best network: %s (a bot file: container eval --agents %s,valuer,valuer,valuer)\n",
		res.Generations, res.Seconds, best, best)
	return nil
}
