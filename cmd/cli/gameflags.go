package cli

import (
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

// gameFlags are the flags that choose the game a command plays or describes: --players,
// --rules, --length, --modules and --turn-limit. addGameFlags declares them and rulesOptions
// checks them, once for every command (selfplay, eval, rate, play, bench, spec, train ppo), so
// they are spelled, defaulted, documented and checked alike everywhere.
type gameFlags struct {
	players   int
	variant   string
	length    string
	modules   string
	turnLimit int
}

// gameFlagSet says how a command takes the game flags.
type gameFlagSet struct {
	// playersFromAgents: --players defaults to 0, the number of agents named (if 3 to 5,
	// else 4); otherwise it defaults to 4.
	playersFromAgents bool
	// turnLimit: the command takes --turn-limit (spec and train ppo do not).
	turnLimit bool
}

// addGameFlags declares the game flags on cmd, writing into g.
func addGameFlags(cmd *cobra.Command, g *gameFlags, set gameFlagSet) {
	f := cmd.Flags()
	if set.playersFromAgents {
		f.IntVar(&g.players, "players", 0, "players per game, 3 to 5 (0: the number of agents if 3 to 5, else 4)")
	} else {
		f.IntVar(&g.players, "players", 4, "players per game, 3 to 5")
	}
	f.StringVar(&g.variant, "rules", "base", "rules variant: base (Off-Shore Bank) or classic")
	f.StringVar(&g.length, "length", "standard", "game length: short, standard or extended")
	f.StringVar(&g.modules, "modules", "", "More Containers modules, comma-separated (trucks, player-loans, luxury) or all")
	if set.turnLimit {
		f.IntVar(&g.turnLimit, "turn-limit", 0, "end a game after this many turns (0: the rules' default limit)")
	}
	_ = cmd.RegisterFlagCompletionFunc("rules", cobra.FixedCompletions([]string{"base", "classic"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("length", cobra.FixedCompletions([]string{"short", "standard", "extended"}, cobra.ShellCompDirectiveNoFileComp))
}

// rulesOptions checks the game flags and returns the game's options. agents is the number of
// agents the command seats from a list (selfplay, eval, rate: --players 0 means that many
// players if 3 to 5, else 4), or 0 where --players must name 3 to 5 players itself. Errors
// name the flag.
func (g gameFlags) rulesOptions(agents int) (rules.Options, error) {
	if err := checkIntFlags(turnLimitRange.with(g.turnLimit)); err != nil {
		return rules.Options{}, err
	}
	// 0 (where allowed) only asks for the default, so every command states the same range.
	if (g.players != 0 || agents == 0) && (g.players < minPlayers || g.players > rules.MaxPlayers) {
		return rules.Options{}, fmt.Errorf("--players %d is outside %d..%d", g.players, minPlayers, rules.MaxPlayers)
	}
	o := rules.DefaultOptions()
	o.Players, o.TurnLimit = g.players, g.turnLimit
	if o.Players == 0 {
		o.Players = 4
		if agents >= 3 && agents <= rules.MaxPlayers {
			o.Players = agents
		}
	}
	if err := parseGameFlags(&o, g.variant, g.length, g.modules); err != nil {
		return rules.Options{}, err
	}
	if err := o.Validate(); err != nil {
		// The commands say "invalid options" themselves: keep the rules' reason only.
		return rules.Options{}, &renamedError{msg: strings.TrimPrefix(err.Error(), rules.ErrInvalidOptions.Error()+": "), err: err}
	}
	return o, nil
}

// parseGameFlags sets o's variant, length and modules from the values of the --rules,
// --length and --modules flags every game-playing command has; the error names the flag.
func parseGameFlags(o *rules.Options, variant, length, modules string) error {
	var err error
	if o.Variant, err = rules.ParseVariant(variant); err != nil {
		return fmt.Errorf("--rules: %w", err)
	}
	if o.Length, err = rules.ParseLength(length); err != nil {
		return fmt.Errorf("--length: %w", err)
	}
	if o.Modules, err = rules.ParseModules(modules); err != nil {
		return fmt.Errorf("--modules: %w", err)
	}
	return nil
}
