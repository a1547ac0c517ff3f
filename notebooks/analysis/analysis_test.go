package analysis

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeDataset writes a two-game, three-seat dataset whose every number the tests can count
// by hand. Actions: 0 end-turn, 1 place:$2, 2 place:$5, 3 $0, 4 amount:7 (an amount as
// datasets before the one-spelling notation named it).
func writeDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	meta := datasets.Meta{
		EncodingVersion: "analysis-test-v1", ObsDim: 1, NumActions: 5, Seats: 3,
		ActionNames: []string{"end-turn", "place:$2", "place:$5", "$0", "amount:7"},
		PhaseNames:  []string{"turn", "place", "delivery-bid"},
	}
	w, err := datasets.NewShardWriter(dir, 0, 0, &meta, datasets.WriteOptions{})
	require.NoError(t, err)
	step := func(game uint64, phase uint8, action int32) datasets.Step {
		return datasets.Step{GameID: game, Phase: phase, Action: action, Obs: []float32{0},
			Legal: []int{int(action)}, Returns: []float32{0, 0, 0}}
	}
	scores := func(a, b, c int32) []datasets.Score {
		return []datasets.Score{{Total: a}, {Total: b}, {Total: c}}
	}
	agents := []string{"valuer", "shipper", "valuer"}
	games := []struct {
		g     datasets.Game
		steps []datasets.Step
	}{
		{datasets.Game{GameID: 0, Agents: agents, Scores: scores(50, 40, 30), Winners: []int8{0}, Length: 4, Turns: 2, EndReason: "supply"},
			[]datasets.Step{step(0, 1, 1), step(0, 1, 2), step(0, 2, 4), step(0, 0, 0)}},
		{datasets.Game{GameID: 1, Agents: agents, Scores: scores(10, 60, 20), Winners: []int8{1}, Length: 3, Turns: 1, EndReason: "turn-limit"},
			[]datasets.Step{step(1, 2, 3), step(1, 1, 2), step(1, 0, 0)}},
	}
	for _, g := range games {
		require.NoError(t, w.WriteGame(&g.g, g.steps))
	}
	info, err := w.Close()
	require.NoError(t, err)
	m := &datasets.Manifest{Version: 1, Format: datasets.Format("arrow"), Games: 2, GamesPerShard: 2, Agents: agents, Meta: meta}
	m.AddShard(info)
	require.NoError(t, datasets.WriteManifest(dir, m))
	return dir
}

func TestReadGamesCollectsLengthsScoresAndEndReasons(t *testing.T) {
	d, err := OpenDataset(writeDataset(t))
	require.NoError(t, err)
	g, err := ReadGames(d)
	require.NoError(t, err)
	assert.Equal(t, []float64{4, 3}, g.Length)
	assert.Equal(t, []float64{2, 1}, g.Turns)
	assert.Equal(t, []float64{50, 40, 30, 10, 60, 20}, g.Score)
	assert.Equal(t, map[string]int{"supply": 1, "turn-limit": 1}, g.EndReasons)
}

func TestReadStepsSplitsBidsPricesAndKinds(t *testing.T) {
	d, err := OpenDataset(writeDataset(t))
	require.NoError(t, err)
	s, err := ReadSteps(d)
	require.NoError(t, err)
	assert.Equal(t, 7, s.Total)
	assert.Equal(t, map[string][]float64{"delivery-bid": {7, 0}}, s.Bids)
	assert.Equal(t, map[int]int{2: 1, 5: 2}, s.Prices)
	assert.Equal(t, map[string]map[string]int{
		"turn": {"end-turn": 2}, "place": {"place": 3}, "delivery-bid": {"amount": 2},
	}, s.KindsByPhase)
	assert.Equal(t, []string{"delivery-bid", "place", "turn"}, Keys(s.KindsByPhase))
}

func TestOpenDatasetWithoutManifestFails(t *testing.T) {
	_, err := OpenDataset(t.TempDir())
	require.ErrorIs(t, err, datasets.ErrNoManifest)
}

func TestReadMetricsAndColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.csv")
	require.NoError(t, os.WriteFile(path, []byte("step,loss\n10,2.5\n20,1.25\n"), 0o644))
	m, err := ReadMetrics(path)
	require.NoError(t, err)
	loss, err := m.Column("loss")
	require.NoError(t, err)
	assert.Equal(t, []float64{2.5, 1.25}, loss)
	_, err = m.Column("accuracy")
	require.ErrorIs(t, err, ErrInput)
	assert.Contains(t, err.Error(), "have step, loss")
}

func TestReadMetricsRejectsTextAndRaggedRows(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"text.csv":   "step,loss\n10,nan-ish\n",
		"ragged.csv": "step,loss\n10\n",
		"empty.csv":  "",
	} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
		_, err := ReadMetrics(path)
		require.ErrorIs(t, err, ErrInput, name)
	}
}

func TestHTMLTableEscapesCells(t *testing.T) {
	html := HTMLTable([]string{"bot"}, [][]string{{"<b>x</b>"}})
	assert.Contains(t, html, "&lt;b&gt;x&lt;/b&gt;")
	assert.NotContains(t, html, "<b>")
}
