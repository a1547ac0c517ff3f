package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

type replayOptions struct {
	boards bool
	viewer int
	json   bool
}

func newReplayCmd() *cobra.Command {
	o := replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Print a saved game turn by turn, then the final score breakdown",
		Long: `Read a game record (JSON container-game/1 or the binary form) from a file or from standard
input ("-"), replay it with every move
checked, verify its checksum, and print it turn by turn: each decision's seat, phase and move.
With --boards the board is drawn at the start of every turn (from --viewer's view; -1 shows
everything). The final board and score breakdown follow. With --json one JSON object is
printed instead: the options, seed (or starting position), every move with its index, turn,
active seat, decider, phase, notation and action id (-1 for an amount without one), how the
game ended and the scores.`,
		Example: `  container replay game.json
  container replay game.ctnr --boards --viewer 0
  container replay game.json --json
  container apply opening.json produce --record | container replay -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(args[0], o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.boards, "boards", false, "draw the board at the start of every turn")
	cmd.Flags().IntVar(&o.viewer, "viewer", -1, "seat (0-based) whose view the boards show; -1 for all")
	cmd.Flags().BoolVar(&o.json, "json", false, "print the moves, end and scores as one JSON object")
	return cmd
}

func init() { register(newReplayCmd) }

func runReplay(path string, o replayOptions, in io.Reader, out io.Writer) error {
	_, rec, err := loadStateFile(path, in)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if rec == nil {
		return fmt.Errorf("replay: %s is a position, not a game record", path)
	}
	opts := rec.Options
	if o.viewer < -1 || o.viewer >= opts.Players {
		return errors.New("replay: --viewer must be -1 or a seat of the game")
	}
	if o.json {
		if o.boards {
			return errors.New("replay: --boards and --json cannot be combined")
		}
		return writeReplayJSON(rec, out)
	}
	start := fmt.Sprintf("seed %d", rec.Seed)
	if rec.From != nil {
		start = "from a position"
	}
	modules := opts.Modules.String()
	if modules == "" {
		modules = "none"
	}
	fmt.Fprintf(out, "Game: %d players, %s rules, %s length, modules %s, %s, %d moves\n",
		opts.Players, opts.Variant, opts.Length, modules, start, len(rec.Moves))
	if len(rec.Agents) > 0 {
		names := make([]string, len(rec.Agents))
		for seat, a := range rec.Agents {
			names[seat] = fmt.Sprintf("p%d %s", seat+1, a)
		}
		fmt.Fprintf(out, "Agents: %s\n", strings.Join(names, ", "))
	}
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
		return fmt.Errorf("replay: %s: %w", path, err)
	}
	fmt.Fprintf(out, "\n== final position ==\n%s\n", final.Render(o.viewer))
	return writeScores(out, final, final.Scores())
}

// replayJSON is the output of container replay --json.
type replayJSON struct {
	Players      int              `json:"players"`
	Variant      string           `json:"variant"`
	Length       string           `json:"length"`
	Modules      string           `json:"modules"`
	Seed         uint64           `json:"seed"`
	FromPosition bool             `json:"from_position"`
	Agents       []string         `json:"agents,omitempty"` // who played each seat, when the record says
	Moves        []replayMoveJSON `json:"moves"`
	Ended        string           `json:"ended"` // "two-colours", "turn-limit" or "" (not over)
	Scores       []rules.Score    `json:"scores"`
}

type replayMoveJSON struct {
	Index   int    `json:"index"`
	Turn    int    `json:"turn"` // 1-based, as printed
	Active  int    `json:"active"`
	Decider int    `json:"decider"`
	Phase   string `json:"phase"`
	Move    string `json:"move"`
	ID      int    `json:"id"` // -1: an amount without an action id
}

func writeReplayJSON(rec *rules.Record, out io.Writer) error {
	o := rec.Options
	j := replayJSON{Players: o.Players, Variant: o.Variant.String(), Length: o.Length.String(), Modules: o.Modules.String(),
		Seed: rec.Seed, FromPosition: rec.From != nil, Agents: rec.Agents, Moves: make([]replayMoveJSON, 0, len(rec.Moves))}
	final, err := rec.Replay(func(i int, s *rules.State, m rules.Move) {
		d := s.Decision()
		id, ok := s.MoveToAction(m)
		if !ok {
			id = -1
		}
		j.Moves = append(j.Moves, replayMoveJSON{Index: i, Turn: int(s.Turn) + 1, Active: int(s.Active), Decider: d.Decider,
			Phase: d.Phase.String(), Move: m.String(), ID: id})
	})
	if err != nil {
		return err
	}
	switch final.Ended {
	case rules.EndTwoColours:
		j.Ended = "two-colours"
	case rules.EndTurnLimit:
		j.Ended = "turn-limit"
	}
	j.Scores = final.Scores()
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", b)
	return err
}
