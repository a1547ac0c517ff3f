package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A trainer given a bot file it cannot read (an opponent, the evaluation or gating opponent,
// a teacher, the initial network) refuses to start in one line and leaves no trace: a run
// directory it would have created does not exist afterwards, and an empty one the user made
// stays empty.
func TestTrainWithAnUnreadableBotFileLeavesNoRunDirectory(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.bot")
	require.NoError(t, os.WriteFile(garbage, []byte("CNTRBOT\x00 and then random bytes \xff\xfe\x01"), 0o644))
	missing := filepath.Join(t.TempDir(), "missing.bot")
	small := []string{"--width", "8", "--depth", "1"}
	ppo := append([]string{"train", "ppo", "--iterations", "1", "--games", "1", "--minibatch", "8"}, small...)
	exit := append([]string{"train", "exit", "--generations", "1", "--games", "1", "--sims", "2", "--steps", "1"}, small...)
	for name, args := range map[string][]string{
		"ppo --opponents garbage":      append(ppo, "--eval-every", "0", "--opponents", "random,"+garbage),
		"ppo --opponents missing":      append(ppo, "--eval-every", "0", "--opponents", missing),
		"ppo --eval-opponent garbage":  append(ppo, "--opponents", "random", "--eval-every", "1", "--eval-opponent", garbage),
		"ppo --init garbage":           append(ppo, "--eval-every", "0", "--init", garbage),
		"bc --teachers garbage":        append([]string{"train", "bc", "--teachers", "random," + garbage, "--games", "2", "--steps", "1"}, small...),
		"exit --gate-opponent garbage": append(exit, "--gate-opponent", garbage),
		"exit --init garbage":          append(exit, "--init", garbage),
	} {
		for _, existed := range []bool{false, true} {
			out := filepath.Join(t.TempDir(), "run")
			if existed {
				require.NoError(t, os.Mkdir(out, 0o755))
			}
			var stdout, stderr bytes.Buffer
			code := Main(append(append([]string{}, args...), "--out", out), strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 1, code, "%s: %s", name, stderr.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "%s: %q", name, stderr.String())
			assert.Contains(t, stderr.String(), "bot", "%s: %q", name, stderr.String())
			ents, err := os.ReadDir(out)
			if existed {
				assert.NoError(t, err, name)
				assert.Empty(t, ents, "%s: left in the user's empty directory", name)
			} else {
				assert.True(t, os.IsNotExist(err), "%s: %s left behind (%v)", name, out, ents)
			}
		}
	}
}
