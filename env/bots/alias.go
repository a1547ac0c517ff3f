package bots

import (
	"errors"
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// ErrNoAliasTarget is wrapped by the error of an alias none of whose agents can play a
// game's options.
var ErrNoAliasTarget = errors.New("bots: no agent of this alias plays these options")

// aliases holds the targets of the names registered with RegisterAlias.
var aliases = map[string][]string{}

// RegisterAlias registers name as another name for an agent spec: the first of targets
// (registered names, "NAME:PARAMS" specs or bot files, resolved through the registry each
// time a bot is made, so this package imports none of the packages that register them) that
// can be made for a game's options. A later target is a fallback for options an earlier one
// refuses (a trained network with no model for them). A target may not be an alias itself.
//
// An alias is an ordinary registered bot: Lookup, List, Resolve and New see it, and every
// command, the web app and the C API accept it wherever they accept a bot name.
func RegisterAlias(name, description string, targets ...string) error {
	if len(targets) == 0 {
		return fmt.Errorf("bots: alias %q has no target", name)
	}
	for _, t := range targets {
		if strings.TrimSpace(t) == "" || t == name {
			return fmt.Errorf("bots: alias %q: invalid target %q", name, t)
		}
		regMu.RLock()
		_, isAlias := aliases[t]
		regMu.RUnlock()
		if isAlias {
			return fmt.Errorf("bots: alias %q: target %q is an alias itself", name, t)
		}
	}
	ts := append([]string(nil), targets...)
	err := Register(name, description, func(opts rules.Options, seed uint64) (Bot, error) {
		return newAlias(name, ts, opts, seed)
	})
	if err != nil {
		return err
	}
	regMu.Lock()
	aliases[name] = ts
	regMu.Unlock()
	return nil
}

// AliasTargets returns the targets of an alias in the order they are tried (nil if name is
// not an alias).
func AliasTargets(name string) []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return append([]string(nil), aliases[name]...)
}

// AliasFor returns the target an alias is made from for games with opts: the first that can be
// made (made once and dropped; a trained network is loaded once per process, so this is
// cheap after the first call). A name that is not an alias is returned as it is.
func AliasFor(name string, opts rules.Options) (string, error) {
	ts := AliasTargets(name)
	if ts == nil {
		return name, nil
	}
	_, t, err := makeAlias(name, ts, opts, 0)
	return t, err
}

func newAlias(name string, targets []string, opts rules.Options, seed uint64) (Bot, error) {
	b, _, err := makeAlias(name, targets, opts, seed)
	return b, err
}

// makeAlias makes the first target that accepts opts, and says which it was.
func makeAlias(name string, targets []string, opts rules.Options, seed uint64) (Bot, string, error) {
	var why []string
	for _, t := range targets {
		b, err := New(t, opts, seed)
		if err == nil {
			return b, t, nil
		}
		why = append(why, fmt.Sprintf("%s: %v", t, err))
	}
	return nil, "", fmt.Errorf("%w: %s (%s)", ErrNoAliasTarget, rules.Quote(name), strings.Join(why, "; "))
}
