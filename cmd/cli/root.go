// Package cli holds the container command's cobra commands. Each command lives in its own
// file, registers its constructor with register in an init function, and keeps its logic in a
// plain function that tests call directly.
package cli

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

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
	// An unknown command is one line (Main adds the suggestion): cobra's own suggestion block
	// spans several lines, and a command that only groups others (train) would print its help
	// and succeed for "container train bcc".
	root.DisableSuggestions = true
	for _, c := range root.Commands() {
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = cobra.NoArgs
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
	}
	return root
}

// unknownCommand matches cobra's error for an unknown command (from the root or from a
// command that takes no arguments).
var unknownCommand = regexp.MustCompile(`^unknown command ("(?:[^"\\]|\\.)*") for ("(?:[^"\\]|\\.)*")$`)

// unknownCommandLine rewrites cobra's unknown-command error as one line with the
// suggestion folded in: unknown command "evall"; did you mean "eval"?
func unknownCommandLine(root *cobra.Command, msg string) string {
	m := unknownCommand.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	name, err1 := strconv.Unquote(m[1])
	path, err2 := strconv.Unquote(m[2])
	if err1 != nil || err2 != nil {
		return msg
	}
	parent, _, err := root.Find(strings.Fields(path)[1:])
	if err != nil || parent.CommandPath() != path {
		parent = root
	}
	line := "unknown command " + rules.Quote(name)
	if parent != root {
		line += " for " + rules.Quote(path)
	}
	parent.SuggestionsMinimumDistance = 2
	var sug []string
	for _, s := range parent.SuggestionsFor(name) {
		sug = append(sug, strconv.Quote(s))
	}
	switch {
	case len(sug) > 0:
		line += "; did you mean " + strings.Join(sug, " or ") + "?"
	default:
		line += "; see " + path + " --help"
	}
	return line
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
		fmt.Fprintf(stderr, "container: %s\n", shortError(oneLine(unknownCommandLine(root, err.Error()))))
	}
	return exitCode(err)
}

// oneLine joins the lines of an error message (errors.Join puts each error on a line of its
// own) with "; ", so every error is one line.
func oneLine(msg string) string {
	return strings.Join(strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' }), "; ")
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
