// Package rules is the Container rules engine: the 10th Anniversary rules with the Off-Shore
// Bank, the Classic variant and the More Containers modules (Truck Companies, Player Loans,
// Luxury Containers), for 3 to 5 players and every game length.
//
// The package imports only the standard library (a test enforces it).
//
// # Shape
//
// A [Game] holds the immutable facts of a configuration ([Options], the number of distinct
// actions, the longest possible game). A [State] holds one position. Every choice any player
// makes is an atomic decision with an explicit decider ([State.CurrentPlayer]), who need not
// be the active player: sealed delivery bids, the right-hand player's choices in a default, an
// outbid player putting containers back, loan offers.
//
// Decisions are integer actions in [0, Game.NumDistinctActions()) and rich [Move] values; the
// two convert both ways ([State.ActionToMove], [State.MoveToAction]) and moves have a short
// text notation ([Move.String], [State.ParseMove]). [State.Apply] is the fast unchecked path
// for self-play; [State.ApplyChecked] validates and returns an error wrapping
// [ErrIllegalAction], leaving the state untouched.
//
// The board is exported ([State.Players], [State.Bank], ...); the decision machinery behind
// the pending decision is private. [State.Decision] is its only door: the pending [Phase] and
// decider, the amount range, and what every player knows of the machine by area (turn
// counters, the action in progress, the Bank bid, a default, a payment to the Bank, the
// delivery auction, interest, a player-loan request). [State.DecisionFor] zeroes the sealed
// values a seat may not see, as its redacted view ([State.Redact]) does.
//
// Files, one concept each: options.go, supply.go (the pieces each option gives) and game.go;
// state.go (the board) and machine.go (the private machine); decision.go (the public
// decision); move.go and notation.go (moves and their text); legal.go and apply.go; the rule
// processes (turn.go, arrange.go, bank.go, delivery.go, loans.go, playerloans.go, luxury.go,
// default.go, endtrigger.go); setup.go and scoring.go; clone.go, hash.go and redact.go; the
// JSON position format (position_text.go, position_json.go, position_validate.go,
// position_machine.go, position_validate_machine.go); records (record.go, record_load.go);
// limits.go, render.go, quote.go.
//
// Randomness is used only at setup, from Options.Seed: options + seed + the list of moves
// determine a game completely.
//
// docs/RULES.md (in the repository root) documents every rule, the readings chosen where the
// texts are open, and the decision/action layout.
package rules
