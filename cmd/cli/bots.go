package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/container-rl/container/env/bots"
	"github.com/spf13/cobra"
)

func newBotsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "bots",
		Short: "List the bots that eval, rate, play and selfplay accept",
		Long: `List the registered bots with a one-line description, the four levels for players first
(easy, medium, hard, expert: each an alias of a measured agent, docs/BOTS.md "Levels").
Besides these names, every command
that takes bots accepts a path to a trained bot file (path/to/x.bot) and "default", the shipped
trained bot (available once the training package registers it). A trained bot's name or
file may end in @T to sample its moves at temperature T instead of playing its most likely
move (default@0.5, runs/p4.bot@1). docs/BOTS.md describes the scripted strategies and their
measured strength.`,
		Example: `  container bots`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBots(cmd.OutOrStdout())
		},
	}
}

func init() { register(newBotsCmd) }

func runBots(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	// The levels first, weakest first: the names a player picks opponents by.
	for _, l := range bots.Levels {
		if i, ok := bots.Lookup(l.Name); ok {
			fmt.Fprintf(w, "%s\t%s\n", i.Name, i.Description)
		}
	}
	for _, i := range bots.List() {
		if _, level := bots.LevelOf(i.Name); !level {
			fmt.Fprintf(w, "%s\t%s\n", i.Name, i.Description)
		}
	}
	if _, ok := bots.Lookup(bots.DefaultName); !ok {
		fmt.Fprintf(w, "%s\t%s\n", bots.DefaultName, "the shipped trained bot (not registered in this build)")
	}
	fmt.Fprintf(w, "%s\t%s\n", "path/to/x.bot", "a trained bot file exported by container export")
	return w.Flush()
}
