package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Variant selects the rule set.
type Variant uint8

const (
	// Base is the 10th Anniversary rules with the Off-Shore Bank (the default).
	Base Variant = iota
	// Classic is the first-edition variant: no Bank board, no Bank auctions, interest and
	// buyouts paid to the supply, seized containers leave the game, delivery bids of at least $1.
	Classic
)

func (v Variant) String() string {
	if v == Classic {
		return "classic"
	}
	return "base"
}

// ParseVariant reads "base" or "classic".
func ParseVariant(s string) (Variant, error) {
	switch strings.ToLower(s) {
	case "base", "":
		return Base, nil
	case "classic":
		return Classic, nil
	}
	return 0, fmt.Errorf("rules: unknown rules variant %s (want base or classic)", Quote(s))
}

// Length is the game length, which sets the container supply.
type Length uint8

const (
	Standard Length = iota
	Short
	Extended
)

func (l Length) String() string {
	switch l {
	case Short:
		return "short"
	case Extended:
		return "extended"
	}
	return "standard"
}

// ParseLength reads "short", "standard" or "extended".
func ParseLength(s string) (Length, error) {
	switch strings.ToLower(s) {
	case "standard", "":
		return Standard, nil
	case "short":
		return Short, nil
	case "extended":
		return Extended, nil
	}
	return 0, fmt.Errorf("rules: unknown game length %s (want short, standard or extended)", Quote(s))
}

// Modules is a set of More Containers modules.
type Modules uint8

const (
	// Trucks is the Truck Companies module.
	Trucks Modules = 1 << iota
	// PlayerLoans is the Player Loans module.
	PlayerLoans
	// Luxury is the Luxury Containers module (gold containers).
	Luxury
	// AllModules is every module.
	AllModules = Trucks | PlayerLoans | Luxury
)

var moduleNames = []struct {
	m    Modules
	name string
}{{Trucks, "trucks"}, {PlayerLoans, "player-loans"}, {Luxury, "luxury"}}

// Has reports whether every module in o is in m.
func (m Modules) Has(o Modules) bool { return m&o == o }

// String lists the modules comma-separated ("" for none).
func (m Modules) String() string {
	var parts []string
	for _, mn := range moduleNames {
		if m.Has(mn.m) {
			parts = append(parts, mn.name)
		}
	}
	return strings.Join(parts, ",")
}

// ParseModules reads a comma-separated list of module names ("trucks", "player-loans",
// "luxury", "all"; "" or "none" for none).
func ParseModules(s string) (Modules, error) {
	var m Modules
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(strings.ToLower(p))
		switch p {
		case "", "none":
			continue
		case "all":
			m |= AllModules
			continue
		}
		found := false
		for _, mn := range moduleNames {
			if p == mn.name {
				m |= mn.m
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("rules: unknown module %s (want trucks, player-loans, luxury or all)", Quote(p))
		}
	}
	return m, nil
}

// Options configure a game. The zero value is not valid (Players must be 3, 4 or 5); use
// DefaultOptions for a standard 4-player game.
type Options struct {
	Players int     `json:"players"`
	Length  Length  `json:"length"`
	Variant Variant `json:"variant"`
	Modules Modules `json:"modules"`
	Seed    uint64  `json:"seed"`

	// Supply overrides; 0 means the rulebook's table for the player count and length.
	ContainersPerColour int `json:"containers_per_colour,omitempty"`
	GoldContainers      int `json:"gold_containers,omitempty"`
	Warehouses          int `json:"warehouses,omitempty"`
	FactoriesPerColour  int `json:"factories_per_colour,omitempty"`

	// TurnLimit ends the game (scored as a normal end, State.EndReason = EndTurnLimit) after
	// this many turns, so every game has a declared maximum length. 0 means DefaultTurnLimit.
	TurnLimit int `json:"turn_limit,omitempty"`
}

// DefaultTurnLimit is the turn limit used when Options.TurnLimit is 0. Real games last a few
// dozen turns; the limit only stops degenerate play (bots that never produce).
const DefaultTurnLimit = 1000

