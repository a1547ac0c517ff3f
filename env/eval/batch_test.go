package eval

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Lockstep blocks change nothing for bots that are not batch bots, whatever the workers.
func TestRunBatch_SameResultsAsUnbatched(t *testing.T) {
	base := smallConfig("valuer", "shipper", "manufacturer", "random")
	plain, err := Run(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 3} {
		cfg := base
		cfg.Batch, cfg.Workers = 5, w
		r, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(plain.Games, r.Games) {
			t.Fatalf("batch 5 with %d workers differs from the unbatched run", w)
		}
	}
}

// batchFirst is a batch bot that plays the first legal action and counts its batch calls.
type batchFirst struct {
	calls, views *atomic.Int64
}

func (b batchFirst) Name() string                    { return "batch-first" }
func (b batchFirst) Act(_ *rules.State, l []int) int { return l[0] }
func (b batchFirst) ActBatch(v []*rules.State, l [][]int, out []int) {
	b.calls.Add(1)
	b.views.Add(int64(len(v)))
	for i := range v {
		out[i] = l[i][0]
	}
}

func TestRunBatch_BatchBotsDecideForTheWholeBlock(t *testing.T) {
	var calls, views atomic.Int64
	cfg := smallConfig("batch", "random")
	cfg.Options.TurnLimit = 30
	cfg.Batch, cfg.Games = 6, 12
	cfg.NewBot = func(name string, o rules.Options, seed uint64) (bots.Bot, error) {
		if name == "batch" {
			return batchFirst{&calls, &views}, nil
		}
		return bots.New(name, o, seed)
	}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Games) != 12 {
		t.Fatalf("%d games", len(r.Games))
	}
	if calls.Load() == 0 || views.Load() <= calls.Load() {
		t.Fatalf("ActBatch called %d times for %d views; want batches of several games", calls.Load(), views.Load())
	}
}

// batchAnswer is a batch bot that always answers the same action id.
type batchAnswer int

// A bot's illegal answer, below or above every legal id, is the clear error
// ErrIllegalBotAction, never a panic: in lockstep blocks (batch 3) and game by game (batch 0).
func TestRunBatch_IllegalBatchAnswerIsAnError(t *testing.T) {
	for _, tc := range [][2]int{{-1, 3}, {rules.NumDistinctActions(), 3}, {1 << 20, 3}, {rules.NumDistinctActions(), 0}, {1 << 20, 0}} {
		answer := tc[0]
		cfg := smallConfig("batch", "random")
		cfg.Batch, cfg.Games = tc[1], 3
		cfg.NewBot = func(name string, o rules.Options, seed uint64) (bots.Bot, error) {
			if name == "batch" {
				return batchAnswer(answer), nil
			}
			return bots.New(name, o, seed)
		}
		_, err := Run(context.Background(), cfg)
		if !errors.Is(err, ErrIllegalBotAction) {
			t.Fatalf("answer %d, batch %d: err = %v, want ErrIllegalBotAction", answer, tc[1], err)
		}
		// The error says which agent, game and step, in lockstep blocks too.
		if msg := err.Error(); !strings.Contains(msg, "agent batch at seat") || !strings.Contains(msg, "game ") || !strings.Contains(msg, "step ") {
			t.Fatalf("answer %d, batch %d: %q does not name the agent, game and step", answer, tc[1], msg)
		}
	}
}

func (b batchAnswer) Name() string { return "batch-answer" }

func (b batchAnswer) Act(*rules.State, []int) int { return int(b) }

func (b batchAnswer) ActBatch(v []*rules.State, _ [][]int, out []int) {
	for i := range v {
		out[i] = int(b)
	}
}
