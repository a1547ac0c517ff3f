package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

func newLegalCmd() *cobra.Command {
	var board, asJSON bool
	cmd := &cobra.Command{
		Use:   "legal FILE",
		Short: "List the legal moves of a position's decider with action ids and notation",
		Long: `Read a position file (docs/POSITION.md) or a game record (its final position), from a file
or from standard input ("-"), and list the
pending decision and every legal move: its action id (as the decider sees it: seats in ids
are relative to the decider) and its notation. Legal amounts above the action-id cap have no
id and are summarised on one line. With --json one JSON object is printed instead: the
decider, active seat and phase, whether the game is over, every legal action as
{"id", "move"}, and the amounts without an id.`,
		Example: `  container legal env/rules/testdata/positions/opening-4p.json
  container legal game.json --board
  container legal position.json --json
  container apply opening.json produce | container legal -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				if board {
					return errors.New("legal: --board and --json cannot be combined")
				}
				return runLegalJSON(args[0], cmd.InOrStdin(), cmd.OutOrStdout())
			}
			return runLegal(args[0], board, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&board, "board", false, "print the board (the decider's view) first")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the decision and legal actions as one JSON object")
	return cmd
}

func init() { register(newLegalCmd) }

func runLegal(path string, board bool, in io.Reader, out io.Writer) error {
	s, _, err := loadStateFile(path, in)
	if err != nil {
		return fmt.Errorf("legal: %w", err)
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
	lo, hi, noID := amountsWithoutID(s)
	if noID > 0 {
		fmt.Fprintf(out, "    -  $%d..$%d (%d amounts without an action id)\n", lo, hi, noID)
	}
	return nil
}

// legalJSON is the output of container legal --json.
type legalJSON struct {
	Terminal bool          `json:"terminal"`
	Decider  int           `json:"decider"` // 0-based seat; -1 when the game is over
	Active   int           `json:"active"`
	Phase    string        `json:"phase"`
	Actions  []legalAction `json:"actions"`
	// AmountsWithoutID: legal amounts above the action-id cap (a Move, no id).
	AmountsWithoutID *amountRangeJSON `json:"amounts_without_id,omitempty"`
}

type legalAction struct {
	ID   int    `json:"id"`
	Move string `json:"move"`
}

type amountRangeJSON struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Count int `json:"count"`
}

func runLegalJSON(path string, in io.Reader, out io.Writer) error {
	s, _, err := loadStateFile(path, in)
	if err != nil {
		return fmt.Errorf("legal: %w", err)
	}
	d := s.Decision()
	j := legalJSON{Terminal: s.IsTerminal(), Decider: s.CurrentPlayer(), Active: d.Active, Phase: d.Phase.String(), Actions: []legalAction{}}
	for _, id := range s.LegalActions(nil) {
		j.Actions = append(j.Actions, legalAction{ID: id, Move: s.ActionToMove(id).String()})
	}
	if lo, hi, n := amountsWithoutID(s); n > 0 {
		j.AmountsWithoutID = &amountRangeJSON{From: lo, To: hi, Count: n}
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", b)
	return err
}
