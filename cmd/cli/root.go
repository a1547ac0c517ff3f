// Package cli holds the container command's cobra commands. Each command lives in its own
// file, registers its constructor with register in an init function, and keeps its logic in a
// plain function that tests call directly.
package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/env/rules"
)

// Version is the toolkit version recorded in datasets and bot files.
const Version = "0.1.0"

var builders []func() *cobra.Command

// aliasFlags are pairs of flags that set the same value.
var aliasFlags = [][2]string{{"agents", "bots"}}

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
		// Flags that are aliases of one another may not both be given (one would be
		// silently ignored).
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			for _, pair := range aliasFlags {
				a, b := cmd.Flags().Lookup(pair[0]), cmd.Flags().Lookup(pair[1])
				if a != nil && b != nil && a.Changed && b.Changed {
					return fmt.Errorf("%s: give --%s or its alias --%s, not both", cmd.CommandPath(), pair[0], pair[1])
				}
			}
			return nil
		},
	}
	cmds := make([]*cobra.Command, 0, len(builders))
	for _, b := range builders {
		cmds = append(cmds, b())
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name() < cmds[j].Name() })
	root.AddCommand(cmds...)
	return root
}

// strictCompletion adds cobra's completion command now (it captures the output stream, so
// call it after SetOut) and makes an unknown shell an error: by default the command prints
// its help and exits 0.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) == 0 {
					return cmd.Help()
				}
				return fmt.Errorf("completion: unknown shell %s (want bash, zsh, fish or powershell)", rules.Quote(args[0]))
			}
		}
	}
}

// ErrInterrupted is wrapped by the error of a command stopped by Ctrl-C (SIGINT) after it
// printed or kept its partial results; Main exits with ExitInterrupted for it.
var ErrInterrupted = errors.New("interrupted")

// ExitInterrupted is the exit status of an interrupted command (128 + SIGINT, as shells
// report a process killed by Ctrl-C).
const ExitInterrupted = 130

// Main runs the command line with the given arguments and streams and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	strictCompletion(root)
	err := root.Execute()
	if err != nil {
		fmt.Fprintf(stderr, "container: %s\n", shortError(err.Error()))
	}
	return exitCode(err)
}

// exitCode is the exit status for a command's error: 0, ExitInterrupted, or 1.
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrInterrupted):
		return ExitInterrupted
	}
	return 1
}
