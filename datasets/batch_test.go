package datasets

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func flatten(ss [][]Step) []Step {
	var out []Step
	for _, s := range ss {
		out = append(out, s...)
	}
	return out
}

// checkRow asserts batch row r holds step s.
func checkRow(t *testing.T, m *Meta, b *Batch, r int, s *Step) {
	t.Helper()
	D, A, P := m.ObsDim, m.NumActions, m.Seats
	require.Equal(t, s.Obs, b.Obs[r*D:(r+1)*D])
	mask := make([]bool, A)
	for _, a := range s.Legal {
		mask[a] = true
	}
	require.Equal(t, mask, b.Mask[r*A:(r+1)*A])
	require.Equal(t, s.Action, b.Actions[r])
	require.Equal(t, s.Returns, b.Returns[r*P:(r+1)*P])
	require.Equal(t, s.Reward, b.Rewards[r])
	require.Equal(t, int32(s.Decider), b.Deciders[r])
	require.Equal(t, int32(s.Phase), b.Phases[r])
	require.Equal(t, s.Done, b.Done[r])
	require.Equal(t, s.GameID, b.GameIDs[r])
	require.Equal(t, s.Step, b.Steps[r])
	if m.Policy {
		require.Equal(t, s.Policy, b.Policy[r*A:(r+1)*A])
	}
	if m.Value {
		require.Equal(t, s.Value, b.Values[r])
	}
}

func TestBatchesStreamEveryStepInOrderAcrossShards(t *testing.T) {
	for _, f := range []Format{Arrow, Parquet} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		dir := t.TempDir()
		m := testMeta(true, true)
		_, ss := writeFake(t, dir, m, WriteOptions{Format: f, BatchRows: 7, Allocator: mem}, 9, 4)
		want := flatten(ss)
		ds, err := Open(dir, WithAllocator(mem), AcceptEncodings(testEncoding))
		require.NoError(t, err)
		n := 0
		for b, err := range ds.Batches(10) {
			require.NoError(t, err)
			require.LessOrEqual(t, b.Size, 10)
			require.Len(t, b.Obs, b.Size*m.ObsDim)
			for r := 0; r < b.Size; r++ {
				checkRow(t, m, b, r, &want[n])
				n++
			}
		}
		require.Equal(t, len(want), n)
		mem.AssertSize(t, 0)
	}
}

func TestReplaySampleAndSliceReturnStoredRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	m := testMeta(true, true)
	_, ss := writeFake(t, dir, m, WriteOptions{Format: Parquet, BatchRows: 7, Allocator: mem}, 9, 4)
	want := flatten(ss)
	ds, err := Open(dir, WithAllocator(mem), AcceptEncodings(testEncoding))
	require.NoError(t, err)
	rp, err := ds.Load()
	require.NoError(t, err)
	require.Equal(t, len(want), rp.Len())

	index := map[[2]uint64]int{}
	for i, s := range want {
		index[[2]uint64{s.GameID, uint64(s.Step)}] = i
	}
	var b Batch
	rng := rand.New(rand.NewPCG(5, 6))
	seen := map[int]bool{}
	for k := 0; k < 20; k++ {
		require.NoError(t, rp.Sample(rng, 16, &b))
		require.Equal(t, 16, b.Size)
		for r := 0; r < b.Size; r++ {
			i, ok := index[[2]uint64{b.GameIDs[r], uint64(b.Steps[r])}]
			require.True(t, ok)
			checkRow(t, m, &b, r, &want[i])
			seen[int(b.GameIDs[r])] = true
		}
	}
	require.Greater(t, len(seen), 5, "samples come from many games across shards")

	require.NoError(t, rp.Slice(len(want)-3, 10, &b))
	require.Equal(t, 3, b.Size)
	for r := 0; r < 3; r++ {
		checkRow(t, m, &b, r, &want[len(want)-3+r])
	}
	require.ErrorIs(t, rp.Slice(len(want), 1, &b), ErrInvalid)
	dr := b.DeciderReturns(nil)
	for r := 0; r < b.Size; r++ {
		require.Equal(t, b.Returns[r*m.Seats+int(b.Deciders[r])], dr[r])
	}
}

func TestReturnsToGoSumsFutureRewardsPerSeat(t *testing.T) {
	rewards := []float32{
		0, 1, // step 0: seat 0, seat 1
		2, 0,
		0, -1,
	}
	ret := make([]float32, len(rewards))
	ReturnsToGo(rewards, 2, ret)
	require.Equal(t, []float32{2, 0, 2, -1, 0, -1}, ret)
}

func TestStatsCountGamesStepsWinsAndProducedPrices(t *testing.T) {
	for _, f := range []Format{Arrow, Parquet} {
		t.Run(string(f), func(t *testing.T) { testStats(t, f) })
	}
}

