// Package eval runs tournaments between bots and summarises them: win rates with Wilson
// intervals, score breakdowns, seat (first-player) effects, game lengths, and N-player
// ratings (the Weng-Lin Bayesian approximation of the Plackett-Luce model, as in OpenSkill).
//
// Tournaments use only the bots.Bot interface, so scripted, random and trained bots are
// interchangeable. Seats are rotated so every agent plays every seat equally often, each
// game's setup and bot seeds derive from the tournament seed and the game index, and games
// run on parallel workers: a tournament gives the same result for a seed whatever the worker
// count.
package eval
