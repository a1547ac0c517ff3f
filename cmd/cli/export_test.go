package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/rundir"
	"github.com/container-rl/container/training"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// export --upgrade turns an obs-v1 / actions-v1 bot (testdata/tiny-obs-v1.bot, refused as it
// is) into one this build plays, recording where it came from; bad uses are one-line errors
// that write nothing.
func TestExportUpgradeMakesAnOldBotPlayable(t *testing.T) {
	old := filepath.Join("testdata", "tiny-obs-v1.bot")
	_, err := bots.New(old, rules.DefaultOptions(), 1)
	require.False(t, err == nil || !strings.Contains(err.Error(), "--upgrade"), "the old file loads or its error does not say how to upgrade: %v", err)
	dir := t.TempDir()
	out := filepath.Join(dir, "new.bot")
	var buf bytes.Buffer
	require.NoError(t, runExport(exportOptions{upgrade: old, out: out}, &buf))
	require.False(t, !strings.Contains(buf.String(), "upgraded from") || !strings.Contains(buf.String(), "encoding "+encoding.Version), "output %q", buf.String())
	b, err := bots.New(out, rules.DefaultOptions(), 1)
	require.NoError(t, err)
	nb, ok := b.(*training.NetBot)
	if !ok || !strings.Contains(nb.File().Header.Training.Notes, "Upgraded from tiny-obs-v1.bot (obs-v1, actions-v1") ||
		nb.File().Header.Actions.Version != rules.ActionLayoutVersion {
		require.Fail(t, fmt.Sprintf("upgraded file: %T %+v", b, nb.File().Header))
	}
	for name, o := range map[string]exportOptions{
		"run and upgrade":  {upgrade: old, run: "x", out: filepath.Join(dir, "a.bot")},
		"no out":           {upgrade: old},
		"out not .bot":     {upgrade: old, out: filepath.Join(dir, "a.txt")},
		"missing":          {upgrade: filepath.Join(dir, "none.bot"), out: filepath.Join(dir, "b.bot")},
		"a directory":      {upgrade: dir, out: filepath.Join(dir, "c.bot")},
		"already upgraded": {upgrade: out, out: filepath.Join(dir, "d.bot")},
		"onto itself":      {upgrade: out, out: out},
	} {
		err := runExport(o, &bytes.Buffer{})
		assert.False(t, err == nil || strings.Contains(err.Error(), "\n"), "%s: %v", name, err)
		assert.False(t, name == "already upgraded" && !errors.Is(err, training.ErrUpgrade), "%s: %v", name, err)
	}
	for _, n := range []string{"a.bot", "a.txt", "b.bot", "c.bot", "d.bot"} {
		_, err := os.Stat(filepath.Join(dir, n))
		assert.Error(t, err, "%s was written", n)
	}
}

func TestExportReplacesOnlyBotFilesUnlessForced(t *testing.T) {
	run := t.TempDir()
	o := trainBCOptions{netFlags: netFlags{width: 8, depth: 1, norm: "layer", lr: 1e-3, valueCoef: 0.5, seed: 1},
		teachers: "random", games: 1, out: run, steps: 2, batch: 8, logEvery: 2, checkpointEvery: 2, buffer: 1000}
	require.NoError(t, runTrainBC(context.Background(), o, io.Discard))
	out := filepath.Join(t.TempDir(), "x.bot")
	require.NoError(t, os.WriteFile(out, []byte("user notes"), 0o644))
	err := runExport(exportOptions{run: run, out: out}, io.Discard)
	require.ErrorIs(t, err, rundir.ErrExists)
	b, _ := os.ReadFile(out)
	require.Equal(t, "user notes", string(b))
	require.NoError(t, runExport(exportOptions{run: run, out: out, force: true}, io.Discard))
	require.NoError(t, runExport(exportOptions{run: run, out: out}, io.Discard), "an existing bot file is replaced")
}
