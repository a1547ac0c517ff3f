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
//   - Behaviour cloning (bc.go) and self-play PPO (ppo.go; its rollouts in rollout.go), both
//     with checkpoints that resume a killed run exactly (steps, optimizer state, RNG,
//     metrics).
//   - The run lifecycle (run.go), shared by every trainer; see "Training runs" below.
//   - Bot files (botfile.go): one file with the weights, network config, encoding version,
//     action-space layout and rules options; the loader treats the file as hostile data.
//
// The core works on plain float32 slices (observations [B*D], masks [B*A], actions, returns),
// so it does not depend on the environment, encoding or dataset packages; adapters to those
// live in their own files.
//
// # Training runs
//
// Every trainer (TrainBC, TrainPPO, TrainExIt, and any new method) drives one run through the same
// lifecycle in run.go, so that a run directory, a resume and a checkpoint mean the same thing
// for all of them:
//
//  1. openRun(runSpec) locks the run directory (internal/rundir; the spec names its Kind and
//     the checkpoint Method), removes a killed writer's temporary files, chooses the backend
//     (GOMLX_BACKEND, NewBackend) and reads RUN/checkpoint.ckpt if there is one; a checkpoint
//     of another method is refused. The trainer defers r.close(), which removes what a
//     refused start made.
//  2. r.prepare(method) calls the method's resume hook when r.ckpt is set: the method checks
//     what only it knows (BC: the data's encoding, sizes and rules; PPO: it builds the
//     options to compare), then calls r.resume(given, &saved, mayChange...), which names the
//     first setting that differs (ErrResumeMismatch), decodes the saved options and restores
//     the trainer (network, optimizer state), step, metrics and seconds; the method restores
//     its own state from r.ckpt (RNG, Extra). For a new run prepare calls the method's start
//     hook, which checks the options and calls r.fresh(init, &net, seed, hyper, ...): that
//     checks an initial network's sizes or draws new weights.
//  3. r.begin(&opts) writes RUN/run.json; from here on the directory holds the run.
//  4. r.loop(method) trains from r.Step to the spec's Steps. The method (a runMethod) trains
//     one step (step), returns the metrics row at each log point (record; every LogEvery
//     steps and the last) and fills its part of a checkpoint (save: encoding, rules, RNG,
//     Extra). The loop moves the progress bar, rewrites RUN/metrics.csv and metrics.json and
//     saves the checkpoint every CheckpointEvery steps and at the last step; r.seconds() is
//     the training time over every process, r.interval the start of the log interval.
//
// # Files by part
//
// The package is one package, so that the trainers share the run lifecycle and the network
// without exported glue; its files group by part:
//
//   - The network: config.go (NetConfig), model.go (the GoMLX graph), weights.go (the float32
//     tensors), forward.go and affine_*.go/.s (the plain-Go forward pass and its AVX kernels).
//   - Training runs: run.go (the lifecycle), trainer.go (optimiser, Hyper), shard.go (sharded
//     steps), checkpoint.go, resume.go, metrics.go, backend_xla.go (the XLA backend, build tag
//     xla).
//   - Behaviour cloning: bc.go, samples.go (rows in memory), data.go (rows from a dataset).
//   - PPO: ppo.go, rollout.go.
//   - Search-guided training (ExIt): exit.go, exit_data.go (the replay buffer), exit_step.go.
//   - Bot files and playing: botfile.go, fileformat.go (the framing, read as hostile data),
//     export.go, upgrade.go (a network moved onto another layout by input and action name),
//     nnbot.go (NetBot), advise.go (the web's advice),
//     searchnet.go (a network guiding ismcts). The shipped models themselves are data in
//     package models (models/: the .bot files, their manifest and run records).
//   - measure.go: the training-speed measurement behind `container bench --train`.
package training
