// Package bots defines the Bot interface every kind of player implements (random, scripted,
// trained, human), a registry that resolves bot names, and the random and scripted bots.
//
// A bot sees only its own redacted view of the game (rules.State.Redact for its seat, with
// Decision describing the pending choice) and the legal action ids, and returns one of those
// ids. Bots are deterministic given the seed their factory was called with.
//
// Every game loop (tournaments, self-play, training data, the terminal and web games, the C
// API) asks its bots through a Seat, which computes the legal actions, redacts the position
// for the decider and checks the bot's answer, so no loop can show a bot more than its seat
// may see or apply an action it did not check; Batch does the same for a BatchBot deciding
// for many games in one call.
//
// The scripted bots (manufacturer, shipper, valuer) are documented in docs/BOTS.md; they are
// the teachers for behaviour cloning, so they play the real game: they build, produce, trade,
// ship, bid on deliveries from their own scoring card, use loans and the Off-Shore Bank, and
// the module features when the modules are on.
package bots
