package datasets

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/container-rl/container/env/rules"
)

// cpuTime is the process's user+system CPU time; benchmarks report throughput per CPU
// second too, because wall-clock rates are meaningless on a shared, oversubscribed machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchGame is a realistic game for writer benchmarks: D=600 observation floats (mostly
// zeros and one-hots, like the real encoding), 240 actions, 4 seats, 1000 steps.
func benchGame(m *Meta) (*Game, []Step) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 1000
	g := &Game{GameID: 0, Seed: 1, Options: `{"players":4}`, Length: n, Turns: 300, EndReason: "two-colours",
		Agents: []string{"random", "random", "random", "random"}, Scores: make([]Score, 4), Winners: []int8{2}}
	steps := make([]Step, n)
	ret := make([]float32, 4)
	for t := range steps {
		obs := make([]float32, m.ObsDim)
		for i := range obs {
			switch rng.IntN(5) {
			case 0:
				obs[i] = float32(rng.IntN(20)) / 20
			case 1:
				obs[i] = 1
			}
		}
		legal := make([]int, 0, 30)
		for a := 0; a < m.NumActions; a += 1 + rng.IntN(15) {
			legal = append(legal, a)
		}
		steps[t] = Step{Step: int32(t), Turn: int32(t / 3), Decider: int8(t % 4), Phase: uint8(rng.IntN(int(rules.NumPhases))), Obs: obs,
			Legal: legal, Action: int32(legal[0]), ActionText: "sail:harbor:+1", Returns: ret, Done: t == n-1}
	}
	return g, steps
}

func benchMeta() *Meta {
	m := testMeta(false, false)
	m.ObsDim, m.NumActions, m.Seats = 600, 240, 4
	m.Features = []Feature{{Name: "all", Offset: 0, Size: 600}}
	m.ActionNames = nil
	m.PhaseNames = nil
	for p := range rules.NumPhases {
		m.PhaseNames = append(m.PhaseNames, p.String())
	}
	return m
}

// BenchmarkWriter measures shard writing throughput (rows/s, MB/s of observation+mask
// payload) for each format and codec.
func BenchmarkWriter(b *testing.B) {
	m := benchMeta()
	g, steps := benchGame(m)
	rowBytes := float64(4*m.ObsDim + m.MaskBytes() + 4*m.Seats + 32)
	for _, c := range []struct {
		f  Format
		c  Compression
		cc int
	}{{Arrow, "none", 1}, {Arrow, "lz4", 1}, {Arrow, "zstd", 1}, {Arrow, "zstd", 2}, {Parquet, "none", 1}, {Parquet, "snappy", 1}, {Parquet, "lz4", 1}, {Parquet, "zstd", 1}} {
		b.Run(fmt.Sprintf("%s-%s-c%d", c.f, c.c, c.cc), func(b *testing.B) {
			dir := b.TempDir()
			var rows int64
			var bytes int64
			start, cpu0 := time.Now(), cpuTime()
			for i := 0; b.Loop(); i++ {
				w, err := NewShardWriter(dir, i%4, 0, m, WriteOptions{Format: c.f, Compression: c.c, CompressConcurrency: c.cc})
				if err != nil {
					b.Fatal(err)
				}
				for k := 0; k < 16; k++ {
					g.GameID = uint64(k)
					for s := range steps {
						steps[s].GameID = uint64(k)
					}
					if err := w.WriteGame(g, steps); err != nil {
						b.Fatal(err)
					}
					rows += int64(len(steps))
				}
				info, err := w.Close()
				if err != nil {
					b.Fatal(err)
				}
				bytes += info.StepsBytes + info.GamesBytes
			}
			sec := time.Since(start).Seconds()
			cpu := (cpuTime() - cpu0).Seconds()
			b.ReportMetric(float64(rows)/sec, "rows/s")
			b.ReportMetric(float64(rows)/cpu, "rows/cpu-s")
			b.ReportMetric(float64(rows)*rowBytes/sec/1e6, "MB/s")
			b.ReportMetric(float64(bytes)/float64(rows), "file-B/row")
		})
	}
}

// BenchmarkReplaySample measures drawing a 256-row training batch (D=600) from memory.
func BenchmarkReplaySample(b *testing.B) {
	m := benchMeta()
	dir := b.TempDir()
	g, steps := benchGame(m)
	w, err := NewShardWriter(dir, 0, 0, m, WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.WriteGame(g, steps); err != nil {
		b.Fatal(err)
	}
	info, err := w.Close()
	if err != nil {
		b.Fatal(err)
	}
	man := &Manifest{Version: ManifestVersion, Format: Arrow, Games: 1, GamesPerShard: 1, Meta: *m}
	man.AddShard(info)
	if err := WriteManifest(dir, man); err != nil {
		b.Fatal(err)
	}
	ds, err := Open(dir, AcceptEncodings(testEncoding))
	if err != nil {
		b.Fatal(err)
	}
	rp, err := ds.Load()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var batch Batch
	b.ReportAllocs()
	for b.Loop() {
		if err := rp.Sample(rng, 256, &batch); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriteGameDoesNotAllocatePerStep: appending a 1000-step game costs a handful of
// allocations (builder growth, amortised), not one per step.
func TestWriteGameDoesNotAllocatePerStep(t *testing.T) {
	m := benchMeta()
	g, steps := benchGame(m)
	w, err := NewShardWriter(t.TempDir(), 0, 0, m, WriteOptions{BatchRows: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	allocs := testing.AllocsPerRun(3, func() {
		if err := w.WriteGame(g, steps); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations per %d-step game", allocs, len(steps))
	if allocs > 50 {
		t.Fatalf("%.0f allocations for a %d-step game", allocs, len(steps))
	}
}
