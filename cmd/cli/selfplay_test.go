package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func smallSelfplay(out string) selfplayOptions {
	return selfplayOptions{gameFlags: gameFlags{variant: "base", length: "standard"}, agents: "random, valuer, shipper", games: 4, out: out, format: "arrow", compression: "zstd", workers: 2, seed: 3, reward: "win-loss", shardGames: 3}
}

func TestSelfplayThenDatasetStatsAndHead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	var out bytes.Buffer
	require.NoError(t, runSelfplay(context.Background(), smallSelfplay(dir), &out))
	require.Contains(t, out.String(), "played 4 games")
	require.Contains(t, out.String(), "4 of 4 games")

	out.Reset()
	require.NoError(t, runDatasetStats(dir, datasetOptions{json: true}, &out))
	var st datasets.Stats
	require.NoError(t, json.Unmarshal(out.Bytes(), &st))
	require.Equal(t, 4, st.Games)
	require.Equal(t, 3, st.Seats)
	require.Greater(t, st.Steps, int64(4))
	wins := 0
	for _, w := range st.WinsBySeat {
		wins += w
	}
	require.GreaterOrEqual(t, wins, 4, "every game has at least one winner")
	require.Equal(t, []string{"random", "shipper", "valuer"}, st.AgentNames())

	out.Reset()
	require.NoError(t, runDatasetStats(dir, datasetOptions{top: 3}, &out))
	for _, want := range []string{"4 games (of 4 planned)", "wins by seat", "valuer", "actions by phase", "turn"} {
		require.Contains(t, out.String(), want)
	}

	out.Reset()
	require.NoError(t, runDatasetHead(dir, datasetOptions{rows: 2}, &out))
	require.Contains(t, out.String(), "random,valuer,shipper")
	require.Equal(t, 2+1, strings.Count(out.String()[strings.Index(out.String(), "steps:"):], "\n")-1, "header and two step rows")
	// Seats are printed with the agent that played them: the winners of each game and the
	// decider of each step.
	gamesPart, stepsPart, _ := strings.Cut(out.String()[strings.Index(out.String(), "games:"):], "steps:")
	require.Regexp(t, `(?m)^0 +\d+ +random,valuer,shipper +\S+ +\S+ +\d (random|valuer|shipper)(,\d (random|valuer|shipper))* +\d`, gamesPart)
	require.Regexp(t, `(?m)^0 +0 +0 +\d (random|valuer|shipper) +turn `, stepsPart)

	// Running again into the same directory needs --resume, which then has nothing to do.
	require.ErrorContains(t, runSelfplay(context.Background(), smallSelfplay(dir), &out), "--resume")
	o := smallSelfplay(dir)
	o.resume = true
	out.Reset()
	require.NoError(t, runSelfplay(context.Background(), o, &out))
	require.Contains(t, out.String(), "played 0 games")
}

func TestSelfplayFlagErrors(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		change func(o *selfplayOptions)
		want   string
	}{
		"no agents":        {func(o *selfplayOptions) { o.agents = "" }, "--agents is required"},
		"six agents":       {func(o *selfplayOptions) { o.agents = "random,random,random,random,random,random" }, "at most 5"},
		"unknown bot":      {func(o *selfplayOptions) { o.agents = "random,nobody,random" }, "unknown bot"},
		"no out":           {func(o *selfplayOptions) { o.out = "" }, "--out is required"},
		"zero games":       {func(o *selfplayOptions) { o.games = 0 }, "--games 0"},
		"format":           {func(o *selfplayOptions) { o.format = "csv" }, "--format"},
		"arrow snappy":     {func(o *selfplayOptions) { o.compression = "snappy" }, "snappy"},
		"players":          {func(o *selfplayOptions) { o.players = 7 }, "players"},
		"agents > players": {func(o *selfplayOptions) { o.agents = "random,random,random,random"; o.players = 3 }, "4 bots for 3 players"},
		"rules":            {func(o *selfplayOptions) { o.variant = "deluxe" }, "--rules"},
		"modules":          {func(o *selfplayOptions) { o.modules = "dragons" }, "--modules"},
		"reward":           {func(o *selfplayOptions) { o.reward = "glory" }, "--reward"},
		"shard games":      {func(o *selfplayOptions) { o.shardGames = 0 }, "--shard-games"},
	} {
		o := smallSelfplay(filepath.Join(dir, name))
		c.change(&o)
		err := runSelfplay(context.Background(), o, &bytes.Buffer{})
		require.ErrorContains(t, err, c.want, name)
		require.NotContains(t, err.Error(), "\n", "one-line error")
	}
}

