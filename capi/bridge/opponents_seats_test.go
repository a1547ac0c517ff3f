package bridge

import (
	"slices"
	"testing"
)

// playWithOpponents plays env h (random bots in seats 1 and 2) to the end from the current
// position, seat 0 taking its first legal action, and returns every position's status.
func playWithOpponents(t *testing.T, h int64, b EnvBuffers) [][]int64 {
	t.Helper()
	if _, err := EnvPlay(h); err != nil {
		t.Fatal(err)
	}
	trace := [][]int64{slices.Clone(b.Status)}
	for b.Status[StAgent] >= 0 {
		if _, err := EnvStepPlay(h, int(b.Legal[0])); err != nil {
			t.Fatal(err)
		}
		trace = append(trace, slices.Clone(b.Status))
	}
	return trace
}

// Opponents seated after a reset play the game as if they had been seated before it: their
// seeds come from the game's seed either way.
func TestOpponentsSeatedAfterAResetPlayAsIfSeatedBefore(t *testing.T) {
	const opts = `{"players": 3, "max_steps": 120}`
	specs := []string{"", "random", "random"}
	before, b := newTestEnv(t, opts)
	if err := EnvSetOpponents(before, specs); err != nil {
		t.Fatal(err)
	}
	if err := EnvReset(before, 9, ""); err != nil {
		t.Fatal(err)
	}
	after, a := newTestEnv(t, opts)
	if err := EnvReset(after, 9, ""); err != nil {
		t.Fatal(err)
	}
	if err := EnvSetOpponents(after, specs); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(playWithOpponents(t, before, b), playWithOpponents(t, after, a), slices.Equal) {
		t.Error("bots seated after the reset played another game than bots seated before it")
	}
}

// EnvPlay and EnvStepPlay return the number of moves the bots made.
func TestEnvPlayCountsTheBotsMoves(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	if err := EnvSetOpponents(h, []string{"", "random", "random"}); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for seed := uint64(0); seed < 6; seed++ {
		if err := EnvReset(h, seed, ""); err != nil {
			t.Fatal(err)
		}
		n, err := EnvPlay(h)
		if err != nil {
			t.Fatal(err)
		}
		if int64(n) != b.Status[StSteps] {
			t.Fatalf("seed %d: EnvPlay made %d moves, the game has %d steps", seed, n, b.Status[StSteps])
		}
		for range 3 {
			steps := b.Status[StSteps]
			n, err := EnvStepPlay(h, int(b.Legal[0]))
			if err != nil {
				t.Fatal(err)
			}
			if int64(n) != b.Status[StSteps]-steps-1 {
				t.Fatalf("seed %d: EnvStepPlay reports %d bot moves, the game went from %d to %d steps", seed, n, steps, b.Status[StSteps])
			}
			moved += n
		}
	}
	if moved == 0 {
		t.Fatal("the bots never moved")
	}
}
