package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/env/rules"
)

func newLegalCmd() *cobra.Command {
	var board bool
	cmd := &cobra.Command{
		Use:   "legal FILE",
		Short: "List the legal moves of a position's decider with action ids and notation",
		Long: `Read a position file (docs/POSITION.md) or a game record (its final position) and list the
pending decision and every legal move: its action id (as the decider sees it: seats in ids
are relative to the decider) and its notation. Legal amounts above the action-id cap have no
id and are summarised on one line.`,
		Example: `  container legal env/rules/testdata/positions/opening-4p.json
  container legal game.json --board`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLegal(args[0], board, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&board, "board", false, "print the board (the decider's view) first")
	return cmd
}

func init() { register(newLegalCmd) }

func runLegal(path string, board bool, out io.Writer) error {
	s, _, err := loadStateFile(path)
	if err != nil {
		return err
	}
	if s.IsTerminal() {
		_, err := fmt.Fprintln(out, "the game is over: no legal moves")
		return err
	}
	d := s.Decision()
	if board {
		fmt.Fprint(out, s.Render(d.Decider))
		fmt.Fprintln(out)
	}
	ids := s.LegalActions(nil)
	fmt.Fprintf(out, "p%d decides %s (active p%d): %d legal actions\n", d.Decider+1, d.Phase, d.Active+1, len(ids))
	for _, id := range ids {
		fmt.Fprintf(out, "%5d  %s\n", id, s.ActionToMove(id))
	}
	// Amounts above the id cap are summarised from the decision's range (listing them could
	// mean a million moves).
	if d.MaxAmount > rules.MaxAmountID {
		lo := max(d.MinAmount, rules.MaxAmountID+1)
		fmt.Fprintf(out, "    -  $%d..$%d (%d amounts without an action id)\n", lo, d.MaxAmount, d.MaxAmount-lo+1)
	}
	return nil
}
