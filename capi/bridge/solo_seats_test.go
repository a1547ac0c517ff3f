package bridge

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

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
