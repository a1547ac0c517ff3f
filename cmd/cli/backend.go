package cli

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/container-rl/container/training"
)

// backendCommands are the commands that run GoMLX graphs (training steps); each gets a
// --backend flag, inherited by its subcommands. Bots (eval, rate, play, serve, the PPO and
// ExIt self-play) run their networks with the Go forward pass, whatever the backend.
var backendCommands = []string{"train", "bench"}

const backendUsage = "GoMLX backend of the training steps: go (pure Go, the default) or xla (a build made by " +
	training.XLAScript + "; xla:cuda for an NVIDIA GPU); wins over GOMLX_BACKEND"

// addBackendFlags adds --backend to the commands of root that run GoMLX graphs.
func addBackendFlags(root *cobra.Command) {
	for _, c := range root.Commands() {
		if slices.Contains(backendCommands, c.Name()) {
			c.PersistentFlags().String("backend", "", backendUsage)
		}
	}
}

// applyBackendFlag selects the backend --backend names for this command (or returns to
// GOMLX_BACKEND's choice when it is not given).
func applyBackendFlag(cmd *cobra.Command) error {
	f := cmd.Flags().Lookup("backend")
	if f == nil || !f.Changed {
		return training.SetBackend("")
	}
	if err := training.SetBackend(f.Value.String()); err != nil {
		return fmt.Errorf("%s: --backend %q: want go or xla (or xla:cuda, xla:/path/to/plugin.so)", commandName(cmd), f.Value.String())
	}
	return nil
}
