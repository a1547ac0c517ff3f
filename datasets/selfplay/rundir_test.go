package selfplay

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
	"github.com/stretchr/testify/require"
)

// randomFromFile is a stand-in for the training package's loader: any existing file plays
// uniformly at random.
type randomFromFile struct{ rng *rand.Rand }

func (r *randomFromFile) Name() string { return "file" }
func (r *randomFromFile) Act(_ *rules.State, legal []int) int {
	return legal[r.rng.IntN(len(legal))]
}

func init() {
	bots.RegisterFileLoader(func(path string, _ rules.Options, seed uint64) (bots.Bot, error) {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
		return &randomFromFile{rng: rand.New(rand.NewPCG(seed, 2))}, nil
	})
}

func writeUserFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{"train.py": "import torch\n", "draft.tmp": "keep me\n", "steps-00000.arrow.tmp": "mine too\n"}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for n, c := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644))
	}
	return files
}

func requireExactly(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	require.Len(t, names, len(files), "directory holds %v", names)
	for n, c := range files {
		b, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		require.Equal(t, c, string(b), n)
	}
}

func TestFreshRunRefusesADirectoryOfUserFilesAndTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	files := writeUserFiles(t, dir)
	for _, resume := range []bool{false, true} {
		cfg := testConfig(t, dir, 2, 1, datasets.Arrow)
		cfg.Resume = resume
		_, err := Run(context.Background(), cfg)
		require.ErrorIs(t, err, rundir.ErrNotOurs)
		requireExactly(t, dir, files)
	}
}

func TestRecordPolicyWithAScriptedBotIsRefusedBeforeAnythingIsWritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cfg := testConfig(t, dir, 2, 1, datasets.Arrow)
	cfg.RecordPolicy = true
	_, err := Run(context.Background(), cfg)
	require.ErrorContains(t, err, "random does not")
	_, err = os.Stat(dir)
	require.ErrorIs(t, err, os.ErrNotExist, "a refused start leaves no directory")
	// The corrected command then starts normally.
	cfg.RecordPolicy = false
	_, err = Run(context.Background(), cfg)
	require.NoError(t, err)
}

func TestResumeReplaysADeletedShardAndRefusesAnAlteredOne(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir, 6, 1, datasets.Arrow)
	_, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	m, err := datasets.ReadManifest(dir)
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join(dir, m.Shards[1].StepsFile))
	require.NoError(t, err)

	require.NoError(t, os.Remove(filepath.Join(dir, m.Shards[1].StepsFile)))
	cfg.Resume = true
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 3, res.Games, "the deleted shard's games are played again")
	got, err := os.ReadFile(filepath.Join(dir, m.Shards[1].StepsFile))
	require.NoError(t, err)
	require.Equal(t, want, got, "the replayed shard is the same data")

	// A shard altered in place is an error, and the file is left as it is.
	p := filepath.Join(dir, m.Shards[0].GamesFile)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	b[len(b)/2] ^= 1
	require.NoError(t, os.WriteFile(p, b, 0o644))
	_, err = Run(context.Background(), cfg)
	require.ErrorIs(t, err, datasets.ErrCorrupt)
	after, _ := os.ReadFile(p)
	require.Equal(t, b, after)
}

func TestAManifestByteFlipIsDetected(t *testing.T) {
	dir := t.TempDir()
	_, err := Run(context.Background(), testConfig(t, dir, 2, 1, datasets.Arrow))
	require.NoError(t, err)
	p := filepath.Join(dir, datasets.ManifestName)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	s := string(b)
	require.True(t, strings.Contains(s, `"players": 3`))
	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(s, `"players": 3`, `"players": 4`, 1)), 0o644))
	_, err = datasets.ReadManifest(dir)
	require.ErrorIs(t, err, datasets.ErrCorrupt)
	require.ErrorContains(t, err, "checksum mismatch")
	cfg := testConfig(t, dir, 2, 1, datasets.Arrow)
	cfg.Resume = true
	_, err = Run(context.Background(), cfg)
	require.ErrorIs(t, err, datasets.ErrCorrupt)
}

