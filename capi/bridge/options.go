package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/strictjson"
)

// optionKeys are the keys an options JSON object may hold (the Python keyword arguments).
var optionKeys = []string{"players", "rules", "length", "modules", "reward", "dense", "max_steps",
	"margin_scale", "hide_opponent_cash", "turn_limit", "containers_per_colour", "gold_containers",
	"warehouses", "factories_per_colour"}

// optionsJSON mirrors optionKeys; a nil field keeps the base value.
type optionsJSON struct {
	Players             *int     `json:"players"`
	Rules               *string  `json:"rules"`
	Length              *string  `json:"length"`
	Modules             *string  `json:"modules"`
	Reward              *string  `json:"reward"`
	Dense               *bool    `json:"dense"`
	MaxSteps            *int     `json:"max_steps"`
	MarginScale         *float64 `json:"margin_scale"`
	HideOpponentCash    *bool    `json:"hide_opponent_cash"`
	TurnLimit           *int     `json:"turn_limit"`
	ContainersPerColour *int     `json:"containers_per_colour"`
	GoldContainers      *int     `json:"gold_containers"`
	Warehouses          *int     `json:"warehouses"`
	FactoriesPerColour  *int     `json:"factories_per_colour"`
}

// ParseOptions reads environment options from a JSON object over base ("" or "{}" keeps
// base). Unknown keys, wrong types and invalid values are errors naming the key.
func ParseOptions(text string, base env.Options) (env.Options, error) {
	o := base
	if strings.TrimSpace(text) == "" {
		return o, o.Validate()
	}
	// Keys are compared exactly ("PLAYERS" is unknown), and a key given twice is refused.
	var raw map[string]json.RawMessage
	if err := strictjson.Decode([]byte(text), &raw); err != nil {
		if errors.Is(err, strictjson.ErrDuplicateKey) {
			return o, fmt.Errorf("%w: options: %v", env.ErrInvalidOptions, err)
		}
		return o, fmt.Errorf("%w: options: not a JSON object: %v", env.ErrInvalidOptions, err)
	}
	var unknown []string
	for k := range raw {
		if !slices.Contains(optionKeys, k) {
			unknown = append(unknown, fmt.Sprintf("%s", rules.Quote(k)))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return o, fmt.Errorf("%w: unknown option %s (known: %s)", env.ErrInvalidOptions, strings.Join(unknown, ", "), strings.Join(optionKeys, ", "))
	}
	for k, v := range raw {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(raw, k)
		}
	}
	var j optionsJSON
	for k, v := range raw {
		one, _ := json.Marshal(map[string]json.RawMessage{k: v})
		if err := json.Unmarshal(one, &j); err != nil {
			return o, fmt.Errorf("%w: option %s: %s is not a valid value (%v)", env.ErrInvalidOptions, rules.Quote(k), v, err)
		}
	}
	var err error
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&o.Rules.Players, j.Players)
	set(&o.MaxSteps, j.MaxSteps)
	set(&o.Rules.TurnLimit, j.TurnLimit)
	set(&o.Rules.ContainersPerColour, j.ContainersPerColour)
	set(&o.Rules.GoldContainers, j.GoldContainers)
	set(&o.Rules.Warehouses, j.Warehouses)
	set(&o.Rules.FactoriesPerColour, j.FactoriesPerColour)
	if j.Rules != nil {
		if o.Rules.Variant, err = rules.ParseVariant(*j.Rules); err != nil {
			return o, fmt.Errorf("%w: option \"rules\": %w", env.ErrInvalidOptions, err)
		}
	}
	if j.Length != nil {
		if o.Rules.Length, err = rules.ParseLength(*j.Length); err != nil {
			return o, fmt.Errorf("%w: option \"length\": %w", env.ErrInvalidOptions, err)
		}
	}
	if j.Modules != nil {
		if o.Rules.Modules, err = rules.ParseModules(*j.Modules); err != nil {
			return o, fmt.Errorf("%w: option \"modules\": %w", env.ErrInvalidOptions, err)
		}
	}
	if j.Reward != nil {
		if o.Reward, err = env.ParseRewardScheme(*j.Reward); err != nil {
			return o, fmt.Errorf("%w: option \"reward\": %w", env.ErrInvalidOptions, err)
		}
	}
	if j.Dense != nil {
		o.Dense = *j.Dense
	}
	if j.MarginScale != nil {
		o.MarginScale = *j.MarginScale
	}
	if j.HideOpponentCash != nil {
		o.HideOpponentCash = *j.HideOpponentCash
	}
	return o, o.Validate()
}

// optionsOut is what OptionsJSON reports: every key with its value, names as text.
func optionsOut(o env.Options) map[string]any {
	return map[string]any{
		"players": o.Rules.Players, "rules": o.Rules.Variant.String(), "length": o.Rules.Length.String(),
		"modules": o.Rules.Modules.String(), "reward": o.Reward.String(), "dense": o.Dense,
		"max_steps": o.MaxSteps, "margin_scale": o.MarginScale, "hide_opponent_cash": o.HideOpponentCash,
		"turn_limit": o.Rules.TurnLimit, "containers_per_colour": o.Rules.ContainersPerColour,
		"gold_containers": o.Rules.GoldContainers, "warehouses": o.Rules.Warehouses,
		"factories_per_colour": o.Rules.FactoriesPerColour,
	}
}
