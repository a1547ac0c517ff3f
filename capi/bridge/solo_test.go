package bridge

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

func newTestSolo(t *testing.T, n int, opts string, opponents []string, seat int, seed uint64, workers int) (int64, SoloBuffers) {
	t.Helper()
	s, err := SizesOf(opts)
	if err != nil {
		t.Fatal(err)
	}
	b := SoloBuffers{Obs: make([]float32, n*s.Obs), Mask: make([]int8, n*s.Actions), Reward: make([]float32, n),
		Terminated: make([]bool, n), Truncated: make([]bool, n), Seat: make([]int64, n), FinalObs: make([]float32, n*s.Obs)}
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
				final := make([]float32, s.Obs)
				if err := EnvObserve(r.h, r.seat, final, make([]int8, s.Actions)); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(final, b.FinalObs[i*s.Obs:(i+1)*s.Obs]) {
					t.Fatalf("step %d game %d: final observation differs from the single env's", step, i)
				}
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

// SoloGameJSON describes games 0 to n-1, the first included, and refuses -1 and n naming
// the games there are.
func TestSoloGameJSONAcceptsExactlyTheSolosGames(t *testing.T) {
	h, _ := newTestSolo(t, 2, `{"players": 3}`, []string{"random", "random"}, -1, 1, 1)
	for i := range 2 {
		if s, err := SoloGameJSON(h, i); err != nil || !strings.Contains(s, `"episodes":0`) {
			t.Errorf("game %d: %q, %v", i, s, err)
		}
	}
	for _, i := range []int{-1, 2} {
		_, err := SoloGameJSON(h, i)
		wantRangeError(t, "SoloGameJSON", err, "the vector env has games 0 to 1")
	}
}

// A Solo with the learner fixed in seat 0 seats it there in every game (only -1 rotates).
func TestSoloFixedSeatZeroIsSeatZeroInEveryGame(t *testing.T) {
	_, b := newTestSolo(t, 3, `{"players": 3}`, []string{"random", "random"}, 0, 2, 1)
	if !slices.Equal(b.Seat, []int64{0, 0, 0}) {
		t.Errorf("learner's seats %v, want seat 0 in every game", b.Seat)
	}
}

// NewSolo takes the learner's seat from -1 (rotate) to P-1 and refuses seat P, naming the
// seats.
func TestNewSoloRefusesASeatPastTheLast(t *testing.T) {
	const opts = `{"players": 3}`
	_, err := NewSolo(2, opts, []string{"random", "random"}, 3, 1, 1, soloBuffersFor(t, 2, opts))
	if Code(err) != CodeInvalid || !strings.Contains(OneLine(err), "seat 3; want -1 (rotate) or 0 to 2") {
		t.Errorf("seat 3 of 3: %v, want an invalid-argument error naming the seats", err)
	}
	_, b := newTestSolo(t, 2, opts, []string{"random", "random"}, 2, 1, 1)
	if !slices.Equal(b.Seat, []int64{2, 2}) {
		t.Errorf("seat 2: learner's seats %v", b.Seat)
	}
}

// SoloStep refuses, as illegal and before stepping any game, an action id outside 0 to A-1
// for any game, the last one included.
func TestSoloStepRefusesActionsOutsideTheActionIds(t *testing.T) {
	const n = 2
	h, b := newTestSolo(t, n, `{"players": 3}`, []string{"random", "random"}, -1, 1, 1)
	a := len(b.Mask) / n
	legal := []int{slices.Index(b.Mask[:a], 1), slices.Index(b.Mask[a:], 1)}
	obs := slices.Clone(b.Obs)
	for i := range n {
		for _, bad := range []int{-1, a} {
			actions := slices.Clone(legal)
			actions[i] = bad
			if err := SoloStep(h, actions); Code(err) != CodeIllegal {
				t.Errorf("game %d, action %d of 0..%d: %v, want an illegal-action error", i, bad, a-1, err)
			}
		}
	}
	if !slices.Equal(obs, b.Obs) {
		t.Error("a refused step changed the observations")
	}
}

// failingBots makes the registered bot "fails-when-told" choose an illegal action.
var (
	failingBots     atomic.Bool
	failingBotsOnce sync.Once
)

type failsWhenTold struct{}

func (failsWhenTold) Name() string { return "fails-when-told" }

func (failsWhenTold) Act(_ *rules.State, legal []int) int {
	if failingBots.Load() {
		return -1
	}
	return legal[0]
}

func registerFailsWhenTold(t *testing.T) {
	t.Helper()
	failingBotsOnce.Do(func() {
		if err := bots.Register("fails-when-told", "plays its first legal action, or an illegal one once told to",
			func(rules.Options, uint64) (bots.Bot, error) { return failsWhenTold{}, nil }); err != nil {
			t.Fatal(err)
		}
	})
}

// A bot that fails while SoloStep moves the other seats makes SoloStep return the failure,
// naming the game, as an internal error.
func TestSoloStepReportsAFailingBot(t *testing.T) {
	registerFailsWhenTold(t)
	const n = 2
	h, b := newTestSolo(t, n, `{"players": 3}`, []string{"fails-when-told", "fails-when-told"}, 0, 1, 1)
	failingBots.Store(true)
	defer failingBots.Store(false)
	a := len(b.Mask) / n
	for step := 0; step < 50; step++ {
		actions := []int{slices.Index(b.Mask[:a], 1), slices.Index(b.Mask[a:], 1)}
		err := SoloStep(h, actions)
		if err == nil {
			continue
		}
		if Code(err) != CodeInternal || !strings.Contains(err.Error(), "game 0: ") || !strings.Contains(err.Error(), "fails-when-told") {
			t.Fatalf("step %d: %v, want an internal error naming game 0 and the bot", step, err)
		}
		return
	}
	t.Fatal("50 steps with failing bots and no error")
}