func TestResumeRefusesOtherCompressionAndAReexportedBotFile(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(t.TempDir(), "net.bot")
	require.NoError(t, os.WriteFile(bot, []byte("network one"), 0o644))
	cfg := testConfig(t, dir, 6, 1, datasets.Arrow)
	cfg.Agents = []string{bot, "random", "random"}
	ctx, cancel := context.WithCancel(context.Background())
	played := 0
	cfg.OnGame = func(int) {
		if played++; played == 3 {
			cancel()
		}
	}
	_, err := Run(ctx, cfg)
	require.Error(t, err)
	cfg.OnGame, cfg.Resume = nil, true

	lz4 := cfg
	lz4.Write.Compression = "lz4"
	_, err = Run(context.Background(), lz4)
	require.ErrorIs(t, err, ErrPlanMismatch)
	require.ErrorContains(t, err, "compression zstd, not lz4")

	require.NoError(t, os.WriteFile(bot, []byte("network two"), 0o644))
	_, err = Run(context.Background(), cfg)
	require.ErrorIs(t, err, ErrPlanMismatch)
	require.ErrorContains(t, err, "agent "+bot)

	require.NoError(t, os.WriteFile(bot, []byte("network one"), 0o644))
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.True(t, res.Manifest.Complete())
}

// A start that fails before its first shard in a directory an earlier (abandoned) start
// already marked leaves no manifest either, so the corrected command is not refused.
func TestAFailedStartInAMarkedDirectoryLeavesNoManifest(t *testing.T) {
	dir := t.TempDir()
	d, err := rundir.Open(dir, rundir.Selfplay)
	require.NoError(t, err)
	d.Close()
	cfg := testConfig(t, dir, 2, 1, datasets.Arrow)
	cfg.Agents = []string{"random", "random", "broken-bot"}
	_, err = Run(context.Background(), cfg)
	require.Error(t, err)
	_, err = os.Stat(filepath.Join(dir, datasets.ManifestName))
	require.ErrorIs(t, err, os.ErrNotExist)
	cfg.Agents = []string{"random", "random", "random"}
	_, err = Run(context.Background(), cfg)
	require.NoError(t, err)
}

// brokenBot plays an illegal action: the run fails in its first game.
type brokenBot struct{}

func (brokenBot) Name() string                    { return "broken-bot" }
func (brokenBot) Act(_ *rules.State, _ []int) int { return -1 }

func init() {
	if err := bots.Register("broken-bot", "plays an illegal action (selfplay tests)", func(rules.Options, uint64) (bots.Bot, error) {
		return brokenBot{}, nil
	}); err != nil {
		panic(err)
	}
}

// A resume of a dataset with a gap (shards 0 and 2 written, shard 1 missing) writes exactly
// shard 1: its two games are played, the other shards' files are left alone, and the result
// equals an uninterrupted run.
func TestResumeWithAGapWritesExactlyTheMissingShard(t *testing.T) {
	small := func(out string) Config {
		c := testConfig(t, out, 6, 1, datasets.Arrow)
		c.GamesPerShard = 2
		c.Env.Rules.TurnLimit = 12
		return c
	}
	full := t.TempDir()
	_, err := Run(context.Background(), small(full))
	require.NoError(t, err)

	dir := t.TempDir()
	cfg := small(dir)
	_, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	m, err := datasets.ReadManifest(dir)
	require.NoError(t, err)
	require.Len(t, m.Shards, 3)
	gap := m.Shards[1]
	require.Equal(t, 1, gap.Index)
	require.NoError(t, os.Remove(filepath.Join(dir, gap.StepsFile)))
	require.NoError(t, os.Remove(filepath.Join(dir, gap.GamesFile)))
	m.Shards = []datasets.ShardInfo{m.Shards[0], m.Shards[2]}
	require.NoError(t, datasets.WriteManifest(dir, m))
	kept := map[string]os.FileInfo{}
	for _, s := range m.Shards {
		for _, f := range []string{s.StepsFile, s.GamesFile} {
			fi, err := os.Stat(filepath.Join(dir, f))
			require.NoError(t, err)
			kept[f] = fi
		}
	}

	cfg.Resume = true
	played := 0
	cfg.OnGame = func(int) { played++ }
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 2, res.Games, "exactly the missing shard's games are played")
	require.Equal(t, 2, played)
	require.True(t, res.Manifest.Complete())
	require.True(t, res.Manifest.HasShard(1))
	for f, before := range kept {
		after, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err)
		require.Equal(t, before.ModTime(), after.ModTime(), "%s was rewritten", f)
		require.Equal(t, before.Size(), after.Size(), "%s was rewritten", f)
	}
	g1, s1 := content(t, full)
	g2, s2 := content(t, dir)
	require.Equal(t, g1, g2)
	require.Equal(t, len(s1), len(s2))
	for i := range s1 {
		require.Equal(t, s1[i], s2[i], "step row %d", i)
	}
}
