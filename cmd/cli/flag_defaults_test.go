package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documentedDefaults are the defaults of every flag that shapes the data or the results a
// command produces, as `container CMD --help` prints them and docs/DATASETS.md,
// docs/TRAINING.md and docs/BOTS.md describe them. Changing one silently changes what users
// get (another reward scheme in every dataset, other games in every evaluation), so it must
// be a deliberate edit of this table and of the docs.
var documentedDefaults = map[string]map[string]string{
	"selfplay": {
		"games": "100", "seed": "1", "reward": "win-loss", "rules": "base", "length": "standard",
		"modules": "", "turn-limit": "0", "players": "0", "shard-games": "256", "format": "arrow",
		"compression": "", "record-policy": "false", "hide-opponent-cash": "false",
	},
	"eval": {
		"games": "100", "seed": "1", "rules": "base", "length": "standard", "modules": "",
		"turn-limit": "0", "players": "0",
	},
	"rate": {
		"games": "100", "seed": "1", "rules": "base", "length": "standard", "modules": "",
		"turn-limit": "0", "players": "0",
	},
	"spec": {
		"players": "4", "rules": "base", "length": "standard", "modules": "", "hide-opponent-cash": "false",
		"oracle": "false",
	},
	"train bc": {
		"steps": "2000", "batch": "256", "width": "128", "depth": "2", "norm": "layer", "lr": "0.001",
		"value-coef": "0.5", "val-percent": "10", "seed": "1", "games": "200", "checkpoint-every": "500",
		"log-every": "100",
	},
	"train exit": {
		"generations": "20", "games": "32", "shard-games": "4", "sims": "64", "c": "1.5", "explore": "15", "window": "4",
		"steps": "200", "batch": "256", "value-mix": "0", "gate-every": "2", "gate-games": "40",
		"gate-opponent": "ismcts:sims=50,workers=1", "gate-margin": "0.02", "gate-turn-limit-share": "0.01",
		"gate-opponent-drop": "0", "selfplay-turn-limit": "200", "players": "4", "rules": "base", "length": "standard", "modules": "", "lr": "0.0003",
		"width": "128", "depth": "2", "norm": "layer", "value-coef": "0.5", "seed": "1",
	},
	"train ppo": {
		"iterations": "50", "games": "32", "epochs": "2", "minibatch": "512", "opponents": "valuer,shipper",
		"pool-every": "5", "eval-every": "5", "eval-games": "200", "eval-opponent": "valuer",
		"entropy-coef": "0.01", "reward": "rank", "players": "4", "rules": "base", "length": "standard",
		"modules": "", "lr": "0.0003", "max-steps": "0", "width": "128", "depth": "2", "norm": "layer",
		"value-coef": "0.5", "seed": "1", "hide-opponent-cash": "false", "checkpoint-every": "1",
	},
}

func findCommand(t *testing.T, root *cobra.Command, path string) *cobra.Command {
	t.Helper()
	c, rest, err := root.Find(strings.Fields(path))
	require.False(t, err != nil || len(rest) != 0 || c == root, "no command %q: %v", path, err)
	return c
}

func TestFlagsThatShapeDataOrResultsKeepTheirDocumentedDefaults(t *testing.T) {
	root := NewRoot()
	for path, flags := range documentedDefaults {
		c := findCommand(t, root, path)
		for name, want := range flags {
			f := c.Flags().Lookup(name)
			if f == nil {
				assert.Fail(t, fmt.Sprintf("container %s has no --%s", path, name))
				continue
			}
			assert.True(t, f.DefValue == want, "container %s --%s defaults to %q, documented %q", path, name, f.DefValue, want)
		}
	}
}
