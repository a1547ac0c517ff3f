package training

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/encoding"
)

// writeStreamDataset writes a dataset of games games in shards of perShard games and record
// batches (row groups) of 5 steps. Game g has 2+g%5 steps; step k's observation is (tag, g,
// k), so every row says where it came from; its decider is k%3, its legal actions {0,
// 1+k%4} and its action the second; every seat's return is distinct.
func writeStreamDataset(t *testing.T, dir string, format datasets.Format, games, perShard int, tag float32) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	meta := datasets.Meta{EncodingVersion: encoding.Version, ObsDim: 3, NumActions: 5, Seats: 3,
		ActionNames: []string{"a", "b", "c", "d", "e"}, PhaseNames: []string{"turn"}, RulesOptions: []byte(`{"players":3}`)}
	m := &datasets.Manifest{Version: 1, Format: format, Games: games, GamesPerShard: perShard, Agents: []string{"x", "y", "z"}, Meta: meta}
	for shard := 0; shard*perShard < games; shard++ {
		first := shard * perShard
		w, err := datasets.NewShardWriter(dir, shard, uint64(first), &meta, datasets.WriteOptions{Format: format, BatchRows: 5})
		if err != nil {
			t.Fatal(err)
		}
		for g := first; g < min(first+perShard, games); g++ {
			n := 2 + g%5
			var steps []datasets.Step
			for k := range n {
				steps = append(steps, datasets.Step{GameID: uint64(g), Step: int32(k), Decider: int8(k % 3),
					Obs: []float32{tag, float32(g), float32(k)}, Legal: []int{0, 1 + k%4}, Action: int32(1 + k%4),
					Returns: []float32{1, 0, -1}, Done: k == n-1})
			}
			gm := datasets.Game{GameID: uint64(g), Agents: m.Agents, Scores: make([]datasets.Score, 3), Winners: []int8{0},
				Length: int32(n), Turns: 1, EndReason: "two-colours"}
			if err := w.WriteGame(&gm, steps); err != nil {
				t.Fatal(err)
			}
		}
		info, err := w.Close()
		if err != nil {
			t.Fatal(err)
		}
		m.AddShard(info)
	}
	if err := datasets.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	return dir
}

// rowKey names a row by its observation (dataset tag, game, step).
type rowKey [3]float32

func batchKeys(b *Batch, D int) []rowKey {
	out := make([]rowKey, b.Rows)
	for r := range out {
		copy(out[r][:], b.Obs[r*D:r*D+3])
	}
	return out
}

func sampleKeys(s *Samples, idx []int) []rowKey {
	out := make([]rowKey, len(idx))
	for k, i := range idx {
		copy(out[k][:], s.Obs[i*s.ObsDim:i*s.ObsDim+3])
	}
	return out
}

func sortKeys(k []rowKey) []rowKey {
	k = slices.Clone(k)
	slices.SortFunc(k, func(a, b rowKey) int { return slices.Compare(a[:], b[:]) })
	return k
}

// takeRows reads n rows from s in batches of batch and returns their keys in order.
func takeRows(t *testing.T, s *Stream, n, batch int) []rowKey {
	t.Helper()
	var b Batch
	var out []rowKey
	for len(out) < n {
		if err := s.Next(&b, min(batch, n-len(out))); err != nil {
			t.Fatal(err)
		}
		out = append(out, batchKeys(&b, s.Header.ObsDim)...)
	}
	return out
}

func twoStreamDatasets(t *testing.T) []string {
	root := t.TempDir()
	return []string{
		writeStreamDataset(t, filepath.Join(root, "a"), datasets.Parquet, 40, 16, 1),
		writeStreamDataset(t, filepath.Join(root, "b"), datasets.Arrow, 25, 10, 2),
	}
}

