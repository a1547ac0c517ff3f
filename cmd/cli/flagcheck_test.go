package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHugeFlagValuesRefusedUpFront: every huge or out-of-range numeric
// flag is refused before any work with exit code 1 and one line naming the flag, and the
// --out directory is not created.
func TestHugeFlagValuesRefusedUpFront(t *testing.T) {
	const maxInt = "9223372036854775807"
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"--games", []string{"selfplay", "--agents", "random", "--games", maxInt}},
		{"--games", []string{"selfplay", "--agents", "random", "--games", "1000000000000"}},
		{"--games", []string{"selfplay", "--agents", "random", "--games", "50000000", "--shard-games", "1"}},
		{"--workers", []string{"selfplay", "--agents", "random", "--workers", "1000000"}},
		{"--turn-limit", []string{"selfplay", "--agents", "random", "--turn-limit", "100000000000000000"}},
		{"--shard-games", []string{"selfplay", "--agents", "random", "--shard-games", "0"}},
		{"--games", []string{"eval", "--agents", "random,random,random", "--games", maxInt}},
		{"--workers", []string{"eval", "--agents", "random,random,random", "--workers", "1000000"}},
		{"--batch", []string{"eval", "--agents", "random,random,random", "--batch", "100000000"}},
		{"--turn-limit", []string{"eval", "--agents", "random,random,random", "--turn-limit", "100000000000000000"}},
		{"--games", []string{"rate", "--agents", "random,random,random", "--games", maxInt}},
		{"--batch", []string{"train", "bc", "--teachers", "random", "--batch", "100000000"}},
		{"--depth", []string{"train", "bc", "--teachers", "random", "--depth", "0"}},
		{"--width", []string{"train", "bc", "--teachers", "random", "--width", "100000000"}},
		{"--steps", []string{"train", "bc", "--teachers", "random", "--steps", maxInt}},
		{"--lr", []string{"train", "bc", "--teachers", "random", "--lr", "NaN"}},
		{"--lr", []string{"train", "bc", "--teachers", "random", "--lr", "1e300"}},
		{"--value-coef", []string{"train", "bc", "--teachers", "random", "--value-coef", "+Inf"}},
		{"--games", []string{"train", "bc", "--teachers", "random", "--games", maxInt}},
		{"--log-every", []string{"train", "bc", "--teachers", "random", "--log-every", maxInt}},
		{"--minibatch", []string{"train", "ppo", "--minibatch", "100000000"}},
		{"--games", []string{"train", "ppo", "--games", "100000000"}},
		{"--iterations", []string{"train", "ppo", "--iterations", maxInt}},
		{"--epochs", []string{"train", "ppo", "--epochs", "1000000"}},
		{"--eval-games", []string{"train", "ppo", "--eval-games", maxInt}},
		{"--pool-every", []string{"train", "ppo", "--pool-every", "-1"}},
		{"--max-steps", []string{"train", "ppo", "--max-steps", maxInt}},
		{"--entropy-coef", []string{"train", "ppo", "--entropy-coef", "NaN"}},
		{"--depth", []string{"train", "ppo", "--depth", "0"}},
		{"--games", []string{"bench", "--games", maxInt}},
		{"--workers", []string{"bench", "--workers", "1000000"}},
		{"--turn-limit", []string{"bench", "--turn-limit", "100000000000000000"}},
		{"--batch", []string{"bench", "--train", "--batch", "100000000"}},
		{"--games", []string{"demo", "--games", maxInt}},
		{"--train-steps", []string{"demo", "--train-steps", maxInt}},
		{"--turn-limit", []string{"play", "--turn-limit", "100000000000000000"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{}, tc.args...)
			switch args[0] {
			case "selfplay", "train", "demo":
				args = append(args, "--out", out)
			}
			var stdout, stderr bytes.Buffer
			code := Main(args, strings.NewReader(""), &stdout, &stderr)
			msg := strings.TrimSuffix(stderr.String(), "\n")
			require.False(t, code != 1 || !strings.Contains(msg, tc.flag) || strings.Contains(msg, "\n"), "exit %d, stderr %q; want 1 and one line naming %s", code, stderr.String(), tc.flag)
			_, err := os.Stat(out)
			require.Error(t, err, "the refused command created %s", out)
		})
	}
}

func TestCheckFlagsRanges(t *testing.T) {
	require.NoError(t, checkIntFlags(intFlag{"a", 5, 1, 5}, intFlag{"b", 0, 0, 0}))
	err := checkIntFlags(intFlag{"a", 6, 1, 5})
	require.False(t, err == nil || err.Error() != "--a 6 is outside 1..5", "got %v", err)
	err = checkFloatFlags(floatFlag{"lr", 0, 0, 1, true})
	require.False(t, err == nil || err.Error() != "--lr 0 is outside (0, 1]", "got %v", err)
	require.NoError(t, checkFloatFlags(floatFlag{"c", 0, 0, 1, false}))
}
