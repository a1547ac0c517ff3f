package training

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// illegalBot plays the first action id that is not legal.
type illegalBot struct{}

func (illegalBot) Name() string { return "training-illegal" }

func (illegalBot) Act(_ *rules.State, legal []int) int {
	for a := range rules.NumDistinctActions() {
		if len(legal) <= a || legal[a] != a {
			return a
		}
	}
	return -1
}

func init() {
	if err := bots.Register("training-illegal", "plays an illegal action (training tests)", func(rules.Options, uint64) (bots.Bot, error) {
		return illegalBot{}, nil
	}); err != nil {
		panic(err)
	}
}

// Teachers and PPO opponents decide through the bots seat loop, so a bot's illegal choice is
// an error naming the bot, not a recorded sample or a corrupted rollout.
func TestTeacherOrOpponentChoosingAnIllegalActionIsAnErrorNamingIt(t *testing.T) {
	opts := rules.DefaultOptions()
	opts.TurnLimit = 20
	_, err := CollectSamples([]string{"training-illegal", "valuer"}, nil, 1, opts, env.Rank, 1, 1)
	if !errors.Is(err, bots.ErrIllegalAction) || !strings.Contains(err.Error(), "training-illegal") {
		t.Fatalf("CollectSamples with an illegal teacher: %v, want bots.ErrIllegalAction naming it", err)
	}

	o := tinyPPO(t)
	o.Games, o.SnapshotShare, o.Opponents = 2, 0, []string{"training-illegal"}
	g, _, net := testLearner(t, &o)
	col := &collector{opts: &o, game: g, scheme: env.Rank}
	if _, err := col.collect(net, nil, rand.New(rand.NewPCG(1, 2)), 1); !errors.Is(err, bots.ErrIllegalAction) || !strings.Contains(err.Error(), "training-illegal") {
		t.Fatalf("PPO collect against an illegal opponent: %v, want bots.ErrIllegalAction naming it", err)
	}
}