// A streamed epoch serves exactly the training rows of the in-memory split (same game-id
// hash, datasets' games kept apart) once each, and the validation rows are the in-memory
// run's: the first ValRows rows of held-out games in data order.
func TestStreamSplitEqualsTheInMemorySplit(t *testing.T) {
	dirs := twoStreamDatasets(t)
	mem, err := LoadSamplesFrom(dirs)
	if err != nil {
		t.Fatal(err)
	}
	train, val := mem.Split(20)
	if len(val) < 10 {
		t.Fatalf("only %d validation rows; the test needs more", len(val))
	}
	s, err := OpenStream(dirs, StreamOptions{Buffer: 13, ValPercent: 20, ValRows: 10, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Header.Source != mem.Source || s.Decisions != int64(mem.Len()) || s.Shards != 6 {
		t.Fatalf("stream of %q, %d decisions, %d shards; in memory %q, %d", s.Header.Source, s.Decisions, s.Shards, mem.Source, mem.Len())
	}
	got := takeRows(t, s, len(train), 7)
	if !slices.Equal(sortKeys(got), sortKeys(sampleKeys(mem, train))) {
		t.Fatalf("epoch 0 served %d rows that are not the %d training rows of the in-memory split", len(got), len(train))
	}
	if p := s.Position(); p.Epoch != 0 {
		t.Fatalf("after one epoch's rows the stream is at %+v", p)
	}
	vi := make([]int, s.Val.Len())
	for i := range vi {
		vi[i] = i
	}
	if !slices.Equal(sampleKeys(s.Val, vi), sampleKeys(mem, val[:10])) || !slices.Equal(s.Val.Games, []uint64{mem.Games[val[0]], mem.Games[val[1]], mem.Games[val[2]], mem.Games[val[3]], mem.Games[val[4]], mem.Games[val[5]], mem.Games[val[6]], mem.Games[val[7]], mem.Games[val[8]], mem.Games[val[9]]}) {
		t.Fatal("validation rows differ from the in-memory run's")
	}
	// Game 3 of the second dataset is not game 3 of the first: one load holds every row.
	whole, err := OpenStream(dirs, StreamOptions{Buffer: 10000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	var b Batch
	if err := whole.Next(&b, 1); err != nil {
		t.Fatal(err)
	}
	if whole.win.Len() != mem.Len() {
		t.Fatalf("one load of %d rows, want %d", whole.win.Len(), mem.Len())
	}
	for i, g := range whole.win.Games {
		tag := whole.win.Obs[i*3]
		if (tag == 2) != (g>>40 == 1) || float32(g&(1<<40-1)) != whole.win.Obs[i*3+1] {
			t.Fatalf("row of dataset tag %v, game %v has game id %#x", tag, whole.win.Obs[i*3+1], g)
		}
	}
	// Rows the batch carries are the stored ones: mask, action, rotated returns.
	mem1, _ := LoadSamplesFrom(dirs[:1])
	s1, err := OpenStream(dirs[:1], StreamOptions{Buffer: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	if err := s1.Next(&b, mem1.Len()); err != nil {
		t.Fatal(err)
	}
	var want Batch
	all := make([]int, mem1.Len())
	for i := range all {
		all[i] = i
	}
	mem1.fill(&want, all)
	byKey := map[rowKey]int{}
	for r, k := range batchKeys(&want, 3) {
		byKey[k] = r
	}
	for r, k := range batchKeys(&b, 3) {
		w := byKey[k]
		if b.Actions[r] != want.Actions[w] || !slices.Equal(b.Mask[r*5:r*5+5], want.Mask[w*5:w*5+5]) || !slices.Equal(b.Values[r*3:r*3+3], want.Values[w*3:w*3+3]) {
			t.Fatalf("row %v: action %d mask %v values %v, in memory %d %v %v", k, b.Actions[r], b.Mask[r*5:r*5+5], b.Values[r*3:r*3+3],
				want.Actions[w], want.Mask[w*5:w*5+5], want.Values[w*3:w*3+3])
		}
	}
}

// The same seed gives the same batches, epoch after epoch; another seed another order; each
// epoch serves every training row once, in an order of its own.
func TestStreamShuffleIsReproducibleFromTheSeed(t *testing.T) {
	dirs := twoStreamDatasets(t)
	open := func(seed uint64) *Stream {
		s, err := OpenStream(dirs, StreamOptions{Buffer: 17, ValPercent: 10, ValRows: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	mem, _ := LoadSamplesFrom(dirs)
	train, _ := mem.Split(10)
	n := len(train)
	a, b, c := takeRows(t, open(5), 3*n, 9), takeRows(t, open(5), 3*n, 4), takeRows(t, open(6), 3*n, 9)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed gave other rows (batch sizes 9 and 4)")
	}
	if slices.Equal(a[:n], c[:n]) {
		t.Fatal("seeds 5 and 6 gave the same order")
	}
	want := sortKeys(sampleKeys(mem, train))
	for e := range 3 {
		if !slices.Equal(sortKeys(a[e*n:(e+1)*n]), want) {
			t.Fatalf("epoch %d did not serve every training row once", e)
		}
	}
	if slices.Equal(a[:n], a[n:2*n]) {
		t.Fatal("epochs 0 and 1 came in the same order")
	}
}

// A stream restored from a state taken after any number of rows serves the rows an
// uninterrupted stream serves next: mid-load, at a load boundary, mid-epoch and after one.
func TestStreamResumeMidEpochYieldsTheSameBatches(t *testing.T) {
	dirs := twoStreamDatasets(t)
	opts := StreamOptions{Buffer: 11, ValPercent: 10, ValRows: 4, Seed: 9}
	open := func() *Stream {
		s, err := OpenStream(dirs, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	whole := takeRows(t, open(), 600, 6)
	for _, at := range []int{6, 66, 11 * 6, 300, 594} {
		s := open()
		takeRows(t, s, at, 6)
		st := s.State()
		r := open()
		if err := r.Restore(st); err != nil {
			t.Fatal(err)
		}
		if got := takeRows(t, r, 600-at, 6); !slices.Equal(got, whole[at:]) {
			t.Fatalf("restored after %d rows (%+v): other rows follow", at, st.Position)
		}
	}
}

// The buffer never holds more than Buffer rows, also when a record batch is larger than it
// (it is then split across loads), and its memory does not grow with the data.
func TestStreamBufferBoundsTheRowsHeld(t *testing.T) {
	dir := writeStreamDataset(t, filepath.Join(t.TempDir(), "a"), datasets.Parquet, 120, 30, 1)
	for _, buf := range []int{1, 3, 8, 50} {
		s, err := OpenStream([]string{dir}, StreamOptions{Buffer: buf, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rows := takeRows(t, s, int(s.Decisions)*2, 16)
		if s.maxWindow > buf || cap(s.win.Actions) > buf || cap(s.win.Obs) > buf*3 {
			t.Fatalf("buffer %d held %d rows (capacity %d)", buf, s.maxWindow, cap(s.win.Actions))
		}
		if s.maxWindow != buf {
			t.Fatalf("buffer %d: loads of at most %d rows", buf, s.maxWindow)
		}
		n := int(s.Decisions)
		if !slices.Equal(sortKeys(rows[:n]), sortKeys(rows[n:])) || len(slices.Compact(sortKeys(rows[:n]))) != n {
			t.Fatalf("buffer %d: an epoch did not serve every row once", buf)
		}
		s.Close()
	}
}

// A shard deleted or changed after the stream opened stops it with one line naming the
// file; the position stays before the failed batch. A state of other shards is refused
// naming the shard, and opening data whose shard no longer matches its manifest names it.
func TestStreamChangedOrDeletedShardIsOneLineNamingIt(t *testing.T) {
	for _, change := range []string{"deleted", "modified"} {
		t.Run(change, func(t *testing.T) {
			dir := writeStreamDataset(t, filepath.Join(t.TempDir(), "a"), datasets.Parquet, 40, 10, 1)
			s, err := OpenStream([]string{dir}, StreamOptions{Buffer: 7, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			victim := filepath.Join(dir, s.shards[2].info.StepsFile)
			if change == "deleted" {
				err = os.Remove(victim)
			} else {
				err = os.WriteFile(victim, []byte("overwritten"), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			var b Batch
			for range 1000 {
				before := s.Position()
				if err = s.Next(&b, 5); err != nil {
					if s.Position() != before {
						t.Fatalf("the failed batch moved the stream from %+v to %+v", before, s.Position())
					}
					break
				}
			}
			if !errors.Is(err, ErrDataChanged) || !strings.Contains(err.Error(), victim) || !strings.Contains(err.Error(), change) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line naming %s as %s", err, victim, change)
			}
			if _, err := OpenStream([]string{dir}, StreamOptions{Buffer: 7}); !errors.Is(err, ErrDataChanged) || !strings.Contains(err.Error(), victim) {
				t.Fatalf("opening the changed data: %v, want ErrDataChanged naming %s", err, victim)
			}
		})
	}
	// A checkpointed state of other data.
	root := t.TempDir()
	a := writeStreamDataset(t, filepath.Join(root, "a"), datasets.Parquet, 40, 10, 1)
	b := writeStreamDataset(t, filepath.Join(root, "b"), datasets.Parquet, 40, 10, 2) // other contents, same names
	sa, err := OpenStream([]string{a}, StreamOptions{Buffer: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer sa.Close()
	sb, err := OpenStream([]string{b}, StreamOptions{Buffer: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if err := sb.Restore(sa.State()); !errors.Is(err, ErrDataChanged) || !strings.Contains(err.Error(), "shard 0 of dataset "+b) {
		t.Fatalf("restoring a state of other data: %v", err)
	}
	fewer := sa.State()
	fewer.Shards = fewer.Shards[:3]
	if err := sa.Restore(fewer); !errors.Is(err, ErrDataChanged) || !strings.Contains(err.Error(), "shard 3") {
		t.Fatalf("restoring a state with a shard fewer: %v", err)
	}
}

// Several datasets combine only when they share the encoding, sizes and rules options.
func TestStreamRefusesDatasetsOfOtherGames(t *testing.T) {
	a := writeStreamDataset(t, filepath.Join(t.TempDir(), "a"), datasets.Parquet, 4, 4, 1)
	c := writeToyDataset(t, 5, `{"players":4}`)
	if _, err := OpenStream([]string{a, c}, StreamOptions{Buffer: 4}); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("3-player and 4-player data: %v", err)
	}
	if _, err := OpenStream(nil, StreamOptions{Buffer: 4}); !errors.Is(err, ErrConfig) {
		t.Fatalf("no data: %v", err)
	}
	if _, err := OpenStream([]string{a}, StreamOptions{Buffer: 0}); !errors.Is(err, ErrConfig) {
		t.Fatalf("buffer 0: %v", err)
	}
}

func streamBCOptions(out string, steps int64) BCOptions {
	o := tinyBCOptions(steps, 8, 5, 10, NetConfig{Width: 8, Depth: 1, Norm: NormLayer})
	o.Out, o.ValPercent, o.ValRows = out, 20, 16
	return o
}

func openTestStream(t *testing.T, dirs []string, o BCOptions) *Stream {
	t.Helper()
	s, err := OpenStream(dirs, StreamOptions{Buffer: 23, ValPercent: o.ValPercent, ValRows: o.ValRows, Seed: o.Seed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// A streamed run killed mid-interval resumes from its checkpoint to the network, metrics and
// stream position of an uninterrupted run.
func TestBCStreamResumeAfterKillMatchesUninterruptedRun(t *testing.T) {
	dirs := twoStreamDatasets(t)
	straight := streamBCOptions(t.TempDir(), 40)
	want, err := TrainBCStream(context.Background(), openTestStream(t, dirs, straight), straight)
	if err != nil {
		t.Fatal(err)
	}
	killed := streamBCOptions(t.TempDir(), 40)
	killed.stopAfter = 27
	if _, err := TrainBCStream(context.Background(), openTestStream(t, dirs, killed), killed); !errors.Is(err, errKilled) {
		t.Fatalf("kill: %v", err)
	}
	killed.stopAfter = 0
	got, err := TrainBCStream(context.Background(), openTestStream(t, dirs, killed), killed)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Resumed || len(got.Metrics) != len(want.Metrics) {
		t.Fatalf("resumed %v with %d rows, want %d", got.Resumed, len(got.Metrics), len(want.Metrics))
	}
	for i := range want.Metrics {
		for c, name := range BCMetricNames {
			if name != "seconds" && name != "samples_per_s" && got.Metrics[i][c] != want.Metrics[i][c] {
				t.Fatalf("row %d %s: resumed %v, uninterrupted %v", i, name, got.Metrics[i][c], want.Metrics[i][c])
			}
		}
	}
	requireSameWeights(t, straight.Out, killed.Out)
	// The same run directory on data whose shard changed is refused in one line.
	other := twoStreamDatasets(t)
	writeStreamDataset(t, other[0], datasets.Parquet, 40, 16, 7)
	more := streamBCOptions(killed.Out, 50)
	_, err = TrainBCStream(context.Background(), openTestStream(t, []string{other[0], dirs[1]}, more), more)
	if !errors.Is(err, ErrDataChanged) || !strings.Contains(err.Error(), "shard 0 of dataset "+other[0]) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("resume on changed data: %v", err)
	}
}

// A shard deleted while the run streams ends it with one line naming the shard after a
// checkpoint of the last step trained; with the shard back, the same call finishes the run
// as if nothing had happened.
func TestBCStreamShardDeletedMidRunCheckpointsAndResumes(t *testing.T) {
	dirs := twoStreamDatasets(t)
	straight := streamBCOptions(t.TempDir(), 60)
	if _, err := TrainBCStream(context.Background(), openTestStream(t, dirs, straight), straight); err != nil {
		t.Fatal(err)
	}
	o := streamBCOptions(t.TempDir(), 60)
	s := openTestStream(t, dirs, o)
	victim := filepath.Join(dirs[1], s.shards[4].info.StepsFile)
	saved, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	s.beforeLoad = func(n int) {
		if n == 3 { // after some steps
			if err := os.Remove(victim); err != nil {
				t.Error(err)
			}
		}
	}
	res, err := TrainBCStream(context.Background(), s, o)
	if !errors.Is(err, ErrDataChanged) || !strings.Contains(err.Error(), victim) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("deleted shard: %v", err)
	}
	if res.Steps == 0 || !strings.Contains(err.Error(), fmt.Sprintf("checkpoint of step %d written", res.Steps)) {
		t.Fatalf("stopped at step %d: %v", res.Steps, err)
	}
	if _, info, err := WeightsFromRun(o.Out); err != nil || info.Step != res.Steps {
		t.Fatalf("checkpoint: %v, step %d, want %d", err, info.Step, res.Steps)
	}
	if err := os.WriteFile(victim, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := TrainBCStream(context.Background(), openTestStream(t, dirs, o), o)
	if err != nil || !got.Resumed || got.Steps != 60 {
		t.Fatalf("resume: %v, %+v", err, got)
	}
	requireSameWeights(t, straight.Out, o.Out)
}
