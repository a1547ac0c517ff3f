package selfplay

import (
	"context"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/require"
)

// Edge cases of the self-play dataset (the mutation records in docs/results/ name the bug each one catches).

// The reward column of every step is the environment's reward for that step's decider: each
// game is replayed through env.Env from its seed and recorded actions, and every step's
// recorded reward must equal the replay's reward for the decider (under the rank scheme,
// where the seats' final rewards differ).
func TestRewardColumnIsTheEnvironmentsRewardForTheDecider(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(t, dir, 6, 2, datasets.Arrow)
	c.Env.Reward = env.Rank
	c.Agents = []string{"valuer", "random", "shipper"}
	_, err := Run(context.Background(), c)
	require.NoError(t, err)
	games, steps := content(t, dir)
	e, err := env.New(c.Env)
	require.NoError(t, err)
	i, lastOffSeat0 := 0, 0
	for _, g := range games {
		e.Reset(g.Seed)
		for k := 0; k < int(g.Length); k++ {
			s := steps[i]
			require.Equal(t, int(s.Decider), e.Agent(), "game %d step %d", g.GameID, k)
			res, err := e.Step(int(s.Action))
			require.NoError(t, err)
			require.Equal(t, res.Rewards[s.Decider], s.Reward, "game %d step %d: reward column vs the environment's reward for decider %d (rewards %v)", g.GameID, k, s.Decider, res.Rewards)
			if s.Done && s.Decider != 0 && res.Rewards[s.Decider] != res.Rewards[0] {
				lastOffSeat0++
			}
			i++
		}
		require.True(t, e.Done())
	}
	require.Equal(t, len(steps), i)
	require.Positive(t, lastOffSeat0, "no game ends on a decision of a seat other than 0 with a different reward: the test proves little")
}

// The games of a run are numbered 0 to N-1 in shard order (within a shard too, not only at
// its first game), game i is played from env.GameSeed(seed, i, 0), and every step carries
// its game's id.
func TestGameIdsNumberTheRunsGamesAndDecideTheirSeeds(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(t, dir, 7, 2, datasets.Arrow)
	c.Env.Rules.TurnLimit = 12
	_, err := Run(context.Background(), c)
	require.NoError(t, err)
	games, steps := content(t, dir)
	require.Len(t, games, 7)
	i := 0
	for k, g := range games {
		require.Equal(t, uint64(k), g.GameID, "game %d", k)
		require.Equal(t, env.GameSeed(c.Seed, k, 0), g.Seed, "game %d", k)
		for j := 0; j < int(g.Length); j++ {
			require.Equal(t, g.GameID, steps[i].GameID, "game %d step %d", k, j)
			i++
		}
	}
	require.Equal(t, len(steps), i)
}

// The games table names the colour each seat discarded and the colour its gold counted as,
// and leaves the name empty where the rules' score has none (an empty island, no gold); its
// turns column counts the turns begun, the last decision's turn included. Each game is
// replayed through env.Env and compared with the rules' final scores.
func TestGameScoresNameTheRulesColoursAndTheTurnsBegun(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(t, dir, 6, 2, datasets.Arrow)
	c.Agents = []string{"valuer", "random", "shipper"}
	_, err := Run(context.Background(), c)
	require.NoError(t, err)
	games, steps := content(t, dir)
	e, err := env.New(c.Env)
	require.NoError(t, err)
	name := func(col rules.Colour) string {
		if col < rules.NumColours {
			return col.String()
		}
		return ""
	}
	i, named, unnamed := 0, 0, 0
	for _, g := range games {
		e.Reset(g.Seed)
		var res env.StepResult
		for k := 0; k < int(g.Length); k++ {
			res, err = e.Step(int(steps[i].Action))
			require.NoError(t, err)
			i++
		}
		require.True(t, e.Done())
		require.Equal(t, steps[i-1].Turn+1, g.Turns, "game %d: turns begun", g.GameID)
		require.Len(t, g.Scores, len(res.Info.Scores))
		for s, sc := range res.Info.Scores {
			require.Equal(t, name(sc.Discarded), g.Scores[s].Discarded, "game %d seat %d", g.GameID, s)
			require.Equal(t, name(sc.GoldAs), g.Scores[s].GoldAs, "game %d seat %d", g.GameID, s)
			if sc.Discarded < rules.NumColours {
				named++
			} else {
				unnamed++
			}
		}
	}
	require.Positive(t, named, "no seat discarded a colour: the test proves little")
	require.Positive(t, unnamed, "every seat discarded a colour: the test proves little")
}