// MaxTurnLimit bounds Options.TurnLimit, so Game.MaxGameLength (about MaxStepsPerTurn
// decisions per turn) stays far from overflowing and a record's length stays bounded.
const MaxTurnLimit = 100_000

// DefaultOptions returns a standard-length 4-player game on the 10th Anniversary rules.
func DefaultOptions() Options { return Options{Players: 4} }

// ErrInvalidOptions is wrapped by every error Validate returns.
var ErrInvalidOptions = errors.New("rules: invalid options")

// Validate checks the options; an error names the offending field.
func (o Options) Validate() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalidOptions, field, fmt.Sprintf(format, args...))
	}
	if o.Players < 3 || o.Players > MaxPlayers {
		return bad("players", "%d players; Container is for 3 to 5", o.Players)
	}
	if o.Length > Extended {
		return bad("length", "unknown length %d", o.Length)
	}
	if o.Variant > Classic {
		return bad("variant", "unknown variant %d", o.Variant)
	}
	if o.Modules&^AllModules != 0 {
		return bad("modules", "unknown module bits %#x", uint8(o.Modules&^AllModules))
	}
	if o.Variant == Classic && o.Modules.Has(Trucks) {
		return bad("modules", "Truck Companies are won in Off-Shore Bank auctions, which the Classic variant does not have")
	}
	if o.ContainersPerColour < 0 || o.ContainersPerColour > 60 {
		return bad("containers_per_colour", "%d is outside 0..60", o.ContainersPerColour)
	}
	if o.ContainersPerColour != 0 && o.ContainersPerColour < 3 {
		return bad("containers_per_colour", "%d is too few for the Bank and starting containers", o.ContainersPerColour)
	}
	if o.GoldContainers < 0 || o.GoldContainers > 60 {
		return bad("gold_containers", "%d is outside 0..60", o.GoldContainers)
	}
	if o.GoldContainers != 0 && !o.Modules.Has(Luxury) {
		return bad("gold_containers", "gold containers need the luxury module")
	}
	if o.Warehouses < 0 || (o.Warehouses != 0 && o.Warehouses < o.Players) || o.Warehouses > MaxWarehouses*MaxPlayers {
		return bad("warehouses", "%d; need at least one per player and at most %d", o.Warehouses, MaxWarehouses*MaxPlayers)
	}
	if o.FactoriesPerColour < 0 || o.FactoriesPerColour > MaxPlayers {
		return bad("factories_per_colour", "%d is outside 0..%d", o.FactoriesPerColour, MaxPlayers)
	}
	if o.TurnLimit < 0 || o.TurnLimit > MaxTurnLimit {
		return bad("turn_limit", "%d is outside 0..%d", o.TurnLimit, MaxTurnLimit)
	}
	return nil
}

// Board constants (CLARIFICATIONS.md, "Board constants").
const (
	MaxPlayers      = 5
	FactoryPrices   = 4 // factory lots $1..$4; lot index p has price p+1
	HarborPrices    = 5 // harbor lots $2..$6; lot index p has price p+2
	MaxFactories    = 4
	MaxWarehouses   = 5
	ShipCapacity    = 5
	MaxLoans        = 2
	LoanAmount      = 10
	StartCash       = 20
	BankLots        = 3
	TrucksPerPlayer = 3
	PlayerLoanCards = 3
)

// FactoryCost[n] is the cost of building a player's n-th factory (the first is free at setup).
var FactoryCost = [MaxFactories + 1]int{0, 0, 6, 9, 12}

// WarehouseCost[n] is the cost of building a player's n-th warehouse (the first is free).
var WarehouseCost = [MaxWarehouses + 1]int{0, 0, 4, 5, 6, 7}

// FactoryPrice returns the price of factory lot index p ($1..$4).
func FactoryPrice(p int) int { return p + 1 }

// HarborPrice returns the price of harbor lot index p ($2..$6).
func HarborPrice(p int) int { return p + 2 }
