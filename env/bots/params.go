package bots

import (
	"fmt"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// ParamFactory makes a bot from the parameters of a spec "NAME:PARAMS" ("" when the spec is
// the bare NAME). Like a Factory it may refuse the options; it also refuses bad parameters
// with an error naming the key and the accepted ones.
type ParamFactory func(params string, opts rules.Options, seed uint64) (Bot, error)

// ParamChecker checks the parameters of a spec without making a bot (Resolve uses it, so a
// tournament refuses a bad spec before any game starts).
type ParamChecker func(params string) error

// paramBots holds the bots registered with RegisterParams, by name.
var paramBots = map[string]struct {
	make  ParamFactory
	check ParamChecker
}{}

// RegisterParams registers a bot that takes parameters: "NAME" and "NAME:key=value,..."
// both make it, the text after the colon handed to f (and to check, which may be nil).
func RegisterParams(name, description string, check ParamChecker, f ParamFactory) error {
	if f == nil {
		return fmt.Errorf("bots: nil factory for %q", name)
	}
	if strings.ContainsRune(name, ':') {
		return fmt.Errorf("bots: invalid bot name %q", name)
	}
	if err := Register(name, description, func(opts rules.Options, seed uint64) (Bot, error) { return f("", opts, seed) }); err != nil {
		return err
	}
	regMu.Lock()
	defer regMu.Unlock()
	paramBots[name] = struct {
		make  ParamFactory
		check ParamChecker
	}{f, check}
	return nil
}

// splitParams splits "NAME:PARAMS" when NAME is a bot registered with RegisterParams; ok is
// false for every other spec (a plain name, a bot file).
func splitParams(spec string) (name, params string, ok bool) {
	i := strings.IndexByte(spec, ':')
	if i < 0 {
		return spec, "", false
	}
	regMu.RLock()
	_, ok = paramBots[spec[:i]]
	regMu.RUnlock()
	if !ok {
		return spec, "", false
	}
	return spec[:i], spec[i+1:], true
}

// IsParamSpec reports whether spec is "NAME:PARAMS" for a bot registered with
// RegisterParams (such as "ismcts:net=runs/x.bot"): a spec, not a bot file, even when it
// names a file among its parameters.
func IsParamSpec(spec string) bool {
	_, _, ok := splitParams(spec)
	return ok
}

// resolveParams checks a "NAME:PARAMS" spec; handled is false when spec is not one.
func resolveParams(spec string) (handled bool, err error) {
	name, params, ok := splitParams(spec)
	if !ok {
		return false, nil
	}
	regMu.RLock()
	pb := paramBots[name]
	regMu.RUnlock()
	if pb.check != nil {
		if err := pb.check(params); err != nil {
			return true, fmt.Errorf("%w: %q: %v", ErrBadSpec, spec, err)
		}
	}
	return true, nil
}

// newParams makes the bot of a "NAME:PARAMS" spec; handled is false when spec is not one.
func newParams(spec string, opts rules.Options, seed uint64) (b Bot, handled bool, err error) {
	name, params, ok := splitParams(spec)
	if !ok {
		return nil, false, nil
	}
	regMu.RLock()
	pb := paramBots[name]
	regMu.RUnlock()
	b, err = pb.make(params, opts, seed)
	if err != nil {
		return nil, true, fmt.Errorf("bots: making %q: %w", spec, err)
	}
	return b, true, nil
}

// SplitAgents splits a comma-separated list of bot specs. A spec with parameters keeps its
// own commas: in "ismcts:sims=800,rollout=valuer,valuer" the piece "rollout=valuer" (a
// key=value with no colon) continues the spec before it, and "valuer" starts the next one.
// Blank pieces are dropped and each spec is trimmed.
func SplitAgents(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if n := len(out); n > 0 && strings.ContainsRune(out[n-1], ':') && strings.ContainsRune(p, '=') &&
			!strings.ContainsRune(p, ':') && !IsFileName(strings.SplitN(p, "=", 2)[0]) {
			out[n-1] += "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}
