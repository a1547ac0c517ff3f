package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestSupplyOverridesAcceptTheirDocumentedExtremes: every supply override accepts the
// extremes of its documented range (and a game sets up with them) and refuses one step past
// them, naming the field: containers per colour 3..60 (or 0, the rulebook's table), gold
// 0..60 (with Luxury), warehouses from one per player to MaxWarehouses per seat of the largest
// game, factories per colour 0..MaxPlayers.
func TestSupplyOverridesAcceptTheirDocumentedExtremes(t *testing.T) {
	lux := Luxury
	for _, c := range []struct {
		o     Options
		field string // "" when valid
	}{
		{Options{Players: 5, ContainersPerColour: 3}, ""},
		{Options{Players: 5, ContainersPerColour: 2}, "containers_per_colour"},
		{Options{Players: 3, ContainersPerColour: 60}, ""},
		{Options{Players: 3, ContainersPerColour: 61}, "containers_per_colour"},
		{Options{Players: 4, ContainersPerColour: 12}, ""},
		{Options{Players: 4, Modules: lux, GoldContainers: 60}, ""},
		{Options{Players: 4, Modules: lux, GoldContainers: 61}, "gold_containers"},
		{Options{Players: 3, Warehouses: 3}, ""},
		{Options{Players: 3, Warehouses: 2}, "warehouses"},
		{Options{Players: 5, Warehouses: 5}, ""},
		{Options{Players: 5, Warehouses: 4}, "warehouses"},
		{Options{Players: 4, Warehouses: 10}, ""},
		{Options{Players: 5, Warehouses: MaxWarehouses * MaxPlayers}, ""},
		{Options{Players: 5, Warehouses: MaxWarehouses*MaxPlayers + 1}, "warehouses"},
		{Options{Players: 5, FactoriesPerColour: MaxPlayers}, ""},
		{Options{Players: 5, FactoriesPerColour: MaxPlayers + 1}, "factories_per_colour"},
	} {
		name := fmt.Sprintf("%+v", c.o)
		err := c.o.Validate()
		if c.field != "" {
			if !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), c.field) {
				t.Errorf("%s: got %v, want an invalid-options error naming %s", name, err, c.field)
			}
			if _, err := NewGame(c.o); err == nil {
				t.Errorf("%s: NewGame accepted it", name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: refused: %v", name, err)
			continue
		}
		g, err := NewGame(c.o)
		if err != nil {
			t.Errorf("%s: NewGame: %v", name, err)
			continue
		}
		s := g.NewInitialStateSeed(7)
		if wh, want := int(s.WarehouseSupply), g.opts.warehouses()-c.o.Players; wh != want {
			t.Errorf("%s: warehouse supply %d, want %d", name, wh, want)
		}
		// The set-up game is a valid position: it saves and loads.
		data, err := s.MarshalPosition()
		if err != nil {
			t.Errorf("%s: MarshalPosition: %v", name, err)
			continue
		}
		if _, err := LoadPosition(data); err != nil {
			t.Errorf("%s: the start position does not load: %v", name, err)
		}
	}
}
