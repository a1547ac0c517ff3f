package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/container-rl/container/env/rules"
)

// flagsDoc is what container help flags --json prints: every command's flags, with the range
// of each numeric flag the command checks up front (flagRanges).
type flagsDoc struct {
	Version string `json:"version"`
	// Players is the player counts of a game of Container (rules.Options.Validate); a
	// --players range may also allow 0 where it means "from the agents".
	Players  flagRangeDoc `json:"players"`
	Commands []commandDoc `json:"commands"`
}

type commandDoc struct {
	// Command is the command's path without "container" ("train bc").
	Command string    `json:"command"`
	Flags   []flagDoc `json:"flags"`
}

type flagDoc struct {
	Name      string `json:"name"`
	Shorthand string `json:"shorthand,omitempty"`
	// Kind is the flag's value type as pflag names it: int, uint64, float64, string, bool,
	// duration, stringSlice.
	Kind    string        `json:"kind"`
	Default string        `json:"default"`
	Usage   string        `json:"usage"`
	Range   *flagRangeDoc `json:"range,omitempty"`
}

// flagRangeDoc is an allowed range: min..max, the minimum itself refused where MinExclusive.
type flagRangeDoc struct {
	Min          float64 `json:"min"`
	Max          float64 `json:"max"`
	MinExclusive bool    `json:"min_exclusive,omitempty"`
}

func newHelpFlagsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "flags",
		Short: "Every command's flags: kind, default and the range a numeric flag must be in",
		Long: `List every command's flags with their kind, default and, for a numeric flag the command
checks before any work, the range it must be in (a value outside is refused in one line naming
the flag). --json prints the same as one JSON object, for scripts that test the command line.`,
		Example: `  container help flags
  container help flags --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runHelpFlags(cmd.Root(), asJSON, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// describeFlags walks root's commands in path order.
func describeFlags(root *cobra.Command) flagsDoc {
	doc := flagsDoc{Version: Version, Players: flagRangeDoc{Min: minPlayers, Max: rules.MaxPlayers}}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c != root && !c.Hidden {
			path := commandName(c)
			cd := commandDoc{Command: path, Flags: []flagDoc{}}
			c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
				if f.Hidden || f.Name == "help" {
					return
				}
				fd := flagDoc{Name: f.Name, Shorthand: f.Shorthand, Kind: f.Value.Type(), Default: f.DefValue, Usage: f.Usage}
				if r, ok := findRange(flagRanges[path], f.Name); ok {
					fd.Range = &flagRangeDoc{Min: r.min, Max: r.max, MinExclusive: r.openMin}
				}
				cd.Flags = append(cd.Flags, fd)
			})
			doc.Commands = append(doc.Commands, cd)
		}
		for _, sub := range c.Commands() { // cobra sorts them by name
			walk(sub)
		}
	}
	walk(root)
	return doc
}

func runHelpFlags(root *cobra.Command, asJSON bool, out io.Writer) error {
	doc := describeFlags(root)
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "COMMAND\tFLAG\tKIND\tDEFAULT\tRANGE")
	for _, c := range doc.Commands {
		for _, f := range c.Flags {
			name := "--" + f.Name
			if f.Shorthand != "" {
				name = "-" + f.Shorthand + ", " + name
			}
			def := f.Default
			if f.Kind == "string" {
				def = strconv.Quote(def)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Command, name, f.Kind, def, rangeText(f.Kind, f.Range))
		}
	}
	return tw.Flush()
}

// rangeText writes the range of a flag of kind as its refusal does: 1..4096 for an integer,
// [0, 1000] or (0, 10] for a float; "" for no range.
func rangeText(kind string, r *flagRangeDoc) string {
	switch {
	case r == nil:
		return ""
	case kind == "int":
		return fmt.Sprintf("%d..%d", int64(r.Min), int64(r.Max))
	case r.MinExclusive:
		return fmt.Sprintf("(%g, %g]", r.Min, r.Max)
	default:
		return fmt.Sprintf("[%g, %g]", r.Min, r.Max)
	}
}
