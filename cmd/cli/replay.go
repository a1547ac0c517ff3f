package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

type replayOptions struct {
	boards bool
	viewer int
}

func newReplayCmd() *cobra.Command {
	o := replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Print a saved game turn by turn, then the final score breakdown",
		Long: `Read a game record (JSON container-game/1 or the binary form), replay it with every move
checked, verify its checksum, and print it turn by turn: each decision's seat, phase and move.
With --boards the board is drawn at the start of every turn (from --viewer's view; -1 shows
everything). The final board and score breakdown follow.`,
		Example: `  container replay game.json
  container replay game.ctnr --boards --viewer 0`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(args[0], o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.boards, "boards", false, "draw the board at the start of every turn")
	cmd.Flags().IntVar(&o.viewer, "viewer", -1, "seat (0-based) whose view the boards show; -1 for all")
	return cmd
}

func init() { register(newReplayCmd) }

func runReplay(path string, o replayOptions, out io.Writer) error {
	_, rec, err := loadStateFile(path)
	if err != nil {
		return err
	}
	if rec == nil {
		return fmt.Errorf("replay: %s is a position, not a game record", path)
	}
	opts := rec.Options
	if o.viewer < -1 || o.viewer >= opts.Players {
		return errors.New("replay: --viewer must be -1 or a seat of the game")
	}
	fmt.Fprintf(out, "Game: %d players, %s rules, %s length, modules %q, seed %d, %d moves\n",
		opts.Players, opts.Variant, opts.Length, opts.Modules.String(), rec.Seed, len(rec.Moves))
	turn := int32(-1)
	final, err := rec.Replay(func(i int, s *rules.State, m rules.Move) {
		if s.Turn != turn {
			turn = s.Turn
			fmt.Fprintf(out, "\n== turn %d: p%d ==\n", turn+1, s.Active+1)
			if o.boards {
				fmt.Fprint(out, s.Render(o.viewer))
			}
		}
		d := s.Decision()
		fmt.Fprintf(out, "%5d  p%d  %-18s %s\n", i, d.Decider+1, d.Phase, m)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\n== final position ==\n%s\n", final.Render(o.viewer))
	return writeScores(out, final, final.Scores())
}
