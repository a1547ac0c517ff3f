package cli

import (
	"bytes"
	"context"
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
