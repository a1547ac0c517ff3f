package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
)

// TestGameFlagsReadAlikeInEveryCommand walks every command that takes --rules and checks
// that its game flags have the same usage and default as every other's (--players differs only
// between the commands that seat a list of agents, where 0 means one player per agent, and
// the others).
func TestGameFlagsReadAlikeInEveryCommand(t *testing.T) {
	type flag struct{ usage, def string }
	seen := map[string]flag{} // flag name (players by its default) -> first seen
	var commands []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.Flags().Lookup("rules") == nil {
			return
		}
		commands = append(commands, c.CommandPath())
		for _, name := range []string{"players", "rules", "length", "modules", "turn-limit"} {
			f := c.Flags().Lookup(name)
			if f == nil {
				assert.True(t, name == "turn-limit", "%s has --rules but no --%s", c.CommandPath(), name)
				continue
			}
			key := name
			if name == "players" {
				key += "=" + f.DefValue
			}
			if first, ok := seen[key]; !ok {
				seen[key] = flag{f.Usage, f.DefValue}
			} else if first != (flag{f.Usage, f.DefValue}) {
				assert.Fail(t, fmt.Sprintf("%s --%s reads %q (default %q), elsewhere %q (default %q)", c.CommandPath(), name, f.Usage, f.DefValue, first.usage, first.def))
			}
		}
	}
	walk(NewRoot())
	want := []string{"bench", "eval", "play", "rate", "selfplay", "spec", "train ppo", "train exit"}
	for _, w := range want {
		found := false
		for _, c := range commands {
			found = found || strings.HasSuffix(c, " "+w)
		}
		assert.True(t, found, "container %s does not take the game flags (commands with them: %v)", w, commands)
	}
}

func TestGameFlagsRulesOptions(t *testing.T) {
	base := gameFlags{variant: "base", length: "standard"}
	for _, c := range []struct {
		players, agents, want int
	}{{0, 3, 3}, {0, 5, 5}, {0, 2, 4}, {0, 7, 4}, {5, 3, 5}, {3, 0, 3}} {
		g := base
		g.players = c.players
		o, err := g.rulesOptions(c.agents)
		assert.False(t, err != nil || o.Players != c.want, "--players %d with %d agents: %d players, %v; want %d", c.players, c.agents, o.Players, err, c.want)
	}
	for _, c := range []struct {
		edit   func(*gameFlags)
		agents int
		want   string
	}{
		{func(g *gameFlags) { g.players = 0 }, 0, "--players 0 is outside 3..5"},
		{func(g *gameFlags) { g.players = 6 }, 3, "--players 6 is outside 3..5"},
		{func(g *gameFlags) { g.players = -1 }, 3, "--players -1 is outside 3..5"},
		{func(g *gameFlags) { g.players, g.turnLimit = 4, -2 }, 0, "--turn-limit -2 is negative"},
		{func(g *gameFlags) { g.players, g.turnLimit = 4, rules.MaxTurnLimit+1 }, 0, "--turn-limit"},
		{func(g *gameFlags) { g.players, g.variant = 4, "deluxe" }, 0, "--rules"},
		{func(g *gameFlags) { g.players, g.length = 4, "epic" }, 0, "--length"},
		{func(g *gameFlags) { g.players, g.modules = 4, "dragons" }, 0, "--modules"},
		{func(g *gameFlags) { g.players, g.variant, g.modules = 4, "classic", "trucks" }, 0, "Classic"},
		{func(g *gameFlags) { g.players = 2 }, 2, "--players 2 is outside 3..5"},
	} {
		g := base
		c.edit(&g)
		_, err := g.rulesOptions(c.agents)
		assert.False(t, err == nil || !strings.Contains(err.Error(), c.want), "%+v with %d agents: error %v, want one containing %q", g, c.agents, err, c.want)
	}
}

// --players states one range, 3..5, in every command, and "invalid options" once.
func TestPlayersRangeIsTheSameInEveryCommand(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "--agents", "random", "--games", "1"},
		{"rate", "--agents", "random", "--games", "1"},
		{"selfplay", "--agents", "random", "--games", "1", "--out", filepath.Join(t.TempDir(), "d")},
		{"play"},
		{"spec"},
	} {
		for _, p := range []string{"7", "2", "-1"} {
			code, line := mainError(append(args, "--players", p)...)
			assert.False(t, code != 1 || !strings.Contains(line, "--players "+p+" is outside 3..5") || strings.Count(line, "invalid options") > 1, "%v --players %s: exit %d, %q", args, p, code, line)
		}
	}
	code, line := mainError("eval", "--agents", "random", "--rules", "classic", "--modules", "trucks")
	assert.False(t, code != 1 || strings.Count(line, "invalid options") != 1 || !strings.Contains(line, "Classic"), "eval --rules classic --modules trucks: exit %d, %q", code, line)
}
