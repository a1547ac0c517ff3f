package training

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/env/search"
	"github.com/container-rl/container/models"
)

// SearchEvaluator lets a trained network guide the ismcts search (search.Evaluator): the
// policy head's softmax over the legal actions is the prior, the value head (one output per
// seat, relative to the decider, trained on rank rewards in [-1, 1]) the leaf value, mapped
// to 0..1 per absolute seat. One SearchEvaluator serves one goroutine.
type SearchEvaluator struct {
	bot    *NetBot
	values []float32
}

// NewSearchEvaluator wraps a bot file's network for games with opts (refused when the
// network was made for other options).
func NewSearchEvaluator(name string, f *BotFile, opts rules.Options) (*SearchEvaluator, error) {
	b, err := NewNetBot(name, f, &opts, 0)
	if err != nil {
		return nil, err
	}
	return &SearchEvaluator{bot: b, values: make([]float32, b.net.Config().ValueDim)}, nil
}

// Evaluate implements search.Evaluator.
func (e *SearchEvaluator) Evaluate(view *rules.State, legal []int, prior, value []float32) error {
	b := e.bot
	b.grow(1)
	if !b.encodeRow(0, view, legal) {
		return b.err
	}
	b.net.Forward(&b.wss[0], 1, b.obs, b.mask, b.logits, e.values)
	A := b.net.Config().NumActions
	top := float32(math.Inf(-1))
	for _, a := range legal {
		if a >= 0 && a < A && b.logits[a] > top {
			top = b.logits[a]
		}
	}
	sum := float32(0)
	for i, a := range legal {
		p := float32(0)
		if a >= 0 && a < A {
			p = float32(math.Exp(float64(b.logits[a] - top)))
		}
		prior[i] = p
		sum += p
	}
	for i := range prior {
		if sum > 0 {
			prior[i] /= sum
		} else {
			prior[i] = 1 / float32(len(prior))
		}
	}
	d, n := view.CurrentPlayer(), len(value)
	for r := 0; r < n; r++ {
		v := float32(0)
		if r < len(e.values) {
			v = e.values[r]
		}
		value[(d+r)%n] = min(1, max(0, (v+1)/2))
	}
	return nil
}

// valueNames lists the names of the embedded value networks, each once.
func valueNames() []string {
	var names []string
	if m, err := models.Load(); err == nil {
		for _, e := range m.Models {
			if e.Status == models.Value && !slices.Contains(names, e.Name) {
				names = append(names, e.Name)
			}
		}
	}
	return names
}

func init() {
	search.RegisterNets(func(name string, opts rules.Options) (search.Evaluator, error) {
		if name == bots.DefaultName {
			f, err := DefaultBotFor(opts)
			if err != nil {
				return nil, err
			}
			return NewSearchEvaluator(name, f, opts)
		}
		if !bots.IsFileName(name) {
			f, ok, err := ValueBotFor(name, opts)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("training: %s: want %q, a value network's name (%s) or a path to a .bot file", name, bots.DefaultName, strings.Join(valueNames(), ", "))
			}
			return NewSearchEvaluator(name, f, opts)
		}
		b, err := LoadBotForGame(name, opts, 0)
		if err != nil {
			return nil, err
		}
		return &SearchEvaluator{bot: b, values: make([]float32, b.net.Config().ValueDim)}, nil
	})
}
