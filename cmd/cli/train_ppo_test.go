package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/training"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrainPPOInitFromAnotherGamesNetworkIsRefused(t *testing.T) {
	f, err := training.DefaultBotFor(rules.DefaultOptions())
	require.NoError(t, err)
	classic := *f
	classic.Header.Rules.Variant = rules.Classic
	init := filepath.Join(t.TempDir(), "classic.bot")
	require.NoError(t, classic.WriteFile(init))
	out := filepath.Join(t.TempDir(), "ppo")
	code, _, stderr := runMain("train", "ppo", "--init", init, "--iterations", "1", "--out", out)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "classic")
	_, err = os.Stat(out)
	assert.ErrorIs(t, err, os.ErrNotExist, "a refused start leaves no run directory")
}
