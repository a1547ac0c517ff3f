package datasets

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// The default compression is per format: zstd for Arrow, snappy for Parquet.
func TestDefaultCompressionIsZstdForArrowAndSnappyForParquet(t *testing.T) {
	for f, want := range map[Format]Compression{Arrow: "zstd", Parquet: "snappy"} {
		o, err := CheckWriteOptions(WriteOptions{Format: f})
		require.NoError(t, err)
		require.Equal(t, want, o.Compression, f)
	}
}

// WriteGame refuses a winner seat equal to the number of seats and a legal action id equal
// to the number of actions (the first values past the end).
func TestWriteGameRefusesTheFirstSeatAndActionPastTheEnd(t *testing.T) {
	m := testMeta(false, false)
	for _, damage := range []string{"winner", "legal"} {
		w, err := NewShardWriter(t.TempDir(), 0, 0, m, WriteOptions{Format: Arrow})
		require.NoError(t, err)
		g, steps := fakeGame(m, 0, rand.New(rand.NewPCG(1, 2)))
		if damage == "winner" {
			g.Winners = []int8{int8(m.Seats)}
		} else {
			steps[0].Legal = append(steps[0].Legal, m.NumActions)
		}
		require.ErrorIs(t, w.WriteGame(g, steps), ErrInvalid, damage)
		w.Abort()
	}
}

// A shard written onto a full disk (its temporary files lead to /dev/full, which fails every
// write with ENOSPC) fails with one error naming the disk-full write once, not one line per
// file.
func TestShardOnAFullDiskIsOneError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	for _, f := range []Format{Arrow, Parquet} {
		t.Run(string(f), func(t *testing.T) {
			dir := t.TempDir()
			steps, games := ShardFileNames(0, f)
			for _, name := range []string{steps, games} {
				require.NoError(t, os.Symlink("/dev/full", filepath.Join(dir, name+tmpSuffix)))
			}
			m := testMeta(false, false)
			w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: f})
			require.NoError(t, err)
			g, st := fakeGame(m, 0, newTestRand())
			werr := w.WriteGame(g, st)
			_, err = w.Close()
			if werr != nil {
				err = werr
			}
			require.ErrorIs(t, err, syscall.ENOSPC)
			require.NotContains(t, err.Error(), "\n")
			require.Equal(t, 1, strings.Count(err.Error(), "no space left on device"), err.Error())
		})
	}
}

func TestWriterRejectsMisshapenGamesWithoutWritingThem(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	m := testMeta(true, false)
	dir := t.TempDir()
	w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Allocator: mem})
	require.NoError(t, err)
	rng := newTestRand()
	g, steps := fakeGame(m, 0, rng)
	for name, breakIt := range map[string]func(g *Game, s []Step){
		"short observation": func(g *Game, s []Step) { s[0].Obs = s[0].Obs[:3] },
		"action range":      func(g *Game, s []Step) { s[0].Action = int32(m.NumActions) },
		"legal range":       func(g *Game, s []Step) { s[0].Legal = []int{-1} },
		"returns width":     func(g *Game, s []Step) { s[0].Returns = nil },
		"policy width":      func(g *Game, s []Step) { s[0].Policy = nil },
		"decider":           func(g *Game, s []Step) { s[0].Decider = 7 },
		"game id":           func(g *Game, s []Step) { s[0].GameID = 99 },
		"length":            func(g *Game, s []Step) { g.Length++ },
		"agents":            func(g *Game, s []Step) { g.Agents = g.Agents[:1] },
		"winner":            func(g *Game, s []Step) { g.Winners = []int8{5} },
	} {
		gc := *g
		sc := append([]Step{}, steps...)
		breakIt(&gc, sc)
		err := w.WriteGame(&gc, sc)
		require.ErrorIs(t, err, ErrInvalid, name)
	}
	require.NoError(t, w.WriteGame(g, steps))
	info, err := w.Close()
	require.NoError(t, err)
	require.Equal(t, 1, info.Games)
	require.Equal(t, int64(len(steps)), info.Steps)

	_, err = NewShardWriter(dir, 1, 0, m, WriteOptions{Format: "csv"})
	require.ErrorIs(t, err, ErrInvalid)
	_, err = NewShardWriter(dir, 1, 0, m, WriteOptions{Format: Arrow, Compression: "snappy"})
	require.ErrorIs(t, err, ErrInvalid)
}

func TestAbortLeavesNoFiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, f := range []Format{Arrow, Parquet} {
		dir := t.TempDir()
		m := testMeta(false, false)
		w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: f, Allocator: mem, BatchRows: 4})
		require.NoError(t, err)
		g, steps := fakeGame(m, 0, newTestRand())
		require.NoError(t, w.WriteGame(g, steps))
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			require.Contains(t, e.Name(), tmpSuffix, "only temporary names while writing")
		}
		w.Abort()
		ents, _ = os.ReadDir(dir)
		require.Empty(t, ents)
	}
}
