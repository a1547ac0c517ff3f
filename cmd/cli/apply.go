package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

type applyOptions struct {
	record bool
}

func newApplyCmd() *cobra.Command {
	o := applyOptions{}
	cmd := &cobra.Command{
		Use:   "apply POSITION MOVE...",
		Short: "Apply moves to a position and print the resulting position",
		Long: `Read a position (docs/POSITION.md), or a game record (its final position), from a file or
from standard input ("-"), apply the moves in order, each checked, and print the resulting
position as JSON. A move is written in the move notation ("produce", "place:$2",
"pick:factory:white:$1", docs/RULES.md section 11) or as an action id (an integer, as the
move's decider sees it: seats in ids are relative to the decider).

The first illegal or unreadable move stops everything with an error naming it and listing
the legal moves of that position; nothing is printed then. With --record a game record that
starts from the given position is printed instead (container replay reads it; its checksum
is the resulting position's hash).`,
		Example: `  container apply env/rules/testdata/positions/opening-4p.json produce place:\$2 done
  container apply opening.json 11 48 1 --record > line.json
  cat position.json | container apply - end`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runApply(args[0], args[1:], o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.record, "record", false, "print a game record from the position instead of the resulting position")
	return cmd
}

func init() { register(newApplyCmd) }

func runApply(path string, moves []string, o applyOptions, in io.Reader, out io.Writer) error {
	name, data, err := readInput(path, in, rules.MaxRecordBytes)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	start, _, err := loadStateData(name, data)
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	from := start.Clone()
	s := start.Clone()
	for i, text := range moves {
		if s.IsTerminal() {
			return fmt.Errorf("apply: move %d (%q): the game is over", i+1, text)
		}
		m, err := parseMoveOrID(s, text)
		if err == nil {
			err = s.ApplyMoveChecked(m)
		}
		if err != nil {
			return fmt.Errorf("apply: move %d (%q): %w; legal: %s", i+1, text, err, legalList(s))
		}
	}
	var b []byte
	if o.record {
		b, err = rules.NewRecordFrom(from, s).MarshalRecord()
	} else {
		b, err = s.MarshalPosition()
	}
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	_, err = out.Write(b)
	if err == nil && (len(b) == 0 || b[len(b)-1] != '\n') {
		_, err = io.WriteString(out, "\n")
	}
	return err
}

// parseMoveOrID reads a move in notation or as an action id of the current decider.
func parseMoveOrID(s *rules.State, text string) (rules.Move, error) {
	if id, err := strconv.Atoi(strings.TrimSpace(text)); err == nil {
		if id < 0 || id >= rules.NumDistinctActions() {
			return rules.Move{}, fmt.Errorf("%w: action %d is outside 0..%d", rules.ErrIllegalAction, id, rules.NumDistinctActions()-1)
		}
		return s.ActionToMove(id), nil
	}
	m, err := s.ParseMove(text)
	if err != nil {
		return rules.Move{}, err
	}
	return m, nil
}

// legalList lists the legal moves as "id=notation", amounts without an id as a range.
func legalList(s *rules.State) string {
	var parts []string
	for _, id := range s.LegalActions(nil) {
		parts = append(parts, fmt.Sprintf("%d=%s", id, s.ActionToMove(id)))
	}
	if lo, hi, n := amountsWithoutID(s); n > 0 {
		parts = append(parts, fmt.Sprintf("$%d..$%d (no id)", lo, hi))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// amountsWithoutID returns the range and number of legal amounts that have no action id,
// from the decision's amount range (listing them could mean a million moves).
func amountsWithoutID(s *rules.State) (lo, hi, n int) {
	if s.IsTerminal() {
		return 0, 0, 0
	}
	d := s.Decision()
	if d.MaxAmount <= rules.MaxAmountID {
		return 0, 0, 0
	}
	lo = max(d.MinAmount, rules.MaxAmountID+1)
	return lo, d.MaxAmount, d.MaxAmount - lo + 1
}
