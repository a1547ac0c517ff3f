package training

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/container-rl/container/env/bots"
)

// A PPO start whose opponent or evaluation opponent is a bot file that cannot be read (or a
// bot that does not exist) is refused before run.json is written, and the run directory it
// created is removed again: no marker, lock, pool/ or run.json is left behind. A directory
// that existed before (empty) stays, empty.
func TestPPOWithAnUnreadableOpponentLeavesNoRunDirectory(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.bot")
	require.NoError(t, os.WriteFile(garbage, []byte("not a bot file, just some bytes\x00\xff"), 0o644))
	for _, c := range []struct {
		name string
		set  func(o *PPOOptions)
		want error
	}{
		{"garbage opponent", func(o *PPOOptions) { o.Opponents = []string{"random", garbage} }, ErrCorrupt},
		{"missing opponent", func(o *PPOOptions) { o.Opponents = []string{filepath.Join(t.TempDir(), "missing.bot")} }, os.ErrNotExist},
		{"garbage eval opponent", func(o *PPOOptions) { o.EvalOpponent = garbage }, ErrCorrupt},
		{"unknown opponent", func(o *PPOOptions) { o.Opponents = []string{"nosuchbot"} }, bots.ErrUnknownBot},
	} {
		for _, existed := range []bool{false, true} {
			o := tinyPPO(t)
			o.Out = filepath.Join(t.TempDir(), "run")
			if existed {
				require.NoError(t, os.Mkdir(o.Out, 0o755))
			}
			o.Iterations, o.Games, o.EvalEvery, o.PoolEvery = 1, 1, 1, 0
			c.set(&o)
			_, err := TrainPPO(context.Background(), o)
			require.Error(t, err, c.name)
			require.True(t, errors.Is(err, c.want), "%s: %v, want %v", c.name, err, c.want)
			require.Equal(t, 1, strings.Count(err.Error(), "\n")+1, "%s: one line", c.name)
			ents, statErr := os.ReadDir(o.Out)
			if !existed {
				require.True(t, errors.Is(statErr, os.ErrNotExist), "%s: %s left behind (%v)", c.name, o.Out, ents)
				continue
			}
			require.NoError(t, statErr)
			require.Empty(t, ents, "%s: left in the user's empty directory", c.name)
		}
	}
}
