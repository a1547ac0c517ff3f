// Package env wraps the Container rules engine (env/rules) as a multi-agent reinforcement-
// learning environment in the style of PettingZoo's agent-by-agent (AEC) API.
//
// An [Env] is one game. [Env.Reset] starts it from a seed; [Env.Agent] is the seat deciding
// now (not always the active player: sealed bids, loan offers and seizure choices are made
// by others); [Env.Step] applies that seat's action id and returns the next decider's
// observation and mask, this step's reward for every seat, terminated/truncated flags and an
// [Info]. Observations and masks come from package encoding and are written into buffers
// the Env owns, so stepping allocates nothing.
//
// Rewards are sparse: zero until the step that ends the game, then the [RewardScheme]'s
// final reward for every seat (win/loss sums to 1, rank and cash margin sum to 0).
// Options.MaxSteps truncates long episodes (zero rewards).
//
// A [VecEnv] runs N games in lockstep on worker goroutines, writing observations and masks
// into contiguous [N x D] and [N x A] buffers for one batched network call and resetting
// finished games with seeds derived from one base seed ([GameSeed]).
//
// [Check] is an environment checker (like Gymnasium's check_env and PettingZoo's api_test)
// for any options: bounds, masks, determinism, hidden-information leaks, reward sums.
//
// docs/ENV.md describes the observation layout, the reward schemes and the VecEnv.
package env
