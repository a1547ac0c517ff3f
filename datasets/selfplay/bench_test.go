package selfplay

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/container-rl/container/datasets"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSelfplayRandom measures end-to-end self-play (play, encode, write zstd Arrow) with
// four random bots on 2 workers: steps/s of wall time and per CPU second.
func BenchmarkSelfplayRandom(b *testing.B) {
	for _, f := range []datasets.Format{datasets.Arrow, datasets.Parquet} {
		b.Run(string(f), func(b *testing.B) {
			var steps int64
			start, cpu0 := time.Now(), cpuTime()
			for b.Loop() {
				c := testConfig(nil, b.TempDir(), 16, 2, f)
				c.Agents = []string{"random", "random", "random", "random"}
				c.Env.Rules.Players = 4
				c.GamesPerShard = 8
				res, err := Run(context.Background(), c)
				if err != nil {
					b.Fatal(err)
				}
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/time.Since(start).Seconds(), "steps/s")
			b.ReportMetric(float64(steps)/(cpuTime()-cpu0).Seconds(), "steps/cpu-s")
		})
	}
}
