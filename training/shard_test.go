package training

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

func TestCompactColumnsKeepsNonZeroColumnsPadsWithZeroOnesAndCopiesRows(t *testing.T) {
	// 3 rows x 40 columns; non-zero: columns 2, 7, 39; column 5 is kept explicitly.
	const rows, d = 3, 40
	m := make([]float32, rows*d)
	m[0*d+7], m[1*d+2], m[2*d+39], m[2*d+7] = 1, -2, 3, 4
	var scratch []float32
	cols, out := compactColumns(m, rows, d, []int32{5}, widthsFine, &scratch)
	if len(cols) != columnBucket {
		t.Fatalf("width %d, want one bucket of %d", len(cols), columnBucket)
	}
	if !slices.IsSorted(cols) {
		t.Fatalf("columns not sorted: %v", cols)
	}
	for _, j := range []int32{2, 5, 7, 39} {
		if !slices.Contains(cols, j) {
			t.Fatalf("column %d missing from %v", j, cols)
		}
	}
	// Every row restricted to cols holds exactly its original values, and the columns left
	// out are zero in every row.
	for r := range rows {
		for i, j := range cols {
			if out[r*len(cols)+i] != m[r*d+int(j)] {
				t.Fatalf("row %d column %d: %v, want %v", r, j, out[r*len(cols)+i], m[r*d+int(j)])
			}
		}
		for j := range d {
			if !slices.Contains(cols, int32(j)) && m[r*d+j] != 0 {
				t.Fatalf("non-zero column %d dropped", j)
			}
		}
	}
	// Keeping everything gives the identity layout the graphs recognise.
	all, _ := compactColumns(m, rows, d, nil, widthsAll, &scratch)
	for j, c := range all {
		if int(c) != j {
			t.Fatalf("all columns: %v", all)
		}
	}
}

// scriptedBatches draws n batches of the given rows from real 4-player decisions.
func scriptedBatches(t *testing.T, n, rows int) (*Samples, []*Batch) {
	t.Helper()
	s, err := CollectSamples([]string{"valuer", "shipper", "manufacturer", "random"}, nil, 2,
		rules.DefaultOptions(), env.WinLoss, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	out := make([]*Batch, n)
	idx := make([]int, rows)
	for k := range out {
		for i := range idx {
			idx[i] = rng.IntN(s.Len())
		}
		out[k] = &Batch{}
		s.fill(out[k], idx)
		out[k].OldLogp = make([]float32, rows)
		out[k].Advantages = make([]float32, rows)
		for i := range rows {
			out[k].OldLogp[i] = -float32(rng.Float64() * 3)
			out[k].Advantages[i] = float32(rng.NormFloat64())
		}
	}
	return s, out
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// The fast training step (batch split over concurrent shards, observation columns and
// actions compacted to those the batch uses) must compute what the plain step computes:
// the same metrics before the update, and after several updates the same weights up to
// float rounding, with untouched weights left exactly alone.
func TestShardedCompactedStepsMatchThePlainStep(t *testing.T) {
	s, batches := scriptedBatches(t, 4, 256)
	cfg := NetConfig{ObsDim: s.ObsDim, NumActions: s.NumActions, ValueDim: s.ValueDim, Width: 32, Depth: 2, Norm: NormLayer}
	w, err := NewWeights(cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	hp := DefaultBCOptions().Hyper
	fast, err := NewTrainer(backend, w, hp)
	if err != nil {
		t.Fatal(err)
	}
	fast.SetShards(2)
	plain, err := NewTrainer(backend, w, hp)
	if err != nil {
		t.Fatal(err)
	}
	plain.SetShards(1)
	plain.noCompact = true
	if k := fast.shardCount(256); k != 2 {
		t.Fatalf("256 rows split into %d shards, want 2", k)
	}
	for step, b := range batches {
		for _, ppo := range []bool{false, true} {
			var mf, mp StepMetrics
			if ppo {
				mf, err = fast.PPOStep(b)
				if err == nil {
					mp, err = plain.PPOStep(b)
				}
			} else {
				mf, err = fast.BCStep(b)
				if err == nil {
					mp, err = plain.BCStep(b)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, pair := range [][2]float64{{mf.Loss, mp.Loss}, {mf.PolicyLoss, mp.PolicyLoss}, {mf.ValueLoss, mp.ValueLoss},
				{mf.Accuracy, mp.Accuracy}, {mf.Entropy, mp.Entropy}, {mf.ClipFrac, mp.ClipFrac}} {
				if !closeRel(pair[0], pair[1], 1e-4) {
					t.Fatalf("step %d ppo=%v metric %d: fast %.7f, plain %.7f", step, ppo, i, pair[0], pair[1])
				}
			}
		}
	}
	wf, err := fast.Weights()
	if err != nil {
		t.Fatal(err)
	}
	wp, err := plain.Weights()
	if err != nil {
		t.Fatal(err)
	}
	// Weight rows of observation columns no batch ever set keep their initial values exactly.
	used := make([]bool, cfg.ObsDim)
	for _, b := range batches {
		for r := range b.Rows {
			for j, v := range b.Obs[r*cfg.ObsDim : (r+1)*cfg.ObsDim] {
				used[j] = used[j] || v != 0
			}
		}
	}
	differ, total := 0, 0
	for i, p := range cfg.Params() {
		for k := range wf.Tensors[i] {
			total++
			d := math.Abs(float64(wf.Tensors[i][k] - wp.Tensors[i][k]))
			if d > 1e-4 {
				differ++
			}
			if p.Name == "trunk0_w" && !used[k/cfg.Width] && wf.Tensors[i][k] != w.Tensors[i][k] {
				t.Fatalf("weight of unused column %d moved", k/cfg.Width)
			}
		}
	}
	t.Logf("%d of %d weights differ by more than 1e-4", differ, total)
	if differ > total/1000 {
		t.Fatalf("%d of %d weights differ by more than 1e-4 after %d steps", differ, total, 2*len(batches))
	}
	eb := batches[0]
	ef, err := fast.BCEval(eb)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := plain.BCEval(eb)
	if err != nil {
		t.Fatal(err)
	}
	if !closeRel(ef.Loss, ep.Loss, 1e-3) {
		t.Fatalf("loss after training: fast %.6f, plain %.6f", ef.Loss, ep.Loss)
	}
}

// Edge cases of the sharded training step (shard.go;
// the mutation records in docs/results/ name the bug each one catches).

// A batch is split into as many shards as allowed (SetShards) while every shard keeps at
// least minShardRows (64) rows, and never into fewer than one: the split depends only on the
// batch size and the setting, so a run computes the same numbers on any machine.
func TestShardCountGivesEveryShardAtLeast64Rows(t *testing.T) {
	backend, err := NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWeights(exitTestNet, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(backend, w, DefaultBCOptions().Hyper)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ shards, rows, want int }{
		{1, 0, 1}, {1, 10_000, 1},
		{2, 0, 1}, {2, 1, 1}, {2, 63, 1}, {2, 64, 1}, {2, 100, 1}, {2, 127, 1}, {2, 128, 2}, {2, 129, 2}, {2, 10_000, 2},
		{4, 1, 1}, {4, 100, 1}, {4, 128, 2}, {4, 191, 2}, {4, 192, 3}, {4, 255, 3}, {4, 256, 4}, {4, 10_000, 4},
	} {
		tr.SetShards(c.shards)
		if got := tr.shardCount(c.rows); got != c.want {
			t.Errorf("%d rows, up to %d shards: %d shards, want %d", c.rows, c.shards, got, c.want)
		}
	}
}
