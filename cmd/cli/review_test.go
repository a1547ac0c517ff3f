package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEvalShardRerunWithDefaultTurnLimit checks that running the same eval shard again into
// the same --out replaces its own results file when --turn-limit is left at its default (0):
// the file records the settled limit (1000), and the rerun was refused as "another tournament".
func TestEvalShardRerunWithDefaultTurnLimit(t *testing.T) {
	e := smallEval("random,random,random")
	e.games, e.turnLimit, e.shard, e.out = 2, 0, "0/2", filepath.Join(t.TempDir(), "res")
	require.NoError(t, runEval(context.Background(), e, &bytes.Buffer{}))
	require.NoError(t, runEval(context.Background(), e, &bytes.Buffer{}), "a rerun of the same shard")
	e.seed++
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "holds another tournament's results (seed 3, not 4)")
}

// TestShardOutThatIsAFile checks that eval, rate and selfplay given an --out that is a file
// say so in one line (eval said the results file "exists and is not a results file") and
// leave the file alone.
func TestShardOutThatIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(file, []byte("mine"), 0o644))
	e := smallEval("random,random,random")
	e.games, e.out = 2, file
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "--out "+file+" is a file, not a directory")
	e.shard = "1/2"
	require.ErrorContains(t, runEval(context.Background(), e, &bytes.Buffer{}), "--out "+file+" is a file, not a directory")
	o := smallSelfplay(file)
	o.shard = "0/2"
	require.ErrorContains(t, runSelfplay(context.Background(), o, &bytes.Buffer{}), "--out "+file+" is a file, not a directory")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, "mine", string(b))
}
