package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/training"
	"github.com/spf13/cobra"
)

type calibrateOptions struct {
	agent   string
	reading string
	bins    int
	json    bool
}

func newDatasetCalibrateCmd() *cobra.Command {
	o := calibrateOptions{}
	cmd := &cobra.Command{
		Use:   "calibrate DIR",
		Short: "How well a network's value head predicts the winners of the dataset's games (Brier score, reliability table by game phase)",
		Long: `Feed every decision of the dataset in DIR to a trained network and compare each seat's
value output, read as a probability of winning, with that seat's win share in the game's
result (1 for the winner, 1/k for k tied winners, 0 otherwise). For each third of the games
(opening, middle, end: the share of each game's decisions played) and for all decisions it
prints the Brier score over every seat's output, over the deciding seat's only, the Brier
score of predicting the base rate (1/players) everywhere and the skill 1 - Brier/base, then a
reliability table: the predictions binned by value, each bin's mean prediction against the
mean win share observed. A calibrated head has the two equal in every bin. With several
agents in the games the first table also splits the decisions by the agent deciding.

--reading says how an output v becomes a probability: win (v itself, clamped to 0..1: a head
trained on win-loss rewards, as the shipped 4-player default's last round was) or search
((v+1)/2, how ismcts:net=... reads the head: right for a head trained on rank rewards in
[-1, 1]), both against the win share; or rank ((v+1)/2 against the seat's rank score: 1 for
first place, 0 for last, what a head trained on rank rewards predicts; its "won" columns are
then mean rank scores). The other reading's Brier score (for rank: the search reading against
the win share) is printed beside it.

Use games the network was not trained on: container selfplay on a seed its training did not
use (docs/BOTS.md, "The value head").`,
		Example: `  container selfplay --agents default,valuer,shipper,manufacturer --games 400 --seed 4401 --out heldout
  container dataset calibrate heldout --agent default
  container dataset calibrate heldout --agent runs/p4.bot --reading search --json
  container dataset calibrate heldout --agent runs/value.bot --reading rank`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDatasetCalibrate(args[0], o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.agent, "agent", bots.DefaultName, `the network: "default" (the shipped model for the dataset's options) or a .bot file`)
	f.StringVar(&o.reading, "reading", training.ReadWin, "how a value output is read: win (clamped to 0..1) or search ((v+1)/2) against the win share, or rank ((v+1)/2 against the rank score)")
	f.IntVar(&o.bins, "bins", 10, "equal-width probability bins of the reliability table, 1 to 100")
	f.BoolVar(&o.json, "json", false, "print JSON (every phase and bin) instead of tables")
	return cmd
}

func runDatasetCalibrate(dir string, o calibrateOptions, out io.Writer) error {
	if err := checkIntFlags(intFlag{"bins", o.bins, 1, 100}); err != nil {
		return fmt.Errorf("%w: %w", ErrDatasetOptions, err)
	}
	if o.reading != training.ReadWin && o.reading != training.ReadSearch && o.reading != training.ReadRank {
		return fmt.Errorf("%w: --reading %q: want %s, %s or %s", ErrDatasetOptions, o.reading, training.ReadWin, training.ReadSearch, training.ReadRank)
	}
	c, err := training.Calibrate(dir, training.CalibrateOptions{Agent: o.agent, Reading: o.reading, Bins: o.bins})
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(out, c)
	}
	other := training.ReadSearch
	switch c.Reading {
	case training.ReadSearch:
		other = training.ReadWin
	case training.ReadRank:
		other = "search vs win share"
	}
	fmt.Fprintf(out, "value head of %s on %s: %d decisions of %d games, %d players; win probability read as %s\n",
		c.Agent, c.Data, c.Decisions, c.Games, c.Players, describeReading(c.Reading))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "phase or decider\tdecisions\tBrier\tdecider's\tbase rate\tskill\tmean predicted\tmean won\tBrier read as %s\t\n", other)
	rows := c.Phases
	if len(c.ByDecider) > 1 {
		rows = append(append([]training.PhaseCalibration(nil), rows...), c.ByDecider...)
	}
	for _, p := range rows {
		fmt.Fprintf(w, "%s\t%d\t%.4f\t%.4f\t%.4f\t%.3f\t%.3f\t%.3f\t%.4f\t\n", p.Phase, p.Decisions, p.Brier, p.BrierDecider, p.BrierBase, p.Skill,
			p.MeanPredicted, p.MeanObserved, p.BrierOther)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nreliability (every seat's output): predictions in the bin / mean predicted / mean won")
	w = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"bin"}
	for _, p := range c.Phases {
		head = append(head, p.Phase)
	}
	fmt.Fprintln(w, strings.Join(head, "\t")+"\t")
	for b := range c.Phases[0].Bins {
		row := []string{fmt.Sprintf("%.2f-%.2f", c.Phases[0].Bins[b].Lo, c.Phases[0].Bins[b].Hi)}
		for _, p := range c.Phases {
			bin := p.Bins[b]
			if bin.N == 0 {
				row = append(row, "-")
				continue
			}
			row = append(row, fmt.Sprintf("%d / %.3f / %.3f", bin.N, bin.Predicted, bin.Observed))
		}
		fmt.Fprintln(w, strings.Join(row, "\t")+"\t")
	}
	return w.Flush()
}

func describeReading(r string) string {
	switch r {
	case training.ReadSearch:
		return "(v+1)/2, as the search reads it"
	case training.ReadRank:
		return "(v+1)/2 against the rank score (1 first, 0 last): a rank value head"
	}
	return "v clamped to 0..1 (a win-loss value head)"
}
