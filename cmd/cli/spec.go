package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/rules"
)

type specOptions struct {
	gameFlags
	oracle  bool
	json    bool
	columns bool
	hidden  bool
}

func newSpecCmd() *cobra.Command {
	o := specOptions{}
	cmd := &cobra.Command{
		Use:   "spec",
		Short: "Print the observation feature spec (names, offsets, sizes, bounds, version)",
		Long: `Print the observation layout for a rules configuration: the encoding version, the
observation size, and every feature group with its offset, size, bounds and meaning. With
--json the spec also carries one label per entry and the name of every action id, so Python
or R users can label tensor columns; --columns prints one column name per line.`,
		Example: `  container spec
  container spec --players 5 --rules classic
  container spec --players 3 --modules trucks,luxury --json > spec.json
  container spec --columns | head`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSpec(o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	addGameFlags(cmd, &o.gameFlags, gameFlagSet{})
	f.BoolVar(&o.oracle, "oracle", false, "describe the oracle (all-information) encoding")
	f.BoolVar(&o.json, "json", false, "print the spec as JSON")
	f.BoolVar(&o.columns, "columns", false, "print one column name per observation entry")
	f.BoolVar(&o.hidden, "hide-opponent-cash", false, "describe the variant without the other players' cash (same features, version obs-v2-hidden-cash)")
	return cmd
}

func init() { register(newSpecCmd) }

// specRulesOptions turns the command's flags into rules options.
func specRulesOptions(o specOptions) (rules.Options, error) {
	ro, err := o.rulesOptions(0)
	if err != nil {
		return rules.Options{}, fmt.Errorf("spec: %w", err)
	}
	return ro, nil
}

func runSpec(o specOptions, out io.Writer) error {
	if o.json && o.columns {
		return fmt.Errorf("spec: --json and --columns are exclusive")
	}
	ro, err := specRulesOptions(o)
	if err != nil {
		return err
	}
	if o.oracle && o.hidden {
		return fmt.Errorf("spec: --oracle shows every player's cash; it cannot be combined with --hide-opponent-cash")
	}
	newSpec := func(ro rules.Options) (encoding.Spec, error) {
		return encoding.NewSpecWith(ro, encoding.Options{HideOpponentCash: o.hidden})
	}
	if o.oracle {
		newSpec = encoding.NewOracleSpec
	}
	s, err := newSpec(ro)
	if err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	switch {
	case o.json:
		b, err := json.MarshalIndent(&s, "", "  ")
		if err != nil {
			return fmt.Errorf("spec: %w", err)
		}
		_, err = fmt.Fprintf(out, "%s\n", b)
		return err
	case o.columns:
		for _, c := range s.Columns() {
			if _, err := fmt.Fprintln(out, c); err != nil {
				return err
			}
		}
		return nil
	}
	_, err = io.WriteString(out, s.String())
	return err
}