// testStats checks the counters on one hand-made game (Parquet reads only the scanned columns).
func testStats(t *testing.T, f Format) {
	dir := t.TempDir()
	m := testMeta(false, false)
	m.PhaseNames = []string{"turn", "place", "produce-colour"}
	m.ActionNames[3] = "produce"
	m.ActionNames[4] = "place:$2"
	m.ActionNames[5] = "place:$3"
	w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: f})
	require.NoError(t, err)
	g, steps := fakeGame(m, 0, newTestRand())
	steps = steps[:0]
	seq := []struct {
		phase  uint8
		action int32
	}{{0, 3}, {2, 7}, {1, 4}, {1, 5}, {1, 5}, {0, 1}, {1, 4}, {0, 3}, {1, 5}}
	for i, x := range seq {
		steps = append(steps, Step{GameID: 0, Step: int32(i), Phase: x.phase, Action: x.action,
			Obs: make([]float32, m.ObsDim), Returns: make([]float32, m.Seats), Legal: []int{int(x.action)}})
	}
	g.Winners = []int8{1, 2}
	st := statsOfOneGame(t, dir, f, m, w, g, steps)
	require.Equal(t, 1, st.Games)
	require.Equal(t, int64(len(seq)), st.Steps)
	require.Equal(t, []int{0, 1, 1}, st.WinsBySeat)
	// agent0 sits in seats 0 and 2, agent1 in seat 1.
	require.Equal(t, 2, st.ByAgent["agent0"].Seats)
	require.Equal(t, 1, st.ByAgent["agent0"].Wins)
	require.Equal(t, 1, st.ByAgent["agent1"].Wins)
	// place $2 once and $3 twice right after the first produce, $3 once after the second;
	// the place:$2 that follows action a1 is not part of a production.
	require.Equal(t, map[int]int64{2: 1, 3: 3}, st.ProducedPrices)
	require.Equal(t, int64(2), st.ActionsByPhase["turn"]["produce"])
	require.Equal(t, int64(3), st.ActionsByPhase["place"]["place:$3"])
	require.Nil(t, st.Policy, "no policy column, no policy summary")
}

func TestSamplerDrawsStoredRowsFromEveryShardWithBoundedMemory(t *testing.T) {
	for _, f := range []Format{Arrow, Parquet} {
		t.Run(string(f), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			dir := t.TempDir()
			m := testMeta(true, true)
			_, ss := writeFake(t, dir, m, WriteOptions{Format: f, BatchRows: 8, Allocator: mem}, 12, 3)
			want := flatten(ss)
			index := map[[2]uint64]int{}
			for i, s := range want {
				index[[2]uint64{s.GameID, uint64(s.Step)}] = i
			}
			ds, err := Open(dir, WithAllocator(mem), AcceptEncodings(testEncoding))
			require.NoError(t, err)
			sp, err := ds.NewSampler(rand.New(rand.NewPCG(8, 9)), 4, 2)
			require.NoError(t, err)
			var b Batch
			shards := map[uint64]bool{}
			seen := map[int]bool{}
			for k := 0; k < 60; k++ {
				require.NoError(t, sp.Sample(16, &b))
				for r := 0; r < b.Size; r++ {
					i, ok := index[[2]uint64{b.GameIDs[r], uint64(b.Steps[r])}]
					require.True(t, ok)
					checkRow(t, m, &b, r, &want[i])
					shards[b.GameIDs[r]/3] = true
					seen[i] = true
				}
			}
			require.Len(t, shards, 4, "rows come from every shard")
			require.Greater(t, len(seen), len(want)/2, "most rows get drawn")
			require.NoError(t, sp.Close())
			_, err = ds.NewSampler(rand.New(rand.NewPCG(1, 1)), 0, 1)
			require.ErrorIs(t, err, ErrInvalid)
		})
	}
}

