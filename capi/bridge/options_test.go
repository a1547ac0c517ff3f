package bridge

import (
	"strings"
	"testing"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

func TestParseOptionsNamesTheBadKey(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"playerz": 4}`, `unknown option "playerz"`},
		{`{"players": "four"}`, `option "players"`},
		{`{"players": 7}`, "players"},
		{`{"rules": "chess"}`, `unknown rules variant "chess"`},
		{`{"modules": "dragons"}`, `unknown module "dragons"`},
		{`{"reward": "gold"}`, `unknown reward scheme "gold"`},
		{`{"max_steps": -1}`, "max steps -1"},
		{`[1,2]`, "not a JSON object"},
		{`{"rules": "classic", "modules": "trucks"}`, "Truck Companies"},
		{`{"PLAYERS": 4}`, `unknown option "PLAYERS"`},
		{`{"Players": 4}`, `unknown option "Players"`},
		{`{"players": 5, "players": 3}`, `duplicate key "players"`},
		{`{"players": 3, "modules": "all", "modules": "none"}`, `duplicate key "modules"`},
	} {
		_, err := ParseOptions(c.text, env.DefaultOptions())
		if err == nil || !strings.Contains(err.Error(), c.want) || Code(err) != CodeInvalid {
			t.Errorf("%s: got %v (code %d); want an invalid-options error containing %q", c.text, err, Code(err), c.want)
		}
	}
	o, err := ParseOptions(`{"modules": "all", "reward": "rank", "dense": true, "players": 3, "max_steps": null}`, env.DefaultOptions())
	if err != nil || o.Rules.Players != 3 || o.Rules.Modules != rules.AllModules || o.Reward != env.Rank || !o.Dense {
		t.Errorf("valid options: %+v, %v", o, err)
	}
}
