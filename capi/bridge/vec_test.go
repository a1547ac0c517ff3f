package bridge

import (
	"testing"

	"github.com/container-rl/container/env"
)

// A bot asked about a game of a vector env answers for games 0 to n-1 and refuses, as an
// invalid argument, the index just past the last and -1.
func TestBotActVecAcceptsExactlyTheVectorsGames(t *testing.T) {
	const n = 3
	vh, _, _ := newTestVec(t, n, 4)
	defer Free(vh)
	bh, err := NewBot("random", "", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer Free(bh)
	for i := 0; i < n; i++ {
		if _, err := BotActVec(bh, vh, i); err != nil {
			t.Errorf("game %d: %v", i, err)
		}
	}
	for _, i := range []int{-1, n, n + 1} {
		if _, err := BotActVec(bh, vh, i); Code(err) != CodeInvalid {
			t.Errorf("game %d of %d: %v, want an invalid-argument error", i, n, err)
		}
	}
}

// newTestVec makes a vector env of n default games from seed (2 workers) with its buffers.
func newTestVec(t *testing.T, n int, seed uint64) (int64, env.VecBuffers, Sizes) {
	t.Helper()
	s, _ := VecSizes(n, "")
	vb := env.VecBuffers{Obs: make([]float32, n*s.Obs), Mask: make([]float32, n*s.Actions), Rewards: make([]float32, n*s.Players),
		Agents: make([]int, n), Terminated: make([]bool, n), Truncated: make([]bool, n), Legal: make([]int32, n*s.Actions),
		NumLegal: make([]int32, n), Mask8: make([]int8, n*s.Actions)}
	vh, err := NewVec(n, "", seed, 2, vb)
	if err != nil {
		t.Fatal(err)
	}
	return vh, vb, s
}