// The policy summary covers the decisions with a choice only, per phase and in all: the top
// probability, the entropy and whether the action taken had the top probability (ties
// count), worked by hand for three rows; in both storage formats; absent without a policy
// column (above).
func TestStatsSummarisesThePolicyColumn(t *testing.T) {
	for _, f := range []Format{Arrow, Parquet} {
		t.Run(string(f), func(t *testing.T) {
			dir := t.TempDir()
			m := testMeta(true, false)
			w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{Format: f})
			require.NoError(t, err)
			g, _ := fakeGame(m, 0, newTestRand())
			pol := func(kv ...float32) []float32 {
				p := make([]float32, m.NumActions)
				for i := 0; i < len(kv); i += 2 {
					p[int(kv[i])] = kv[i+1]
				}
				return p
			}
			steps := []Step{
				// turn: even split between 1 and 2, took 2 (a tie counts as the top).
				{Phase: 0, Legal: []int{1, 2}, Action: 2, Policy: pol(1, 0.5, 2, 0.5)},
				// place: 0.75 on 4, took 5.
				{Phase: 1, Legal: []int{4, 5, 6}, Action: 5, Policy: pol(4, 0.75, 5, 0.25)},
				// forced: not counted.
				{Phase: 1, Legal: []int{7}, Action: 7, Policy: pol(7, 1)},
				// place: certain of 6 and took it.
				{Phase: 1, Legal: []int{4, 6}, Action: 6, Policy: pol(6, 1)},
			}
			for i := range steps {
				steps[i].GameID, steps[i].Step = 0, int32(i)
				steps[i].Obs, steps[i].Returns = make([]float32, m.ObsDim), make([]float32, m.Seats)
			}
			st := statsOfOneGame(t, dir, f, m, w, g, steps)
			p := st.Policy
			require.NotNil(t, p)
			ln2 := math.Log(2)
			h34 := -(0.75*math.Log(0.75) + 0.25*math.Log(0.25))
			require.Equal(t, int64(3), p.Rows)
			require.InDelta(t, (0.5+0.75+1)/3, p.MeanTop, 1e-6)
			require.InDelta(t, (ln2+h34)/3, p.MeanEntropy, 1e-6)
			require.InDelta(t, 2.0/3, p.TakenTop, 1e-9)
			turn, place := p.ByPhase["turn"], p.ByPhase["place"]
			require.Equal(t, int64(1), turn.Rows)
			require.InDelta(t, ln2, turn.MeanEntropy, 1e-6)
			require.InDelta(t, 1.0, turn.TakenTop, 1e-9)
			require.Equal(t, int64(2), place.Rows)
			require.InDelta(t, 0.875, place.MeanTop, 1e-6)
			require.InDelta(t, 0.5, place.TakenTop, 1e-9)
		})
	}
}

// statsOfOneGame writes g with its steps through w (a shard writer on dir), the manifest,
// and returns the dataset's statistics.
func statsOfOneGame(t *testing.T, dir string, f Format, m *Meta, w *ShardWriter, g *Game, steps []Step) *Stats {
	t.Helper()
	g.Length = int32(len(steps))
	require.NoError(t, w.WriteGame(g, steps))
	info, err := w.Close()
	require.NoError(t, err)
	man := &Manifest{Version: ManifestVersion, Format: f, Games: 1, GamesPerShard: 1, Meta: *m}
	man.AddShard(info)
	require.NoError(t, WriteManifest(dir, man))
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	st, err := ds.ComputeStats()
	require.NoError(t, err)
	return st
}

// TestBatchesOfNoRowsAreRefused: a batch size of 0 or less yields one ErrInvalid naming the
// size (no batch, no panic).
func TestBatchesOfNoRowsAreRefused(t *testing.T) {
	dir := t.TempDir()
	writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 3, 2)
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	for _, size := range []int{0, -1} {
		n := 0
		for b, err := range ds.Batches(size) {
			n++
			require.Nil(t, b)
			require.ErrorIs(t, err, ErrInvalid)
			require.ErrorContains(t, err, "batch size")
		}
		require.Equal(t, 1, n, "size %d", size)
	}
}

// TestBatchesOfASizeDividingTheStepsHaveNoEmptyTail: when the batch size divides the
// number of steps, Batches yields exactly steps/size full batches and no empty one; when it
// does not, one smaller batch ends the stream.
func TestBatchesOfASizeDividingTheStepsHaveNoEmptyTail(t *testing.T) {
	dir := t.TempDir()
	_, ss := writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 3, 2)
	steps := len(flatten(ss))
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	for _, size := range []int{1, steps, steps - 1} {
		var sizes []int
		for b, err := range ds.Batches(size) {
			require.NoError(t, err)
			sizes = append(sizes, b.Size)
		}
		want := []int{}
		for left := steps; left > 0; left -= size {
			want = append(want, min(size, left))
		}
		require.Equal(t, want, sizes, "%d steps in batches of %d", steps, size)
	}
}

// TestReplaySliceRefusesAnEmptyOrOutsideRange: Slice needs a start inside the steps and a
// positive size; the last step alone is a valid slice.
func TestReplaySliceRefusesAnEmptyOrOutsideRange(t *testing.T) {
	dir := t.TempDir()
	_, ss := writeFake(t, dir, testMeta(false, false), WriteOptions{Format: Arrow}, 3, 2)
	n := len(flatten(ss))
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	require.NoError(t, err)
	rp, err := ds.Load()
	require.NoError(t, err)
	var b Batch
	for _, c := range [][2]int{{0, 0}, {0, -1}, {-1, 1}, {n, 1}} {
		require.ErrorIs(t, rp.Slice(c[0], c[1], &b), ErrInvalid, "slice [%d,+%d) of %d", c[0], c[1], n)
	}
	require.NoError(t, rp.Slice(n-1, 1, &b))
	require.Equal(t, 1, b.Size)
}
