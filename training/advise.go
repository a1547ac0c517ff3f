package training

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

// Advise implements bots.Advisor: the network's probability of each legal action (softmax at
// temperature 1 over the legal actions) and its value estimate of every seat, converted from
// seats relative to the decider to absolute seats.
func (b *NetBot) Advise(view *rules.State, legal []int) (bots.Advice, error) {
	if len(legal) == 0 {
		return bots.Advice{}, fmt.Errorf("training: bot %s: %w", b.name, bots.ErrNoLegalAction)
	}
	b.grow(1)
	if !b.encodeRow(0, view, legal) {
		err := b.err
		if err == nil {
			err = errors.New("the network cannot read this position")
		}
		return bots.Advice{}, fmt.Errorf("training: bot %s: %w", b.name, err)
	}
	cfg := b.net.Config()
	values := make([]float32, cfg.ValueDim)
	b.net.Forward(&b.wss[0], 1, b.obs, b.mask, b.logits, values)
	row := b.logits[:cfg.NumActions]
	SoftmaxRow(row, 1)
	adv := bots.Advice{Probs: make([]float64, len(legal))}
	for i, a := range legal {
		if a >= 0 && a < len(row) {
			adv.Probs[i] = float64(row[a])
		}
	}
	n := view.Game().Options().Players
	if len(values) >= n {
		d := view.Decision().Decider
		adv.Values = make([]float64, n)
		for rel := 0; rel < n; rel++ {
			adv.Values[(d+rel)%n] = float64(values[rel])
		}
	}
	return adv, nil
}

// nets shares one Net per weights: a Net is read-only and safe for concurrent use, and its
// transposed policy weights are the largest part of a bot (about 120 KB), so bots made from
// the same weights (many games at once in `container serve`, tournaments) share it. Entries
// are keyed weakly and dropped when the weights are collected.
var (
	netsMu sync.Mutex
	nets   = map[weak.Pointer[Weights]]*Net{}
)

func sharedNet(w *Weights) (*Net, error) {
	k := weak.Make(w)
	netsMu.Lock()
	n := nets[k]
	netsMu.Unlock()
	if n != nil {
		return n, nil
	}
	n, err := NewNet(w)
	if err != nil {
		return nil, err
	}
	netsMu.Lock()
	defer netsMu.Unlock()
	if old := nets[k]; old != nil {
		return old, nil
	}
	nets[k] = n
	runtime.AddCleanup(w, func(k weak.Pointer[Weights]) {
		netsMu.Lock()
		delete(nets, k)
		netsMu.Unlock()
	}, k)
	return n, nil
}
