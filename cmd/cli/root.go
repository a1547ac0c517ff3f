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
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/version"
)

// Version is the toolkit version (internal/version) that --version prints and datasets and
// results files record.
const Version = version.Version

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
					return fmt.Errorf("%s: give --%s or its alias --%s, not both", commandName(cmd), pair[0], pair[1])
				}
			}
			return applyBackendFlag(cmd)
		},
	}
	cmds := make([]*cobra.Command, 0, len(builders))
	for _, b := range builders {
		cmds = append(cmds, b())
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name() < cmds[j].Name() })
	root.AddCommand(cmds...)
	addBackendFlags(root)
	help := newHelpCmd()
	help.AddCommand(newHelpFlagsCmd())
	root.SetHelpCommand(help)
	root.SetFlagErrorFunc(flagError)
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

// commandName is cmd's path without the root's name ("train bc"), as errors name commands
// (Main puts "container: " before them).
func commandName(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// newHelpCmd is cobra's help command, except that an unknown topic is an error (one line,
// exit 1): cobra's prints the whole usage on standard output and exits 0, and shows the
// nearest command's help for "help train nosuch".
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long: `Help provides help for any command in the application.
Simply type container help [path to command] for full details.`,
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, sub := range cmd.Commands() {
				if (sub.IsAvailableCommand() || sub == c) && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, rest, err := root.Find(args)
			if err == nil && len(rest) == 0 {
				cmd.InitDefaultHelpFlag()
				cmd.InitDefaultVersionFlag()
				return cmd.Help()
			}
			return unknownHelpTopic(root, cmd, err, args, rest)
		},
	}
}

// unknownHelpTopic is the error for "help TOPIC" naming no command: the deepest command
// found (the root when Find failed) says what it has.
func unknownHelpTopic(root, found *cobra.Command, findErr error, args, rest []string) error {
	parent, word := found, ""
	if findErr != nil || parent == nil {
		parent = root
	}
	if len(rest) > 0 {
		word = rest[0]
	} else if len(args) > 0 {
		word = args[0]
	}
	line := "help: unknown help topic " + rules.Quote(strings.Join(args, " "))
	var sug []string
	if parent.HasSubCommands() {
		parent.SuggestionsMinimumDistance = 2
		for _, s := range parent.SuggestionsFor(word) {
			sug = append(sug, strconv.Quote(strings.TrimPrefix(commandName(parent)+" "+s, root.Name()+" ")))
		}
	}
	if len(sug) > 0 {
		return errors.New(line + "; did you mean " + strings.Join(sug, " or ") + "?")
	}
	if parent == root {
		return errors.New(line + "; see container help")
	}
	return errors.New(line + "; see container help " + commandName(parent))
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
		fmt.Fprintf(stderr, "container: %s\n", errorLine(root, err, args))
	}
	return exitCode(err)
}

// errorLine is the line Main prints for err: one line, cut to maxErrorBytes, with the runes
// a terminal would act on escaped. An argument holding such runes (a file name with a newline
// or an escape sequence in it) is escaped before the lines are joined, so that its newline
// reads as \n rather than as the "; " between two errors.
func errorLine(root *cobra.Command, err error, args []string) string {
	msg := unknownCommandLine(root, err.Error())
	return shortError(escapeControls(oneLine(escapeArgs(msg, args))))
}

// oneLine joins the lines of an error message (errors.Join puts each error on a line of its
// own) with "; ", so every error is one line.
func oneLine(msg string) string {
	return strings.Join(strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' }), "; ")
}

// escapeControls escapes the runes of msg that a terminal acts on instead of showing them:
// control characters (C0, DEL, C1), the bidirectional marks, embeddings, overrides and
// isolates, the line and paragraph separators, and bytes that are not UTF-8. Each is written
// as strconv.Quote writes it (\x1b, \a, \n, \u202e, \xff); every other rune, non-ASCII
// letters included, stays as it is.
func escapeControls(msg string) string {
	i := 0
	for i < len(msg) {
		r, n := utf8.DecodeRuneInString(msg[i:])
		if (r == utf8.RuneError && n == 1) || isTerminalControl(r) {
			break
		}
		i += n
	}
	if i == len(msg) {
		return msg
	}
	var b strings.Builder
	b.WriteString(msg[:i])
	for i < len(msg) {
		r, n := utf8.DecodeRuneInString(msg[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, msg[i])
		case isTerminalControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(msg[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isTerminalControl reports whether r is a rune escapeControls escapes.
func isTerminalControl(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escapeArgs escapes, wherever it occurs in msg, each command-line argument (and the value
// of each --flag=value) that holds a rune escapeControls escapes, longest first.
func escapeArgs(msg string, args []string) string {
	var vals []string
	for _, a := range args {
		vals = append(vals, a)
		if strings.HasPrefix(a, "-") {
			if _, v, ok := strings.Cut(a, "="); ok {
				vals = append(vals, v)
			}
		}
	}
	sort.SliceStable(vals, func(i, j int) bool { return len(vals[i]) > len(vals[j]) })
	for _, v := range vals {
		if e := escapeControls(v); e != v && strings.TrimFunc(v, isTerminalControl) != "" {
			msg = strings.ReplaceAll(msg, v, e)
		}
	}
	return msg
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
