package env

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/container-rl/container/env/rules"
)

// firstLegal is a deterministic policy reading the mask buffer: the k-th legal action with
// k = (step + game) mod count.
func vecActions(v *VecEnv, step int, dst []int) []int {
	dst = dst[:0]
	for i := 0; i < v.N; i++ {
		row := v.Mask[i*v.A : (i+1)*v.A]
		count := 0
		for _, m := range row {
			if m != 0 {
				count++
			}
		}
		k := (step + 7*i) % count
		for id, m := range row {
			if m != 0 {
				if k == 0 {
					dst = append(dst, id)
					break
				}
				k--
			}
		}
	}
	return dst
}

func TestVecEnvIsTheSameWhateverTheWorkerCount(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}, Reward: Rank}
	one, err := NewVec(6, o, 99, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := NewVec(6, o, 99, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer two.Close()
	var a []int
	for step := 0; step < 3000; step++ {
		a = vecActions(one, step, a)
		if err := one.Step(a); err != nil {
			t.Fatal(err)
		}
		if err := two.Step(a); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one.Obs, two.Obs) || !slices.Equal(one.Mask, two.Mask) || !slices.Equal(one.Rewards, two.Rewards) ||
			!slices.Equal(one.Agents, two.Agents) || !slices.Equal(one.Terminated, two.Terminated) {
			t.Fatalf("step %d: 1 and 2 workers disagree", step)
		}
	}
	if slices.Max(one.Episodes) == 0 {
		t.Fatal("no game finished in 3000 steps; the auto-reset was not exercised")
	}
}

func TestVecEnvAutoResetsWithDerivedSeeds(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 4}, Reward: WinLoss}
	v, err := NewVec(3, o, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := New(o)
	for i := 0; i < v.N; i++ {
		obs, _ := ref.Reset(GameSeed(5, i, 0))
		if !slices.Equal(obs, v.Obs[i*v.D:(i+1)*v.D]) || v.Agents[i] != ref.Agent() {
			t.Fatalf("game %d does not start from GameSeed(5, %d, 0)", i, i)
		}
	}
	var a []int
	for step := 0; step < 20000; step++ {
		a = vecActions(v, step, a)
		if err := v.Step(a); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < v.N; i++ {
			if !v.Terminated[i] {
				continue
			}
			row := v.Rewards[i*v.P : (i+1)*v.P]
			sum := 0.0
			for _, r := range row {
				sum += float64(r)
			}
			if math.Abs(sum-1) > 1e-5 || len(v.Scores[i]) != 4 || v.Episodes[i] != 1 {
				t.Fatalf("game %d ended with rewards %v, %d scores, episode %d", i, row, len(v.Scores[i]), v.Episodes[i])
			}
			obs, _ := ref.Reset(GameSeed(5, i, 1))
			if !slices.Equal(obs, v.Obs[i*v.D:(i+1)*v.D]) || v.Agents[i] != ref.Agent() || v.State(i).Steps != 0 {
				t.Fatalf("game %d was not reset from GameSeed(5, %d, 1)", i, i)
			}
			return
		}
	}
	t.Fatal("no game ended in 20000 steps")
}

func TestVecEnvRefusesIllegalActionsWithoutMovingAnyGame(t *testing.T) {
	v, err := NewVec(4, DefaultOptions(), 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	a := vecActions(v, 0, nil)
	before := slices.Clone(v.Obs)
	a[2] = slices.Index(v.Mask[2*v.A:3*v.A], 0)
	if err := v.Step(a); !errors.Is(err, rules.ErrIllegalAction) {
		t.Fatalf("illegal action: %v", err)
	}
	if err := v.Step(a[:3]); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("short action list: %v", err)
	}
	if !slices.Equal(before, v.Obs) {
		t.Fatal("a refused step moved a game")
	}
	if _, err := NewVec(0, DefaultOptions(), 1, 1); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("zero games: %v", err)
	}
	v.Close()
	if err := v.Step(vecActions(v, 0, nil)); err == nil {
		t.Fatal("step after Close accepted")
	}
}

func TestGameSeedsAreDistinct(t *testing.T) {
	seen := map[uint64]bool{}
	for base := uint64(0); base < 4; base++ {
		for g := 0; g < 50; g++ {
			for ep := 0; ep < 50; ep++ {
				s := GameSeed(base, g, ep)
				if seen[s] {
					t.Fatalf("GameSeed(%d, %d, %d) repeats a seed", base, g, ep)
				}
				seen[s] = true
			}
		}
	}
}

func TestVecEnvStepAllocatesOnlyAtGameEnds(t *testing.T) {
	for _, w := range []int{1, 2} {
		v, err := NewVec(8, DefaultOptions(), 3, w)
		if err != nil {
			t.Fatal(err)
		}
		var a []int
		step := 0
		ended := 0
		allocs := testing.AllocsPerRun(1000, func() {
			a = vecActions(v, step, a)
			step++
			if err := v.Step(a); err != nil {
				t.Fatal(err)
			}
			for _, d := range v.Terminated {
				if d {
					ended++
				}
			}
		})
		v.Close()
		if ended == 0 {
			t.Fatalf("%d workers: no game ended in 1000 steps of 8 games", w)
		}
		// A finished game allocates its score breakdown; nothing else may allocate.
		if budget := float64(ended*2) / 1000; allocs > budget {
			t.Errorf("%d workers: %g allocations per step with %d game ends in 1000 steps", w, allocs, ended)
		}
	}
}

