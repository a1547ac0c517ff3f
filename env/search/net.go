package search

import (
	"errors"
	"fmt"
	"sync"

	"github.com/container-rl/container/env/rules"
)

// Evaluator is a model that guides the search (a trained network): for a position seen by
// its deciding seat it gives a prior over the legal actions and each seat's expected outcome.
// One Evaluator serves one goroutine; the search makes one per worker.
type Evaluator interface {
	// Evaluate reads view, the deciding seat's redacted view, and legal, its legal actions in
	// ascending order. It writes prior[i], the probability of legal[i] (they sum to 1), and
	// value[s], seat s's expected outcome from 0 (certain loss) to 1 (certain win), for every
	// seat s of the game (absolute seats).
	Evaluate(view *rules.State, legal []int, prior []float32, value []float32) error
}

// NetFactory makes an Evaluator called name ("default", or a .bot file) for games with opts;
// it refuses, with an error saying what differs, a network made for other options.
type NetFactory func(name string, opts rules.Options) (Evaluator, error)

// ErrNoNets is returned when a spec names a net but no package registered a NetFactory (the
// training package does).
var ErrNoNets = errors.New("search: no network support in this program (the training package registers it)")

var (
	netMu      sync.RWMutex
	netFactory NetFactory
)

// RegisterNets sets the factory that turns a spec's net=NAME into an Evaluator; the
// training package calls it, the way it registers the default bot.
func RegisterNets(f NetFactory) {
	netMu.Lock()
	defer netMu.Unlock()
	netFactory = f
}

func newEvaluator(name string, opts rules.Options) (Evaluator, error) {
	netMu.RLock()
	f := netFactory
	netMu.RUnlock()
	if f == nil {
		return nil, fmt.Errorf("%w: net=%s", ErrNoNets, name)
	}
	return f(name, opts)
}

// splitEvaluator takes the prior from one network and the leaf values from another (spec
// value=NAME): a policy network and a value network.
type splitEvaluator struct {
	prior, value       Evaluator
	scratchV, scratchP []float32
}

// Evaluate implements Evaluator: two forward passes, one per network.
func (e *splitEvaluator) Evaluate(view *rules.State, legal []int, prior []float32, value []float32) error {
	if cap(e.scratchV) < len(value) {
		e.scratchV = make([]float32, len(value))
	}
	if cap(e.scratchP) < len(prior) {
		e.scratchP = make([]float32, len(prior))
	}
	if err := e.prior.Evaluate(view, legal, prior, e.scratchV[:len(value)]); err != nil {
		return err
	}
	return e.value.Evaluate(view, legal, e.scratchP[:len(prior)], value)
}
