package search

import (
	"math/rand/v2"

	"github.com/container-rl/container/env/rules"
)

// rootVisits returns the root visit count and the summed outcome of seat's legal action a,
// all workers together (after a search).
func (b *Bot) rootVisits(a, seat int) (n int, v float64) {
	for _, w := range b.workers {
		if e := w.rootEdge(a, seat); e != nil {
			n += int(e.visits)
			v += e.value
		}
	}
	return n, v
}

// sampleVisits draws one of legal in proportion to its root visits (Config.Explore), from a
// generator seeded by the search's seed, so a seed still gives the same game. best is
// returned when no move was visited.
func (b *Bot) sampleVisits(legal []int, seat int, base uint64, best int) int {
	total := 0
	for _, a := range legal {
		n, _ := b.rootVisits(a, seat)
		total += n
	}
	if total == 0 {
		return best
	}
	r := rand.New(rand.NewPCG(base, 0x6578706c6f7265)).IntN(total)
	for _, a := range legal {
		n, _ := b.rootVisits(a, seat)
		if r < n {
			return a
		}
		r -= n
	}
	return best
}

// ActPolicy is Act that also reports what the search found (the selfplay package's
// PolicyBot, so `container selfplay --record-policy` and `container train exit` record it):
// probs[a] (length rules.NumDistinctActions(), cleared by the caller) becomes the share of
// the root visits that went to legal action a, and the value returned is the deciding
// seat's mean outcome over those visits mapped from 0..1 to the rank reward scale -1..1. A
// single legal action is played without a search: probability 1, value 0.
func (b *Bot) ActPolicy(view *rules.State, legal []int, probs []float32) (int, float32) {
	a := b.Act(view, legal)
	if len(legal) < 2 {
		if len(legal) == 1 && legal[0] >= 0 && legal[0] < len(probs) {
			probs[legal[0]] = 1
		}
		return a, 0
	}
	seat := view.CurrentPlayer()
	total, sum := 0, 0.0
	for _, x := range legal {
		n, v := b.rootVisits(x, seat)
		if x >= 0 && x < len(probs) {
			probs[x] = float32(n)
		}
		total += n
		sum += v
	}
	if total == 0 { // no simulation reached a decision of this seat: the move played
		for _, x := range legal {
			if x >= 0 && x < len(probs) {
				probs[x] = 0
			}
		}
		if a >= 0 && a < len(probs) {
			probs[a] = 1
		}
		return a, 0
	}
	for _, x := range legal {
		if x >= 0 && x < len(probs) {
			probs[x] /= float32(total)
		}
	}
	return a, float32(2*sum/float64(total) - 1)
}
