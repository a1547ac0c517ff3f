package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/container-rl/container/env/eval"
	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

func newRateCmd() *cobra.Command {
	o := tourneyOptions{maxAgents: maxLadder}
	cmd := &cobra.Command{
		Use:   "rate",
		Short: "Rate bots from multi-player games (Plackett-Luce / OpenSkill ratings)",
		Long: `Play a tournament (as container eval does) and rate the agents from every game's full
finishing order with the Weng-Lin Bayesian approximation of the Plackett-Luce model (the
OpenSkill method): an N-player rating, not pairwise Elo. Each agent gets a mean skill mu and an
uncertainty sigma (prior 25 and 25/3); agents are ranked by the conservative ordinal
mu - 3 sigma. Shared ranks count as ties. Ctrl-C stops early, rates the games so far and
exits with status 130.

A ladder may name more agents than seats (up to 16). --schedule balanced (the default) plays
every set of as many agents as seats in turn (a fixed shuffled order), each set for as many
games as seats with its members rotated through them: over every C(agents, players) x players
games each agent plays every seat equally often and meets every other agent equally often, so
the list's order does not matter. --schedule window seats agents g, g+1, ... (mod the number of
agents) in game g, so each agent meets only those near it in the list (the only schedule
before commit 9f10f48 of 2026-12-02; ladders made with it need it to be reproduced).`,
		Example: `  container rate --agents valuer,shipper,manufacturer,random --games 400
  container rate --agents valuer,shipper,manufacturer,random,random --players 5 --games 250 --json
  container rate --agents random,manufacturer,shipper,valuer,default,ismcts:sims=50,ismcts,ismcts:sims=800 --players 4 --games 560
  container rate --agents valuer,shipper,manufacturer,random --games 100000 --shard 0/4 --out runs/rate
  container rate --merge runs/rate`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.quiet {
				o.progress = cmd.ErrOrStderr()
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			return rateError(runRate(ctx, o, cmd.OutOrStdout()))
		},
	}
	addTourneyFlags(cmd, &o)
	cmd.Flags().Lookup("games").Usage = "number of games (with more agents than seats, --schedule balanced is exact for a multiple of C(agents, players) x players; else for a multiple of the number of agents)"
	args := cmd.Args
	cmd.Args = func(cmd *cobra.Command, a []string) error { return rateError(args(cmd, a)) }
	return cmd
}

// rateError names rate in an error of the tournament code rate shares with eval, which
// starts its errors "eval: ". The error's chain is kept (errors.Is finds ErrEvalOptions).
func rateError(err error) error {
	if err == nil || !strings.HasPrefix(err.Error(), "eval: ") {
		return err
	}
	return &renamedError{msg: "rate: " + strings.TrimPrefix(err.Error(), "eval: "), err: err}
}

// renamedError is err with another message.
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

func init() { register(newRateCmd) }

// maxLadder bounds the agents of a rating ladder.
const maxLadder = 16

func runRate(ctx context.Context, o tourneyOptions, out io.Writer) error {
	res, err := playTourney(ctx, o, false, o.progress)
	if err != nil {
		return err
	}
	if res.Interrupted && o.progress != nil {
		fmt.Fprintln(o.progress) // end the progress bar's line
	}
	ratings := eval.DefaultRatingModel.Rate(res)
	sum := eval.Summarize(res)
	if o.json {
		if err := writeJSON(out, struct {
			Agents      []string           `json:"agents"`
			Options     rules.Options      `json:"options"`
			Seed        uint64             `json:"seed"`
			Games       int                `json:"games"`
			Interrupted bool               `json:"interrupted"`
			Schedule    eval.Schedule      `json:"schedule,omitempty"`
			Ratings     []eval.AgentRating `json:"ratings"`
			Summary     *eval.Summary      `json:"summary"`
		}{res.Agents, res.Options, res.Seed, len(res.Games), res.Interrupted, seatedBy(res), ratings, sum}); err != nil {
			return err
		}
		return rateInterrupted(res)
	}
	writeEvalHeader(out, res)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "rank\tagent\tordinal\tmu\tsigma\tgames\twin rate\t")
	for i, r := range ratings {
		fmt.Fprintf(w, "%d\t%s\t%.2f\t%.2f\t%.2f\t%d\t%s\t\n", i+1, r.Name, r.Ordinal, r.Mu, r.Sigma, r.Games, pct(sum.Agents[r.Agent].Rate.Rate))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return rateInterrupted(res)
}

func rateInterrupted(res *eval.Result) error {
	if res.Interrupted {
		return interruptedErr("rate", len(res.Games), res.Requested)
	}
	return nil
}
