package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
)

// ErrExportOptions is wrapped by every export option error.
var ErrExportOptions = errors.New("export: invalid options")

type exportOptions struct {
	run, out, name, notes string
	upgrade               string
	force                 bool
	// stderr takes the "wrote" line when the bot file goes to standard output (--out -).
	stderr io.Writer
}

func newExportCmd() *cobra.Command {
	o := exportOptions{}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export a training run's network as a self-contained .bot file",
		Long: `Write the latest checkpoint of a training run as one bot file: the float32 weights, the
network configuration, the observation encoding version, the action-space layout and the rules
options it was trained for. Any command that takes bot names (eval, rate, play) accepts the
file's path; loading it for another encoding or other options fails with a clear error.

--upgrade OLD.bot writes OLD.bot's network mapped, without training, onto this build's
observation and action layout by name: every input and action id keeps its weights under its
name, inputs new to the layout start at zero weight, new action ids are masked (logit bias
-30) until trained, removed ones are dropped; the play is the same wherever the old layout
could see the position (docs/TRAINING.md, "Upgrading a bot file"). Loaders never upgrade
silently.

--out - writes the bot file to standard output. An existing regular --out file is replaced
only when it is a bot file (or with --force); a device or named pipe is written through, a
symbolic link followed, and nothing else is ever replaced (docs/FILES.md).`,
		Example: `  container export --run runs/bc --out runs/bc.bot
  container export --run runs/ppo/pool/iter-000070.bot --out default.bot --name default --notes "PPO iteration 70"
  container eval --agents runs/bc.bot,valuer --games 400
  container export --upgrade old/default.bot --out default.bot`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.stderr = cmd.ErrOrStderr()
			return runExport(o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.run, "run", "", "training run directory (train bc/ppo --out), or a .bot file to re-label (e.g. RUN/pool/iter-000070.bot); required")
	f.StringVar(&o.out, "out", "", "bot file to write, ending in .bot (- for standard output); required")
	f.StringVar(&o.name, "name", "", "bot name stored in the file (default: the file name)")
	f.StringVar(&o.upgrade, "upgrade", "", "a .bot file of an earlier layout to upgrade by name to this build's layout (instead of --run)")
	f.StringVar(&o.notes, "notes", "", "free text stored in the file (how it was made)")
	f.BoolVar(&o.force, "force", false, "replace a regular --out file even if it is not a bot file")
	return cmd
}

func init() { register(newExportCmd) }

func runExport(o exportOptions, out io.Writer) error {
	if o.upgrade != "" {
		if o.run != "" {
			return fmt.Errorf("%w: give --run or --upgrade, not both", ErrExportOptions)
		}
		return runUpgrade(o, out)
	}
	if o.run == "" || o.out == "" {
		return fmt.Errorf("%w: --run and --out are required", ErrExportOptions)
	}
	if !strings.HasSuffix(o.out, ".bot") && o.out != "-" {
		return fmt.Errorf("%w: --out %s must end in .bot (or be - for standard output)", ErrExportOptions, rules.Quote(o.out))
	}
	// An existing --out is replaced only when it is a bot file (or with --force).
	if err := rundir.CheckFile(o.out, "a bot file", rundir.HasPrefix(rundir.BotMagic), o.force); err != nil {
		return fmt.Errorf("export: --out: %w", err)
	}
	name := o.name
	if name == "" {
		from := o.out
		if from == "-" {
			from = o.run
		}
		name = strings.TrimSuffix(filepath.Base(from), ".bot")
	}
	b, err := training.ExportRun(o.run, name, o.notes)
	if err != nil {
		return err
	}
	if err := writeBot(b, o, out); err != nil {
		return err
	}
	h := b.Header
	fmt.Fprintf(o.note(out), "wrote %s: %s network (%d features -> %d actions, width %d, depth %d, norm %s, %d weights), encoding %s, %d players %s, %s run at step %d\n",
		o.out, name, h.Net.ObsDim, h.Net.NumActions, h.Net.Width, h.Net.Depth, h.Net.Norm, h.Net.NumParams(),
		h.EncodingVersion, h.Rules.Players, h.Rules.Variant, h.Training.Method, h.Training.Steps)
	return nil
}

// runUpgrade writes --upgrade's bot file mapped onto this build's layout to --out.
func runUpgrade(o exportOptions, out io.Writer) error {
	if o.out == "" || (!strings.HasSuffix(o.out, ".bot") && o.out != "-") {
		return fmt.Errorf("%w: --out must name a .bot file to write (or be - for standard output)", ErrExportOptions)
	}
	st, err := os.Stat(o.upgrade)
	if err != nil {
		return fmt.Errorf("export: --upgrade: %w", err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: --upgrade %s is not a regular file", ErrExportOptions, rules.Quote(o.upgrade))
	}
	if ost, err := os.Stat(o.out); o.out != "-" && err == nil && os.SameFile(st, ost) {
		return fmt.Errorf("%w: --out %s is the file being upgraded; write the upgrade beside it", ErrExportOptions, rules.Quote(o.out))
	}
	if err := rundir.CheckFile(o.out, "a bot file", rundir.HasPrefix(rundir.BotMagic), o.force); err != nil {
		return fmt.Errorf("export: --out: %w", err)
	}
	old, err := os.ReadFile(o.upgrade)
	if err != nil {
		return fmt.Errorf("export: --upgrade: %w", err)
	}
	b, err := training.UpgradeBot(old, filepath.Base(o.upgrade))
	if err != nil {
		return fmt.Errorf("%w (file %s)", err, o.upgrade)
	}
	if o.name != "" {
		b.Header.Name = o.name
	}
	if o.notes != "" {
		b.Header.Training.Notes += " " + o.notes
	}
	if err := writeBot(b, o, out); err != nil {
		return err
	}
	h := b.Header
	fmt.Fprintf(o.note(out), "wrote %s: %s network upgraded from %s (%d features -> %d actions, encoding %s, action layout %s)\n",
		o.out, h.Name, o.upgrade, h.Net.ObsDim, h.Net.NumActions, h.EncodingVersion, h.Actions.Version)
	return nil
}

// writeBot writes the bot file to --out (checked before with rundir.CheckFile).
func writeBot(b *training.BotFile, o exportOptions, stdout io.Writer) error {
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		return err
	}
	if err := writeOutputFile(o.out, buf.Bytes(), stdout); err != nil {
		return fmt.Errorf("export: --out: %w", err)
	}
	return nil
}

// note is where the "wrote" line goes: standard output, or standard error when the bot file
// itself went to standard output.
func (o exportOptions) note(out io.Writer) io.Writer {
	if o.out != "-" {
		return out
	}
	if o.stderr == nil {
		return io.Discard
	}
	return o.stderr
}
