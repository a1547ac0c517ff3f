package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A flag's bad value, a missing value and an unknown flag are one line in the command's
// words: the command, the flag and the kind of value it takes, or the nearest flag.
func TestFlagErrorsNameCommandFlagAndKind(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--games", "abc"}, `container: eval: --games "abc" is not a whole number` + "\n"},
		{[]string{"eval", "--seed", "-1"}, `container: eval: --seed "-1" is not a whole number, 0 or more` + "\n"},
		{[]string{"eval", "--games", "99999999999999999999"}, `container: eval: --games "99999999999999999999" is out of range for a whole number` + "\n"},
		{[]string{"eval", "--json=maybe"}, `container: eval: --json "maybe" is not true or false` + "\n"},
		{[]string{"train", "ppo", "--lr", "fast"}, `container: train ppo: --lr "fast" is not a number` + "\n"},
		{[]string{"eval", "--games"}, "container: eval: --games needs a value (a whole number)\n"},
		{[]string{"eval", "--agent", "random"}, "container: eval: unknown flag --agent; did you mean --agents?\n"},
		{[]string{"eval", "--gmaes", "3"}, "container: eval: unknown flag --gmaes; did you mean --games?\n"},
		{[]string{"train", "bc", "--stpes", "3"}, "container: train bc: unknown flag --stpes; did you mean --steps?\n"},
		{[]string{"play", "--sat", "1"}, "container: play: unknown flag --sat; did you mean --seat?\n"},
		{[]string{"eval", "--zzzzzz"}, "container: eval: unknown flag --zzzzzz; see container eval --help\n"},
		{[]string{"eval", "-x"}, "container: eval: unknown flag -x in -x; see container eval --help\n"},
		{[]string{"--agents", "x"}, "container: unknown flag --agents; see container --help\n"},
	} {
		code, line := mainError(c.args...)
		assert.False(t, code != 1 || line != c.want, "%q: exit %d, %q; want %q", c.args, code, line, c.want)
	}
}

func TestNearestFlagsSuggestsOnlyCloseNames(t *testing.T) {
	root := NewRoot()
	eval, _, err := root.Find([]string{"eval"})
	require.NoError(t, err)
	for name, want := range map[string]string{"agent": "agents", "seeed": "seed", "work": "workers", "AGENTS": "agents", "x": "", "csvv": "csv"} {
		got := nearestFlags(eval, name)
		assert.False(t, (want == "" && len(got) != 0) || (want != "" && (len(got) == 0 || got[0] != want)), "nearestFlags(%q) = %v, want %q first", name, got, want)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"agent", "agents", 1}, {"gmaes", "games", 2}, {"abc", "", 3}, {"kitten", "sitting", 3}} {
		d := editDistance(c.a, c.b)
		assert.True(t, d == c.d, "editDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
	}
}
