package selfplay

import (
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/require"
)

// TestMetaRewardNamesTheSchemeAndOnlyTheSettingsGiven: the dataset's reward description is
// the scheme's name, followed by the margin scale and the step limit only when they are set.
func TestMetaRewardNamesTheSchemeAndOnlyTheSettingsGiven(t *testing.T) {
	for _, c := range []struct {
		scale float64
		steps int
		want  string
	}{
		{0, 0, "cash-margin"},
		{250, 0, "cash-margin scale=250"},
		{0, 40, "cash-margin max-steps=40"},
		{250, 40, "cash-margin scale=250 max-steps=40"},
	} {
		o := env.DefaultOptions()
		o.Reward, o.MarginScale, o.MaxSteps = env.CashMargin, c.scale, c.steps
		m, err := NewMeta(o, "test")
		require.NoError(t, err)
		require.Equal(t, c.want, m.Reward)
	}
}

// TestMetaNamesEveryPhaseInOrder: the phase column's names are every rules phase, by index.
func TestMetaNamesEveryPhaseInOrder(t *testing.T) {
	m, err := NewMeta(env.DefaultOptions(), "test")
	require.NoError(t, err)
	require.Len(t, m.PhaseNames, int(rules.NumPhases))
	for p := rules.Phase(0); p < rules.NumPhases; p++ {
		require.Equal(t, p.String(), m.PhaseNames[p])
	}
}
