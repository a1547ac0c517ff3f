package bridge

import (
	"encoding/json"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/container-rl/container/env"
)

// vecBuffersFor allocates every output buffer of n default games.
func vecBuffersFor(t *testing.T, n int) env.VecBuffers {
	t.Helper()
	s, err := VecSizes(n, "")
	if err != nil {
		t.Fatal(err)
	}
	return env.VecBuffers{Obs: make([]float32, n*s.Obs), Mask: make([]float32, n*s.Actions), Rewards: make([]float32, n*s.Players),
		Agents: make([]int, n), Terminated: make([]bool, n), Truncated: make([]bool, n), Legal: make([]int32, n*s.Actions),
		NumLegal: make([]int32, n), Mask8: make([]int8, n*s.Actions)}
}

// soloBuffersFor allocates every output buffer of n single-agent games with the options.
func soloBuffersFor(t *testing.T, n int, opts string) SoloBuffers {
	t.Helper()
	s, err := SizesOf(opts)
	if err != nil {
		t.Fatal(err)
	}
	return SoloBuffers{Obs: make([]float32, n*s.Obs), Mask: make([]int8, n*s.Actions), Reward: make([]float32, n),
		Terminated: make([]bool, n), Truncated: make([]bool, n), Seat: make([]int64, n), FinalObs: make([]float32, n*s.Obs)}
}

// A vector env has 1 to MaxVecGames games.
func TestVecSizesAcceptOneToMaxVecGames(t *testing.T) {
	for _, n := range []int{1, MaxVecGames} {
		if _, err := VecSizes(n, ""); err != nil {
			t.Errorf("%d games: %v", n, err)
		}
	}
	for _, n := range []int{0, MaxVecGames + 1} {
		if _, err := VecSizes(n, ""); Code(err) != CodeInvalid {
			t.Errorf("%d games: %v, want an invalid-argument error", n, err)
		}
	}
}

// NewVec and NewSolo take 0 (one per core) to 1024 workers.
func TestWorkerCountsFromZeroTo1024(t *testing.T) {
	const opts = `{"players": 3}`
	for _, w := range []int{0, 1024, -1, 1025} {
		vh, verr := NewVec(2, "", 1, w, vecBuffersFor(t, 2))
		sh, serr := NewSolo(2, opts, []string{"random", "random"}, -1, 1, w, soloBuffersFor(t, 2, opts))
		if w == 0 || w == 1024 {
			if verr != nil || serr != nil {
				t.Errorf("%d workers: vector env %v, single-agent env %v", w, verr, serr)
			}
			_, _ = Free(vh), Free(sh)
			continue
		}
		if Code(verr) != CodeInvalid || Code(serr) != CodeInvalid {
			t.Errorf("%d workers: vector env %v, single-agent env %v; want invalid-argument errors", w, verr, serr)
		}
	}
}

// settledGoroutines is the goroutine count once it has stopped changing (goroutines of
// earlier tests finishing).
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 100 {
		time.Sleep(2 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// NewVec steps its games on the workers asked for: the caller's goroutine and workers-1
// helpers; 0 is one worker per core.
func TestNewVecRunsTheWorkersAskedFor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, c := range []struct{ workers, helpers int }{{3, 2}, {0, 0}, {1, 0}} {
		before := settledGoroutines()
		vh, err := NewVec(8, "", 1, c.workers, vecBuffersFor(t, 8))
		if err != nil {
			t.Fatal(err)
		}
		got := runtime.NumGoroutine() - before
		_ = Free(vh)
		if got != c.helpers {
			t.Errorf("%d workers on 1 core: %d helper goroutines, want %d", c.workers, got, c.helpers)
		}
	}
}

// A Solo made with 0 workers (one per core) steps every game.
func TestSoloWithZeroWorkersStepsEveryGame(t *testing.T) {
	const n = 3
	h, b := newTestSolo(t, n, `{"players": 3}`, []string{"random", "random"}, -1, 7, 0)
	steps := func() []int {
		out := make([]int, n)
		for i := range out {
			s, err := SoloGameJSON(h, i)
			if err != nil {
				t.Fatal(err)
			}
			var g struct{ Steps int }
			if err := json.Unmarshal([]byte(s), &g); err != nil {
				t.Fatal(err)
			}
			out[i] = g.Steps
		}
		return out
	}
	before := steps()
	actions := make([]int, n)
	a := len(b.Mask) / n
	for i := range actions {
		actions[i] = slices.Index(b.Mask[i*a:(i+1)*a], 1)
	}
	if err := SoloStep(h, actions); err != nil {
		t.Fatal(err)
	}
	after := steps()
	for i := range after {
		if after[i] <= before[i] {
			t.Errorf("game %d: %d steps before the step, %d after", i, before[i], after[i])
		}
	}
}
