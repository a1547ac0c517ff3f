package bots

import (
	"errors"

	"github.com/container-rl/container/env/rules"
)

// Bot is a player. Act receives the bot's own redacted view of the position (whose
// Decision() names the pending choice and its decider, the bot's seat) and the legal action
// ids in ascending order, and returns one of them. Act must not keep view or legal after it
// returns: the caller reuses both.
type Bot interface {
	Name() string
	Act(view *rules.State, legal []int) int
}

// BatchBot is implemented by bots that decide faster in batches (trained bots running a
// network): out[i] is the action for views[i] with legal actions legal[i].
type BatchBot interface {
	Bot
	ActBatch(views []*rules.State, legal [][]int, out []int)
}

// Factory makes a bot for games with opts from a seed; the same seed gives a bot that plays
// the same way. A bot that cannot play games with opts (a trained network made for other
// options) returns an error saying what differs instead of a bot.
type Factory func(opts rules.Options, seed uint64) (Bot, error)

// Errors returned by the registry.
var (
	// ErrUnknownBot is wrapped when a name resolves to no registered bot.
	ErrUnknownBot = errors.New("bots: unknown bot")
	// ErrBadSpec is wrapped when a bot spec's "@T" temperature suffix is malformed or the bot
	// cannot sample.
	ErrBadSpec = errors.New("bots: bad bot spec")
	// ErrDuplicateBot is wrapped when a name is registered twice.
	ErrDuplicateBot = errors.New("bots: bot already registered")
	// ErrNoLegalAction is wrapped when a bot is asked to act with no legal action.
	ErrNoLegalAction = errors.New("bots: no legal action")
)

// Seeder is implemented by bots that can be reseeded for a new game instead of being made
// again; tournaments reuse such bots across games (a trained bot loads its weights once).
// After Seed(s) the bot must play exactly as a fresh bot made with seed s.
type Seeder interface {
	Seed(seed uint64)
}

// Fingerprinter is implemented by bots whose play depends on data beyond their name (a
// trained network): Fingerprint is a content hash of that data (hex SHA-256), so a dataset
// can record which network played under a name and refuse to mix two.
type Fingerprinter interface {
	Fingerprint() string
}
