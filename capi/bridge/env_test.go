package bridge

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// Before its first reset an env's status reads as a finished game: no decider, no last
// decider, terminated.
func TestNewEnvStatusIsAFinishedGameUntilReset(t *testing.T) {
	_, b := newTestEnv(t, `{"players": 3}`)
	if b.Status[StAgent] != -1 || b.Status[StLastAgent] != -1 || b.Status[StTerminated] != 1 {
		t.Errorf("status before reset %v: want agent -1, last agent -1, terminated 1", b.Status)
	}
}

// EnvReset forgets the previous game's last decider: StLastAgent is -1 until the first step.
func TestEnvResetForgetsTheLastDecider(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	for game := range 2 {
		if err := EnvReset(h, uint64(game), ""); err != nil {
			t.Fatal(err)
		}
		if b.Status[StLastAgent] != -1 {
			t.Fatalf("game %d: last agent %d after reset, want -1", game, b.Status[StLastAgent])
		}
		for range 5 {
			agent := b.Status[StAgent]
			if err := EnvStep(h, int(b.Legal[0])); err != nil {
				t.Fatal(err)
			}
			if b.Status[StLastAgent] != agent {
				t.Fatalf("game %d: last agent %d, want %d", game, b.Status[StLastAgent], agent)
			}
		}
	}
}

// EnvObserve writes any seat's observation; the mask is the decider's legal actions for the
// decider and all zero for every other seat.
func TestEnvObserveMasksOnlyTheDecider(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	if err := EnvReset(h, 2, ""); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := EnvStep(h, int(b.Legal[0])); err != nil {
			t.Fatal(err)
		}
	}
	x, _ := get[*Env](h, "env")
	decider := int(b.Status[StAgent])
	for seat := range 3 {
		obs, mask := make([]float32, len(b.Obs)), make([]int8, len(b.Mask))
		for i := range obs {
			obs[i] = float32(math.NaN())
		}
		for i := range mask {
			mask[i] = 1
		}
		if err := EnvObserve(h, seat, obs, mask); err != nil {
			t.Fatal(err)
		}
		want := make([]float32, len(obs))
		if err := x.e.Observe(seat, want); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(obs, want) {
			t.Errorf("seat %d: the observation is not the env's", seat)
		}
		switch {
		case seat == decider && !slices.Equal(mask, b.Mask):
			t.Errorf("seat %d decides: its mask is not the legal actions", seat)
		case seat != decider && slices.Contains(mask, 1):
			t.Errorf("seat %d does not decide (seat %d does), yet its mask is not all zero", seat, decider)
		}
	}
}

// EnvReset of an env with Go opponents writes the new game's outputs like an env without
// them: the position, zero rewards since acting, no last decider.
func TestEnvResetWithOpponentsWritesTheNewGame(t *testing.T) {
	const opts = `{"players": 3}`
	h, b := newTestEnv(t, opts)
	if err := EnvSetOpponents(h, []string{"", "random", "random"}); err != nil {
		t.Fatal(err)
	}
	if err := EnvReset(h, 5, ""); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if _, err := EnvStepPlay(h, int(b.Legal[0])); err != nil {
			t.Fatal(err)
		}
	}
	ref, rb := newTestEnv(t, opts)
	for _, e := range []int64{h, ref} {
		if err := EnvReset(e, 6, ""); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(b.Obs, rb.Obs) || !slices.Equal(b.Status, rb.Status) || !slices.Equal(b.Since, rb.Since) || !slices.Equal(b.Mask, rb.Mask) {
		t.Errorf("after a reset with opponents: status %v since %v, want those of a plain env: %v %v", b.Status, b.Since, rb.Status, rb.Since)
	}
}

// wantRangeError fails unless err is an invalid-argument error whose message holds want.
func wantRangeError(t *testing.T, what string, err error, want string) {
	t.Helper()
	if Code(err) != CodeInvalid || !strings.Contains(OneLine(err), want) {
		t.Errorf("%s: %v (code %d), want an invalid-argument error saying %q", what, err, Code(err), want)
	}
}

// EnvObserve refuses a seat past the last one itself, naming the seats of the game.
func TestEnvObserveNamesTheSeats(t *testing.T) {
	h, b := newTestEnv(t, `{"players": 3}`)
	if err := EnvReset(h, 1, ""); err != nil {
		t.Fatal(err)
	}
	for _, seat := range []int{-1, 3} {
		err := EnvObserve(h, seat, make([]float32, len(b.Obs)), make([]int8, len(b.Mask)))
		wantRangeError(t, "EnvObserve", err, "the game has seats 0 to 2")
	}
}
