package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

type scoreOptions struct {
	json bool
}

func newScoreCmd() *cobra.Command {
	o := scoreOptions{}
	cmd := &cobra.Command{
		Use:   "score FILE",
		Short: "Score a position (or a game record's final position) as if the game ended now",
		Long: `Read a position file (docs/POSITION.md) or a game record, from a file or from standard
input ("-"), and print every seat's final-scoring
breakdown as if the game ended now: open Bank auctions resolved, most common island colour
discarded, island value by scoring card, leftovers ($3 ship and holding, $2 harbor), loans,
total, rank and winners.`,
		Example: `  container score env/rules/testdata/positions/rulebook-final-scoring.json
  container score game.json --json
  container apply opening.json produce --record | container score -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runScore(args[0], o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the breakdown as JSON")
	return cmd
}

func init() { register(newScoreCmd) }

func runScore(path string, o scoreOptions, in io.Reader, out io.Writer) error {
	s, _, err := loadStateFile(path, in)
	if err != nil {
		return fmt.Errorf("score: %w", err)
	}
	scores := s.Scores()
	if o.json {
		b, err := json.MarshalIndent(scores, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", b)
		return err
	}
	return writeScores(out, s, scores)
}

// writeScores prints the score breakdown as a table.
func writeScores(out io.Writer, s *rules.State, scores []rules.Score) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "seat\tcard\tcash\tisland\tleftover\tloans\ttotal\tdiscarded\tgold as\tall colours\tfactory\trank\t")
	for i, sc := range scores {
		disc := "-"
		if sc.Discarded < rules.NumColours {
			disc = fmt.Sprintf("%d %s", sc.DiscardedCount, sc.Discarded)
		}
		gold := "-"
		if sc.GoldAs < rules.NumColours {
			gold = sc.GoldAs.String()
		}
		rank := fmt.Sprint(sc.Rank)
		if sc.Winner {
			rank += " WINNER"
		}
		fmt.Fprintf(w, "p%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%v\t%d\t%s\t\n", i+1, s.Players[i].Card,
			dollars(sc.Cash), dollars(sc.Island), dollars(sc.Leftover), dollars(sc.Loans), dollars(sc.Total), disc, gold, sc.AllColours, sc.FactoryContainers, rank)
	}
	return w.Flush()
}

// dollars writes an amount as $5 or -$11.
func dollars(v int) string {
	if v < 0 {
		return fmt.Sprintf("-$%d", -v)
	}
	return fmt.Sprintf("$%d", v)
}

// loadStateFile reads a position (container-position/1 JSON), a JSON game record
// (container-game/1) or a binary game record from the file path, or from in when path is
// "-", and returns the position it describes (a record's final position) and the record
// (nil for a position).
func loadStateFile(path string, in io.Reader) (*rules.State, *rules.Record, error) {
	name, data, err := readInput(path, in, rules.MaxRecordBytes)
	if err != nil {
		return nil, nil, err
	}
	return loadStateData(name, data)
}

// loadStateData is loadStateFile for data already read (path names it in errors).
func loadStateData(path string, data []byte) (*rules.State, *rules.Record, error) {
	s, r, err := rules.Load(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, r, nil
}
