package bots

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/container-rl/container/env/rules"
)

// Info describes a registered bot.
type Info struct {
	Name        string
	Description string
	Factory     Factory
}

// FileLoader loads a trained bot from a file; the training package sets one with
// RegisterFileLoader.
type FileLoader func(path string, opts rules.Options, seed uint64) (Bot, error)

var (
	regMu      sync.RWMutex
	registry   = map[string]Info{}
	fileLoader FileLoader
)

// DefaultName is the name under which the training package registers the shipped trained bot.
const DefaultName = "default"

// Register adds a bot under name (lower case, no path separators). It returns an error
// wrapping ErrDuplicateBot if the name is taken.
func Register(name, description string, f Factory) error {
	if name == "" || strings.ContainsAny(name, "/\\,@") || strings.HasSuffix(name, ".bot") {
		return fmt.Errorf("bots: invalid bot name %s", rules.Quote(name))
	}
	if f == nil {
		return fmt.Errorf("bots: nil factory for %q", name)
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, ok := registry[name]; ok {
		return fmt.Errorf("%w: %q", ErrDuplicateBot, name)
	}
	registry[name] = Info{Name: name, Description: description, Factory: f}
	return nil
}

// mustRegister is Register for the bots of this package (a failure is a programming error).
func mustRegister(name, description string, f Factory) {
	if err := Register(name, description, f); err != nil {
		panic(err)
	}
}

// RegisterFileLoader sets the loader used for names that are bot files (ending in ".bot" or
// containing a path separator).
func RegisterFileLoader(l FileLoader) {
	regMu.Lock()
	defer regMu.Unlock()
	fileLoader = l
}

// IsFileName reports whether name refers to a bot file rather than a registered bot.
func IsFileName(name string) bool {
	return strings.HasSuffix(name, ".bot") || strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/')
}

// List returns the registered bots sorted by name.
func List() []Info {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Info, 0, len(registry))
	for _, i := range registry {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Lookup returns the registered bot called name.
func Lookup(name string) (Info, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	i, ok := registry[name]
	return i, ok
}

// Resolve checks that name can be made into a bot without making one: a registered name, or
// a file name when a file loader is set.
func Resolve(name string) error {
	name, _, _, err := SplitTemperature(name)
	if err != nil {
		return err
	}
	if handled, err := resolveParams(name); handled {
		return err
	}
	if IsFileName(name) {
		regMu.RLock()
		l := fileLoader
		regMu.RUnlock()
		if l == nil {
			return fmt.Errorf("%w: %s is a bot file but no file loader is registered (the training package provides it)", ErrUnknownBot, rules.Quote(name))
		}
		return nil
	}
	if _, ok := Lookup(name); !ok {
		return unknown(name)
	}
	return nil
}

func unknown(name string) error {
	var names []string
	for _, i := range List() {
		names = append(names, i.Name)
	}
	hint := ""
	if name == DefaultName {
		hint = "; the default trained bot is registered by the training package"
	}
	return fmt.Errorf("%w: %s (known: %s, or a path/to/file.bot)%s", ErrUnknownBot, rules.Quote(name), strings.Join(names, ", "), hint)
}

// New makes the bot called name for games with opts: a registered bot (its factory gets opts
// and may refuse them), or a trained bot file loaded by the file loader with opts.
//
// A name may end in "@T" (default@0.5, runs/p4.bot@1) to make a bot that samples its moves
// at temperature T instead of playing its best move; only bots implementing
// TemperatureSetter (trained bots) accept it.
func New(spec string, opts rules.Options, seed uint64) (Bot, error) {
	name, temp, sampled, err := SplitTemperature(spec)
	if err != nil {
		return nil, err
	}
	b, err := newBot(name, opts, seed)
	if err != nil || !sampled {
		return b, err
	}
	ts, ok := b.(TemperatureSetter)
	if !ok {
		return nil, fmt.Errorf("%w: %s: %s always plays by its own rules; a temperature (@T) applies to trained bots only", ErrBadSpec, rules.Quote(spec), rules.Quote(name))
	}
	if err := ts.SetTemperature(temp); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadSpec, rules.Quote(spec), err)
	}
	return b, nil
}

// TemperatureSetter is implemented by bots that can sample from a policy: temperature 0
// plays the most likely move, T > 0 samples from the policy's softmax at T.
type TemperatureSetter interface {
	SetTemperature(t float64) error
}

// MaxTemperature bounds the temperature a spec may ask for.
const MaxTemperature = 100

// SplitTemperature splits a bot spec "NAME@T" into NAME and the temperature T (sampled
// reports whether "@T" was given). A spec without "@", or a bot file name with an "@" inside
// (runs/model@v2.bot), is returned as it is.
func SplitTemperature(spec string) (name string, temp float64, sampled bool, err error) {
	i := strings.LastIndexByte(spec, '@')
	if i < 0 || strings.HasSuffix(spec, ".bot") {
		return spec, 0, false, nil
	}
	name, t := spec[:i], spec[i+1:]
	v, perr := strconv.ParseFloat(t, 64)
	if name == "" || perr != nil || math.IsNaN(v) || v < 0 || v > MaxTemperature {
		return "", 0, false, fmt.Errorf("%w: %s: want NAME@T with a temperature T from 0 to %d after the @ (e.g. default@0.5)", ErrBadSpec, rules.Quote(spec), MaxTemperature)
	}
	return name, v, true, nil
}

func newBot(name string, opts rules.Options, seed uint64) (Bot, error) {
	if b, handled, err := newParams(name, opts, seed); handled {
		return b, err
	}
	if IsFileName(name) {
		regMu.RLock()
		l := fileLoader
		regMu.RUnlock()
		if l == nil {
			return nil, Resolve(name)
		}
		b, err := l(name, opts, seed)
		if err != nil {
			return nil, fmt.Errorf("bots: loading %s: %w", rules.Quote(name), err)
		}
		return b, nil
	}
	i, ok := Lookup(name)
	if !ok {
		return nil, unknown(name)
	}
	b, err := i.Factory(opts, seed)
	if err != nil {
		return nil, fmt.Errorf("bots: making %s: %w", rules.Quote(name), err)
	}
	return b, nil
}
