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
// Randomness is used only at setup, from Options.Seed: options + seed + the list of moves
// determine a game completely.
//
// docs/RULES.md (in the repository root) documents every rule, the readings chosen where the
// texts are open, and the decision/action layout.
package rules
