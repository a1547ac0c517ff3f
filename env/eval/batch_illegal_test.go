package eval

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// batchAnswer is a batch bot that always answers the same action id.
type batchAnswer int

func (b batchAnswer) Name() string                { return "batch-answer" }
func (b batchAnswer) Act(*rules.State, []int) int { return int(b) }
func (b batchAnswer) ActBatch(v []*rules.State, _ [][]int, out []int) {
	for i := range v {
		out[i] = int(b)
	}
}

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
