package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBackendFlagOnTrainingCommands: --backend is offered by the commands that run GoMLX
// graphs (every train subcommand, bench) and its help says it wins over GOMLX_BACKEND.
func TestBackendFlagOnTrainingCommands(t *testing.T) {
	root := NewRoot()
	for _, path := range [][]string{{"train", "bc"}, {"train", "ppo"}, {"train", "exit"}, {"bench"}} {
		cmd, _, err := root.Find(path)
		require.NoError(t, err)
		f := cmd.PersistentFlags().Lookup("backend")
		if f == nil {
			f = cmd.InheritedFlags().Lookup("backend")
		}
		if f == nil {
			assert.Fail(t, fmt.Sprintf("%s has no --backend", strings.Join(path, " ")))
			continue
		}
		assert.False(t, !strings.Contains(f.Usage, "GOMLX_BACKEND") || !strings.Contains(f.Usage, "scripts/xla-cpu.sh"), "--backend help %q: want it to name GOMLX_BACKEND and scripts/xla-cpu.sh", f.Usage)
	}
}

// TestBackendFlagErrorsAreOneLine: an unknown backend, and xla where no plugin can be found
// (or in a build without it), end the command with one line (the latter naming the script
// that installs it) and a non-zero exit.
func TestBackendFlagErrorsAreOneLine(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", t.TempDir())
	t.Setenv("GOMLX_BACKEND", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--train", "--backend", "tpu", "--steps", "1"}, `--backend "tpu": want go or xla`},
		{[]string{"bench", "--train", "--backend", "xla", "--steps", "1"}, "scripts/xla-cpu.sh"},
		{[]string{"train", "ppo", "--backend", "xla", "--out", t.TempDir() + "/run", "--iterations", "1", "--games", "1"}, "scripts/xla-cpu.sh"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &stdout, &stderr)
		msg := stderr.String()
		assert.False(t, code == 0 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) || strings.Contains(msg, "panic"), "container %s: exit %d, stderr %q: want one line with %q and a non-zero exit", strings.Join(c.args, " "), code, msg, c.want)
	}
	// The choice does not outlive the command: the next one without --backend is pure Go.
	var stdout, stderr bytes.Buffer
	code := Main([]string{"bench", "--train", "--steps", "1", "--batch", "8", "--json"}, strings.NewReader(""), &stdout, &stderr)
	assert.False(t, code != 0 || !strings.Contains(stdout.String(), `"backend":"SimpleGo (go)"`), "bench --train after a failed --backend xla: exit %d, %s%s", code, stdout.String(), stderr.String())
}

// A backend that cannot run is refused before any work: train bc with teacher games and
// train exit end at once with the one-line error, having played nothing and written no run
// directory.
func TestTrainRefusesAnUnusableBackendBeforeAnyWork(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", t.TempDir())
	t.Setenv("GOMLX_BACKEND", "")
	for _, args := range [][]string{
		{"train", "bc", "--backend", "xla", "--teachers", "valuer", "--games", "5000"},
		{"train", "exit", "--backend", "xla", "--init", "default", "--games", "5000"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := Main(append(args, "--out", out), strings.NewReader(""), &stdout, &stderr)
		msg := stderr.String()
		assert.False(t, code == 0 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "scripts/xla-cpu.sh"), "container %s: exit %d, stderr %q", strings.Join(args, " "), code, msg)
		assert.Less(t, time.Since(start), 10*time.Second, "the refusal came after the games were played")
		assert.NoDirExists(t, out)
	}
}
