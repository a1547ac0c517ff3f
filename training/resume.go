package training

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// ErrResumeMismatch is returned when a run is resumed with settings that differ from the
// ones it was started with (a resumed run must continue the same experiment).
var ErrResumeMismatch = errors.New("training: the run was started with other settings")

// settingFlags names the command-line flag of each option setting, for messages.
var settingFlags = map[string]string{
	"batch": "--batch", "log_every": "--log-every", "checkpoint_every": "--checkpoint-every",
	"val_percent": "--val-percent", "seed": "--seed", "net.width": "--width", "net.depth": "--depth",
	"net.norm": "--norm", "hyper.learning_rate": "--lr", "hyper.value_coef": "--value-coef",
	"hyper.entropy_coef": "--entropy-coef", "data": "--data/--teachers/--games/--record",
	"games": "--games", "epochs": "--epochs", "minibatch": "--minibatch", "opponents": "--opponents",
	"pool_every": "--pool-every", "snapshot_every": "--snapshot-every", "eval_every": "--eval-every", "eval_games": "--eval-games",
	"eval_opponent": "--eval-opponent", "reward": "--reward", "hide_opponent_cash": "--hide-opponent-cash",
	"max_steps": "--max-steps", "init_from": "--init", "rules.players": "--players", "rules.variant": "--rules",
	"rules.length": "--length", "rules.modules": "--modules", "rules.turn_limit": "--turn-limit",
	"buffer": "--buffer", "hyper.value_only": "--value-only",
}

// optionalSettings are the settings a run records only when they are set (omitempty; zero
// means the feature is off, as it was in the builds that predate them): a saved run without
// one was started without it, so giving it now is a change, and leaving it out (or giving its
// zero value) is not. A saved run without any other setting is of an earlier build and that
// setting is not compared.
var optionalSettings = map[string]bool{"rollout": true, "expert": true, "hide_opponent_cash": true, "max_steps": true,
	"gate_opponent_drop": true, "hyper.value_only": true}

// notSet is how a setting left out or at its zero value reads in resume messages.
const notSet = "(not set)"

// flatten turns a JSON object into dotted keys and their compact JSON values.
func flatten(prefix string, raw json.RawMessage, out map[string]string) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil && len(raw) > 0 && raw[0] == '{' {
		for k, v := range obj {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			flatten(key, v, out)
		}
		return
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(raw)
	}
	out[prefix] = b.String()
}

// compareSettings compares the options a run was started with (saved, as JSON) with the
// ones given to resume it, skipping the keys in mayChange. A key the saved options lack (a
// run of an earlier build) is not compared, except the optionalSettings (the run was started
// without them). The error names the first differing setting.
func compareSettings(run string, saved json.RawMessage, given any, mayChange ...string) error {
	g, err := json.Marshal(given)
	if err != nil {
		return fmt.Errorf("training: %w", err)
	}
	old, now := map[string]string{}, map[string]string{}
	flatten("", saved, old)
	flatten("", g, now)
	skip := map[string]bool{"out": true}
	for _, k := range mayChange {
		skip[k] = true
	}
	keys := make([]string, 0, len(now)+len(old))
	for k := range now {
		keys = append(keys, k)
	}
	for k := range old {
		if _, ok := now[k]; !ok {
			keys = append(keys, k) // a setting left at its zero value (omitted from the JSON)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		was, ok := old[k]
		is, given := now[k]
		if !given {
			is = notSet
		}
		if optionalSettings[k] {
			was, ok = optionalValue(was, ok), true
			is = optionalValue(is, given)
		}
		if skip[k] || !ok || was == is {
			continue
		}
		name := k
		if f, ok := settingFlags[k]; ok {
			name = k + " (" + f + ")"
		}
		return fmt.Errorf("%w: %s was started with %s %s, this command gives %s; only %s may change when resuming (use another --out for a new run)",
			ErrResumeMismatch, run, name, was, is, mayChangeText(mayChange))
	}
	return nil
}

// optionalValue is an optional setting's compact JSON value as compared on resume: notSet
// when it is absent or zero.
func optionalValue(v string, present bool) string {
	switch {
	case !present, v == `""`, v == "0", v == "false", v == "null", v == notSet:
		return notSet
	}
	return v
}

func mayChangeText(keys []string) string {
	var s string
	for i, k := range keys {
		if i > 0 {
			s += ", "
		}
		if f, ok := settingFlags[k]; ok {
			k = f
		} else {
			k = "--" + strings.ReplaceAll(k, "_", "-")
		}
		s += k
	}
	return s
}

// sameGame compares the rules options of a run (or a network) with others, seeds aside, and
// names the first difference. Turn limits and supply overrides count only when strict.
func sameGame(a, b rules.Options, strict bool) string {
	a.Seed, b.Seed = 0, 0
	switch {
	case a.Players != b.Players:
		return fmt.Sprintf("%d players, not %d", a.Players, b.Players)
	case a.Variant != b.Variant:
		return fmt.Sprintf("%s rules, not %s", a.Variant, b.Variant)
	case a.Modules != b.Modules:
		return fmt.Sprintf("modules %q, not %q", a.Modules.String(), b.Modules.String())
	case a.Length != b.Length:
		return fmt.Sprintf("%s length, not %s", a.Length, b.Length)
	case strict && a != b:
		x, _ := json.Marshal(a)
		y, _ := json.Marshal(b)
		return fmt.Sprintf("options %s, not %s", x, y)
	}
	return ""
}

// checkInit refuses an initial network made for another observation encoding or other games
// than the run's: enc is the encoding the run observes its games in (runSees says so in the
// message, e.g. "the data is"), games the run's games. Unknown encoding or games (empty,
// nil: a network given as weights only) are not checked.
func checkInit(from, initEnc string, initRules *rules.Options, enc, runSees string, games rules.Options) error {
	if initEnc != "" && initEnc != enc {
		return fmt.Errorf("%w: initial network %s reads encoding %s; %s %s", ErrIncompatible, from, initEnc, runSees, enc)
	}
	if initRules != nil {
		if d := sameGame(*initRules, games, false); d != "" {
			return fmt.Errorf("%w: initial network %s was trained for games with %s", ErrIncompatible, from, d)
		}
	}
	return nil
}
