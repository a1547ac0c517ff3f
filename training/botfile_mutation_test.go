package training

import (
	"errors"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// Tests written to kill surviving mutants of the bot file checks (botfile.go; docs/TESTING.md).

// A bot refused for the game's rules options says, in one line, both option sets (modules
// "none" when there are none) and exactly the options that differ, in both directions of a
// module mismatch.
func TestIncompatibleBotErrorNamesExactlyTheOptionsThatDiffer(t *testing.T) {
	four := rules.DefaultOptions()
	five := four
	five.Players = 5
	trucks := four
	trucks.Modules = rules.Trucks
	classicSupply := four
	classicSupply.Variant, classicSupply.Length, classicSupply.Warehouses = rules.Classic, rules.Short, 3
	for _, c := range []struct {
		trained, game rules.Options
		want          string
	}{
		{four, five, "trained for rules options {players 4, base, standard, modules none, supply 0/0/0/0}, " +
			"this game uses {players 5, base, standard, modules none, supply 0/0/0/0} (this game has players 5, not 4)"},
		{four, trucks, "trained for rules options {players 4, base, standard, modules none, supply 0/0/0/0}, " +
			"this game uses {players 4, base, standard, modules trucks, supply 0/0/0/0} (this game has modules trucks, not none)"},
		{trucks, four, "trained for rules options {players 4, base, standard, modules trucks, supply 0/0/0/0}, " +
			"this game uses {players 4, base, standard, modules none, supply 0/0/0/0} (this game has modules none, not trucks)"},
		{four, classicSupply, "trained for rules options {players 4, base, standard, modules none, supply 0/0/0/0}, " +
			"this game uses {players 4, classic, short, modules none, supply 0/0/3/0} " +
			"(this game has rules classic, not base; length short, not standard; supply 0/0/3/0, not 0/0/0/0)"},
	} {
		b := testBot(t)
		b.Header.Rules = c.trained
		err := b.CheckCompatible("obs-test", 12, CurrentActionLayout(), c.game)
		if !errors.Is(err, ErrIncompatible) || err.Error() != ErrIncompatible.Error()+": "+c.want {
			t.Errorf("trained %+v, game %+v:\n got %v\nwant %s: %s", c.trained, c.game, err, ErrIncompatible, c.want)
		}
	}
}
