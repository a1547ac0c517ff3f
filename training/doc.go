// Package training trains policy/value networks for Container with GoMLX and exports them as
// self-contained bot files.
//
// It is the only package of the toolkit that imports GoMLX. The pieces:
//
//   - NetConfig and the network (model.go): an MLP trunk with optional layer normalisation, a
//     policy head over every distinct action id with illegal actions masked out before the
//     softmax, and a value head predicting each seat's outcome (seats relative to the decider).
//   - Net (forward.go): a plain-Go forward pass over the float32 weights, used for inference by
//     exported bots and PPO rollouts; tests check it against the GoMLX graph.
//   - Behaviour cloning (bc.go) and self-play PPO (ppo.go), both with checkpoints that resume
//     a killed run exactly (steps, optimizer state, RNG, metrics).
//   - Bot files (botfile.go): one file with the weights, network config, encoding version,
//     action-space layout and rules options; the loader treats the file as hostile data.
//
// The core works on plain float32 slices (observations [B*D], masks [B*A], actions, returns),
// so it does not depend on the environment, encoding or dataset packages; adapters to those
// live in their own files.
package training