func TestSelfplayFillsSeatsInTurn(t *testing.T) {
	o := smallSelfplay(t.TempDir())
	o.agents, o.players = "valuer,random", 5
	c, err := selfplayConfig(o)
	require.NoError(t, err)
	require.Equal(t, []string{"valuer", "random", "valuer", "random", "valuer"}, c.Agents)
}

func TestSelfplayCommandLine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	dir := filepath.Join(t.TempDir(), "ds")
	code := Main([]string{"selfplay", "--bots", "random,random,random", "--games", "2", "--out", dir, "--format", "parquet", "-q"}, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	stdout.Reset()
	require.Equal(t, 0, Main([]string{"dataset", "stats", dir}, nil, &stdout, &stderr), stderr.String())
	require.Contains(t, stdout.String(), "parquet/snappy")

	stderr.Reset()
	require.Equal(t, 1, Main([]string{"selfplay", "--games", "2", "--out", dir, "--wat"}, nil, &stdout, &stderr))
	require.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
	stderr.Reset()
	require.Equal(t, 1, Main([]string{"dataset", "stats", t.TempDir()}, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "no manifest")

	help := &bytes.Buffer{}
	Main([]string{"selfplay", "--help"}, nil, help, help)
	require.Contains(t, help.String(), "Examples:")
	help.Reset()
	Main([]string{"dataset", "stats", "--help"}, nil, help, help)
	require.Contains(t, help.String(), "Examples:")
}

func TestDatasetCommandsRefuseAnUnknownEncoding(t *testing.T) {
	dir := t.TempDir()
	m := &datasets.Meta{EncodingVersion: "obs-v0-retired", ObsDim: 2, NumActions: 3, Seats: 3, ToolVersion: "old"}
	man := &datasets.Manifest{Version: datasets.ManifestVersion, Format: datasets.Arrow, Games: 0, GamesPerShard: 1, Meta: *m}
	require.NoError(t, datasets.WriteManifest(dir, man))
	var out bytes.Buffer
	err := runDatasetStats(dir, datasetOptions{}, &out)
	require.ErrorIs(t, err, datasets.ErrEncodingVersion)
	require.ErrorContains(t, err, `"obs-v0-retired"`)
	require.ErrorIs(t, runDatasetHead(dir, datasetOptions{rows: 1}, &out), datasets.ErrEncodingVersion)
}

func TestSelfplayRecordPolicyWithAScriptedBotLeavesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	code, stdout, stderr := runMain("selfplay", "--agents", "random", "--games", "2", "--record-policy", "-q", "--out", dir)
	assert.Equal(t, 1, code)
	assert.NotContains(t, stdout+stderr, "--resume", "no advice to resume a run that never started")
	assert.Contains(t, stderr, "random does not")
	_, err := os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist)
	code, _, stderr = runMain("selfplay", "--agents", "random", "--games", "2", "-q", "--out", dir)
	assert.Equal(t, 0, code, stderr)
}

// The shipped network plays under the name "default"; the dataset records which network
// that was, so a later build with a retrained default cannot resume into it unnoticed.
func TestSelfplayRecordsTheDefaultNetworksFingerprint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	code, _, stderr := runMain("selfplay", "--agents", "default,random", "--games", "1", "-q", "--out", dir)
	require.Equal(t, 0, code, stderr)
	m, err := datasets.ReadManifest(dir)
	require.NoError(t, err)
	require.Len(t, m.AgentFiles, 1)
	assert.Equal(t, "default", m.AgentFiles[0].Agent)
	assert.Len(t, m.AgentFiles[0].SHA256, 64)
}

// Rates print with enough digits to read: a slow search field's 0.48 games/s is not "0".
func TestHumanRateKeepsSlowRatesReadable(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 0.004: "0.004", 0.476: "0.48", 3.5: "3.5", 9.99: "10", 382: "382", 12_345: "12.3k", 5_300_000: "5.30M"} {
		assert.Equal(t, want, humanRate(x), "humanRate(%v)", x)
	}
}
