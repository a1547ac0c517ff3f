package bridge

import (
	"slices"
	"testing"

	"github.com/container-rl/container/env"
)

func newTestSolo(t *testing.T, n int, opts string, opponents []string, seat int, seed uint64, workers int) (int64, SoloBuffers) {
	t.Helper()
	s, err := SizesOf(opts)
	if err != nil {
		t.Fatal(err)
	}
	b := SoloBuffers{Obs: make([]float32, n*s.Obs), Mask: make([]int8, n*s.Actions), Reward: make([]float32, n),
		Terminated: make([]bool, n), Truncated: make([]bool, n), Seat: make([]int64, n)}
	h, err := NewSolo(n, opts, opponents, seat, seed, workers, b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = Free(h) })
	return h, b
}

// TestSoloGamesAreSingleEnvsWithOpponents: game i of a Solo, with the learner's seat rotating
// every episode, replays exactly as one Env with the same bots seated (EnvSetOpponents) and
// reset from env.GameSeed(seed, i, k), across episode ends and auto-resets.
func TestSoloGamesAreSingleEnvsWithOpponents(t *testing.T) {
	const opts = `{"players": 3, "max_steps": 60}`
	opponents := []string{"random", "valuer"}
	const n, seed = 4, 9
	h, b := newTestSolo(t, n, opts, opponents, -1, seed, 2)
	s, _ := SizesOf(opts)
	type ref struct {
		h    int64
		b    EnvBuffers
		k    int
		seat int
	}
	refs := make([]*ref, n)
	start := func(r *ref, i int) {
		r.seat = (i + r.k) % 3
		specs := make([]string, 3)
		for j, o := range opponents {
			specs[(r.seat+1+j)%3] = o
		}
		if err := EnvSetOpponents(r.h, specs); err != nil {
			t.Fatal(err)
		}
		if err := EnvReset(r.h, env.GameSeed(seed, i, r.k), ""); err != nil {
			t.Fatal(err)
		}
		if _, err := EnvPlay(r.h); err != nil {
			t.Fatal(err)
		}
	}
	for i := range refs {
		rh, rb := newTestEnv(t, opts)
		refs[i] = &ref{h: rh, b: rb}
		start(refs[i], i)
	}
	ends := 0
	actions := make([]int, n)
	for step := 0; step < 150; step++ {
		for i, r := range refs {
			if int(b.Seat[i]) != r.seat || !slices.Equal(b.Obs[i*s.Obs:(i+1)*s.Obs], r.b.Obs) ||
				!slices.Equal(b.Mask[i*s.Actions:(i+1)*s.Actions], r.b.Mask) {
				t.Fatalf("step %d game %d: differs from its single env (seat %d vs %d)", step, i, b.Seat[i], r.seat)
			}
			actions[i] = int(r.b.Legal[step%int(r.b.Status[StNumLegal])])
		}
		if err := SoloStep(h, actions); err != nil {
			t.Fatal(err)
		}
		for i, r := range refs {
			if _, err := EnvStepPlay(r.h, actions[i]); err != nil {
				t.Fatal(err)
			}
			if b.Reward[i] != r.b.Since[r.seat] {
				t.Fatalf("step %d game %d: reward %g, single env %g", step, i, b.Reward[i], r.b.Since[r.seat])
			}
			done := r.b.Status[StAgent] < 0
			if b.Terminated[i] != (r.b.Status[StTerminated] == 1 && done) || b.Truncated[i] != (r.b.Status[StTruncated] == 1 && done) {
				t.Fatalf("step %d game %d: terminated/truncated %v/%v, single env status %v", step, i, b.Terminated[i], b.Truncated[i], r.b.Status)
			}
			if done {
				ends++
				r.k++
				start(r, i)
			}
		}
	}
	if ends < n {
		t.Errorf("only %d episodes ended in 150 steps of %d games", ends, n)
	}
}

func TestSoloErrorsChangeNothing(t *testing.T) {
	if _, err := NewSolo(2, `{"players": 3}`, []string{"random"}, -1, 0, 1, SoloBuffers{}); Code(err) != CodeInvalid {
		t.Errorf("one opponent for 3 players: %v", err)
	}
	if _, err := NewSolo(2, `{"players": 3}`, []string{"random", "nosuch"}, 0, 0, 1, SoloBuffers{}); Code(err) != CodeInvalid {
		t.Errorf("missing buffers: %v", err)
	}
	h, b := newTestSolo(t, 2, `{"players": 3}`, []string{"random", "random"}, 1, 3, 1)
	if b.Seat[0] != 1 || b.Seat[1] != 1 {
		t.Errorf("fixed seat 1: seats %v", b.Seat)
	}
	obs := slices.Clone(b.Obs)
	illegal := slices.Index(b.Mask[len(b.Mask)/2:], 0)
	legal := slices.Index(b.Mask, 1)
	if err := SoloStep(h, []int{legal, illegal}); Code(err) != CodeIllegal {
		t.Errorf("an illegal action in game 1: %v", err)
	}
	if err := SoloStep(h, []int{legal}); Code(err) != CodeInvalid {
		t.Errorf("one action for two games: %v", err)
	}
	if !slices.Equal(obs, b.Obs) {
		t.Error("a refused step changed the observations")
	}
	s, err := SoloGameJSON(h, 1)
	if err != nil || s == "" {
		t.Errorf("game info: %q %v", s, err)
	}
	if _, err := SoloGameJSON(h, 2); Code(err) != CodeInvalid {
		t.Errorf("game 2 of 2: %v", err)
	}
}