// TestVecOfOneGameIsValidAndOfNoneIsRefused: a VecEnv may hold a single game; zero games is
// an invalid option.
func TestVecOfOneGameIsValidAndOfNoneIsRefused(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}}
	v, err := NewVec(1, o, 5, 1)
	if err != nil {
		t.Fatalf("one game: %v", err)
	}
	v.Close()
	if _, err := NewVec(0, o, 5, 1); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("no games: %v, want ErrInvalidOptions", err)
	}
}

// TestVecRunsOnTheWorkersAskedAtMostOnePerGame: workers below 1 mean the caller's goroutine
// alone, and more workers than games are cut to one per game; otherwise the count asked is
// used (results do not depend on it, so only the count shows a lost parallelism).
func TestVecRunsOnTheWorkersAskedAtMostOnePerGame(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}}
	for _, c := range []struct{ n, workers, want int }{{8, 4, 4}, {8, 0, 1}, {8, -2, 1}, {2, 4, 2}, {3, 3, 3}} {
		v, err := NewVec(c.n, o, 5, c.workers)
		if err != nil {
			t.Fatal(err)
		}
		if v.workers != c.want {
			t.Errorf("%d games on %d workers: %d workers, want %d", c.n, c.workers, v.workers, c.want)
		}
		v.Close()
	}
}

// TestVecRefusesTheFirstActionPastTheLast: an action id equal to NumActions is refused in
// every game (the last included) with ErrIllegalAction, and no game moves.
func TestVecRefusesTheFirstActionPastTheLast(t *testing.T) {
	const n = 3
	v, err := NewVec(n, Options{Rules: rules.Options{Players: 3}}, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for bad := 0; bad < n; bad++ {
		actions := make([]int, n)
		for i := range actions {
			actions[i] = v.Env(i).Legal()[0]
		}
		actions[bad] = v.A
		before := v.State(bad).Hash()
		if err := v.Step(actions); !errors.Is(err, rules.ErrIllegalAction) {
			t.Errorf("game %d given action %d: %v, want ErrIllegalAction", bad, v.A, err)
		}
		if v.State(bad).Hash() != before {
			t.Errorf("game %d moved on a refused step", bad)
		}
	}
}

// A worker claims its games in batches of vecBatch. With more games per worker than one batch
// (and with a whole number of batches per worker), every step must still step every game
// exactly once: the result equals the serial VecEnv's, step by step.
func TestVecEnvWithSeveralBatchesPerWorkerIsTheSameAsOneWorker(t *testing.T) {
	o := Options{Rules: rules.Options{Players: 3}, Reward: Rank}
	for _, c := range []struct{ games, workers int }{{16, 2}, {40, 2}, {37, 3}} {
		t.Run(fmt.Sprintf("%d games on %d workers", c.games, c.workers), func(t *testing.T) {
			one, err := NewVec(c.games, o, 11, 1)
			if err != nil {
				t.Fatal(err)
			}
			many, err := NewVec(c.games, o, 11, c.workers)
			if err != nil {
				t.Fatal(err)
			}
			defer many.Close()
			var a []int
			for step := 0; step < 600; step++ {
				a = vecActions(one, step, a)
				if err := one.Step(a); err != nil {
					t.Fatal(err)
				}
				if err := many.Step(a); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(one.Obs, many.Obs) || !slices.Equal(one.Mask, many.Mask) || !slices.Equal(one.Rewards, many.Rewards) ||
					!slices.Equal(one.Agents, many.Agents) || !slices.Equal(one.Terminated, many.Terminated) || !slices.Equal(one.Episodes, many.Episodes) {
					t.Fatalf("step %d: 1 and %d workers disagree", step, c.workers)
				}
			}
		})
	}
}

// vecHelpers counts the goroutines a VecEnv started (its helpers), running or not yet started.
func vecHelpers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("created by github.com/container-rl/container/env.newVec "))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Close must end every helper goroutine, whether it is polling for the next step or asleep:
// a helper that keeps spinning after Close burns a core for the rest of the process.
func TestVecCloseEndsEveryHelperGoroutine(t *testing.T) {
	before := vecHelpers()
	v, err := NewVec(8, DefaultOptions(), 7, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Its 3 helpers run until Close (helpers of VecEnvs closed earlier may still be exiting,
	// so only count down from before).
	if got := vecHelpers(); got < 3 {
		v.Close()
		t.Fatalf("%d helper goroutines for 4 workers; want 3", got)
	}
	var a []int
	for step := 0; step < 40; step++ {
		a = vecActions(v, step, a)
		if err := v.Step(a); err != nil {
			t.Fatal(err)
		}
	}
	v.Close()
	deadline := time.Now().Add(5 * time.Second)
	for vecHelpers() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d helper goroutines still running 5 s after Close", vecHelpers()-before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
