package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDatasetCalibrate_PrintsBrierScoresAndReliabilityByPhase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "heldout")
	var out bytes.Buffer
	require.Equal(t, 0, Main([]string{"selfplay", "--agents", "default,valuer,shipper,manufacturer", "--games", "4", "--seed", "9", "-q", "--out", dir}, nil, &out, &out), out.String())
	out.Reset()
	require.Equal(t, 0, Main([]string{"dataset", "calibrate", dir, "--agent", "default"}, nil, &out, &out), out.String())
	s := out.String()
	for _, want := range []string{"value head of default", "4 games, 4 players", "opening", "middle", "end", "all", "Brier read as search", "reliability", "0.90-1.00", "manufacturer"} {
		assert.Contains(t, s, want)
	}
	out.Reset()
	require.Equal(t, 0, Main([]string{"dataset", "calibrate", dir, "--json", "--bins", "4", "--reading", "search"}, nil, &out, &out), out.String())
	assert.Contains(t, out.String(), `"Reading": "search"`)
	assert.Equal(t, 4*4, strings.Count(out.String(), `"Lo"`)-4*len([]string{"manufacturer", "default", "valuer", "shipper"}), "4 bins in each of the 4 phases")
	out.Reset()
	require.Equal(t, 0, Main([]string{"dataset", "calibrate", dir, "--reading", "rank"}, nil, &out, &out), out.String())
	assert.Contains(t, out.String(), "against the rank score")
	assert.Contains(t, out.String(), "Brier read as search vs win share")

	for _, bad := range [][]string{
		{"dataset", "calibrate", dir, "--bins", "0"},
		{"dataset", "calibrate", dir, "--reading", "ranks"},
		{"dataset", "calibrate", dir, "--agent", "valuer"},
		{"dataset", "calibrate", filepath.Join(dir, "missing")},
	} {
		var errOut bytes.Buffer
		assert.Equal(t, 1, Main(bad, nil, &out, &errOut), bad)
		assert.Equal(t, 1, strings.Count(strings.TrimRight(errOut.String(), "\n"), "\n")+1, "one line for %v: %q", bad, errOut.String())
	}
}
