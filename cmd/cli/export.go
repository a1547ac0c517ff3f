package cli

import (
	"errors"
	"fmt"
	"io"
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
	force                 bool
}

func newExportCmd() *cobra.Command {
	o := exportOptions{}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export a training run's network as a self-contained .bot file",
		Long: `Write the latest checkpoint of a training run as one bot file: the float32 weights, the
network configuration, the observation encoding version, the action-space layout and the rules
options it was trained for. Any command that takes bot names (eval, rate, play) accepts the
file's path; loading it for another encoding or other options fails with a clear error.`,
		Example: `  container export --run runs/bc --out runs/bc.bot
  container export --run runs/ppo/pool/iter-000070.bot --out default.bot --name default --notes "PPO iteration 70"
  container eval --agents runs/bc.bot,valuer --games 400`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExport(o, cmd.OutOrStdout()) },
	}
	f := cmd.Flags()
	f.StringVar(&o.run, "run", "", "training run directory (train bc/ppo --out), or a .bot file to re-label (e.g. RUN/pool/iter-000070.bot); required")
	f.StringVar(&o.out, "out", "", "bot file to write, ending in .bot; required")
	f.StringVar(&o.name, "name", "", "bot name stored in the file (default: the file name)")
	f.StringVar(&o.notes, "notes", "", "free text stored in the file (how it was made)")
	f.BoolVar(&o.force, "force", false, "overwrite --out even if it is not a bot file")
	return cmd
}

func init() { register(newExportCmd) }

func runExport(o exportOptions, out io.Writer) error {
	if o.run == "" || o.out == "" {
		return fmt.Errorf("%w: --run and --out are required", ErrExportOptions)
	}
	if !strings.HasSuffix(o.out, ".bot") {
		return fmt.Errorf("%w: --out %s must end in .bot", ErrExportOptions, rules.Quote(o.out))
	}
	// An existing --out is replaced only when it is a bot file (or with --force).
	if err := rundir.CheckFile(o.out, "a bot file", rundir.HasPrefix(rundir.BotMagic), o.force); err != nil {
		return fmt.Errorf("export: --out: %w", err)
	}
	name := o.name
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(o.out), ".bot")
	}
	b, err := training.ExportRun(o.run, name, o.notes)
	if err != nil {
		return err
	}
	if err := b.WriteFile(o.out); err != nil {
		return err
	}
	h := b.Header
	fmt.Fprintf(out, "wrote %s: %s network (%d features -> %d actions, width %d, depth %d, norm %s, %d weights), encoding %s, %d players %s, %s run at step %d\n",
		o.out, name, h.Net.ObsDim, h.Net.NumActions, h.Net.Width, h.Net.Depth, h.Net.Norm, h.Net.NumParams(),
		h.EncodingVersion, h.Rules.Players, h.Rules.Variant, h.Training.Method, h.Training.Steps)
	return nil
}
