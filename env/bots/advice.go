package bots

import "github.com/container-rl/container/env/rules"

// Advice is what a bot that can explain itself thinks of a decision: a probability for each
// legal action and its estimate of every seat's return.
type Advice struct {
	// Probs[i] is the probability the bot gives to legal[i] (they sum to 1).
	Probs []float64
	// Values is the bot's estimate of each seat's return from this position, indexed by
	// absolute seat (nil when the bot has no value estimate). The scale is the reward scheme
	// the bot was trained with (win-loss: about -1 to 1).
	Values []float64
}

// Advisor is implemented by bots that can report their policy and value for a position
// (trained bots). Advise reads the bot's own redacted view and the legal action ids, like
// Act, and must not keep them; an error says why the bot cannot advise on this position.
type Advisor interface {
	Advise(view *rules.State, legal []int) (Advice, error)
}
