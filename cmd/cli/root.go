// Package cli holds the container command's cobra commands. Each command lives in its own
// file, registers its constructor with register in an init function, and keeps its logic in a
// plain function that tests call directly.
package cli

import (
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"
)

// Version is the toolkit version recorded in datasets and bot files.
const Version = "0.1.0"

var builders []func() *cobra.Command

// register adds a command constructor; call it from an init function.
func register(b func() *cobra.Command) { builders = append(builders, b) }

// NewRoot builds the root command with every registered subcommand.
func NewRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "container",
		Short:         "Container board game: rules engine, RL environment, datasets, training and evaluation",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	cmds := make([]*cobra.Command, 0, len(builders))
	for _, b := range builders {
		cmds = append(cmds, b())
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name() < cmds[j].Name() })
	root.AddCommand(cmds...)
	return root
}

// Main runs the command line with the given arguments and streams and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.Execute(); err != nil {
		fmt.Fprintf(stderr, "container: %v\n", err)
		return 1
	}
	return 0
}
