package selfplay

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/require"
)

// uniformPolicy plays uniformly and reports it: probability 1/n on each legal id and a value
// estimate of 0.25 (so tests can recognise it).
type uniformPolicy struct{ rng *rand.Rand }

func (u *uniformPolicy) Name() string { return "test-uniform-policy" }
func (u *uniformPolicy) Act(_ *rules.State, legal []int) int {
	return legal[u.rng.IntN(len(legal))]
}
func (u *uniformPolicy) ActPolicy(v *rules.State, legal []int, probs []float32) (int, float32) {
	for _, a := range legal {
		probs[a] = 1 / float32(len(legal))
	}
	return u.Act(v, legal), 0.25
}

func init() {
	if err := bots.Register("test-uniform-policy", "uniform bot reporting its policy (selfplay tests)", func(_ rules.Options, seed uint64) (bots.Bot, error) {
		return &uniformPolicy{rng: rand.New(rand.NewPCG(seed, 1))}, nil
	}); err != nil {
		panic(err)
	}
}

func TestRecordPolicyWritesTheBehaviourDistribution(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(t, dir, 2, 1, datasets.Parquet)
	c.Agents = []string{"test-uniform-policy", "test-uniform-policy", "test-uniform-policy"}
	c.RecordPolicy = true
	_, err := Run(context.Background(), c)
	require.NoError(t, err)
	ds, err := datasets.Open(dir)
	require.NoError(t, err)
	require.True(t, ds.Meta.Policy)
	require.True(t, ds.Meta.Value)
	n := 0
	for b, err := range ds.Batches(64) {
		require.NoError(t, err)
		for r := 0; r < b.Size; r++ {
			var sum float32
			legal := 0
			for a := 0; a < b.NumActions; a++ {
				p := b.Policy[r*b.NumActions+a]
				if b.Mask[r*b.NumActions+a] {
					legal++
					require.Greater(t, p, float32(0))
				} else {
					require.Zero(t, p, "no probability on an illegal action")
				}
				sum += p
			}
			require.InDelta(t, 1, sum, 1e-4)
			require.Equal(t, float32(0.25), b.Values[r])
			n++
		}
	}
	require.Greater(t, n, 0)

	// Bots that do not report a policy are refused.
	c2 := testConfig(t, t.TempDir(), 1, 1, datasets.Arrow)
	c2.RecordPolicy = true
	_, err = Run(context.Background(), c2)
	require.ErrorContains(t, err, "random does not")
}

// With GameAgents some games seat opponents: the games table records each game's own agents,
// an opponent that reports no policy records the move it played with probability 1 and
// value 0, the planned seats keep their policy, and the plan stays the manifest's agents.
func TestGameAgentsSeatOpponentsThatNeedNotReportAPolicy(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(t, dir, 4, 1, datasets.Arrow)
	plan := []string{"test-uniform-policy", "test-uniform-policy", "test-uniform-policy"}
	c.Agents, c.RecordPolicy = plan, true
	league := []string{"test-uniform-policy", "random", "random"}
	c.GameAgents = func(id uint64) []string {
		if id%2 == 1 {
			return league
		}
		return nil
	}
	_, err := Run(context.Background(), c)
	require.NoError(t, err)
	ds, err := datasets.Open(dir)
	require.NoError(t, err)
	require.Equal(t, plan, ds.Manifest.Agents)
	for g, err := range ds.Games() {
		require.NoError(t, err)
		if g.GameID%2 == 1 {
			require.Equal(t, league, g.Agents, "game %d", g.GameID)
		} else {
			require.Equal(t, plan, g.Agents, "game %d", g.GameID)
		}
	}
	opponent := 0
	for b, err := range ds.Batches(64) {
		require.NoError(t, err)
		for r := 0; r < b.Size; r++ {
			pol := b.Policy[r*b.NumActions : (r+1)*b.NumActions]
			if b.GameIDs[r]%2 == 1 && b.Deciders[r] != 0 {
				opponent++
				require.Equal(t, float32(1), pol[b.Actions[r]], "an opponent's move played has probability 1")
				require.Zero(t, b.Values[r])
				continue
			}
			require.Equal(t, float32(0.25), b.Values[r])
		}
	}
	require.Greater(t, opponent, 0)

	// A planned seat's bot must still report its policy.
	c2 := testConfig(t, t.TempDir(), 2, 1, datasets.Arrow)
	c2.Agents, c2.RecordPolicy = plan, true
	c2.GameAgents = func(uint64) []string { return []string{"random", "test-uniform-policy", "test-uniform-policy"} }
	_, err = Run(context.Background(), c2)
	require.NoError(t, err, "random in seat 0 of every game is an opponent")
	c3 := testConfig(t, t.TempDir(), 1, 1, datasets.Arrow)
	c3.Agents, c3.RecordPolicy = []string{"random", "test-uniform-policy", "test-uniform-policy"}, true
	_, err = Run(context.Background(), c3)
	require.ErrorContains(t, err, "random does not")
}
