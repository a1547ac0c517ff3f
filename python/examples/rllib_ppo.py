"""Train RLlib's PPO (new API stack) on Container, one policy shared by every seat, then
measure it against three valuers with seat-rotated statistics.

    python python/examples/rllib_ppo.py --minutes 10 --env-runners 2
    python python/examples/rllib_ppo.py --minutes 40 --env-runners 2 --curve-every 5 --json run.json
    python python/examples/rllib_ppo.py --ci            # a short run (the test)
    python python/examples/rllib_ppo.py --address 127.0.0.1:6379 --env-runners 8   # on a cluster

The environment is the PettingZoo AEC env (``container_rl.pettingzoo.raw_env``) seen by
RLlib as a turn-based multi-agent env: only the seat that decides gets an observation, every
seat's reward is the project's reward (win/loss by default, ``--reward``). Action masking
goes through the observation: a dict of ``observations`` (obs-v2) and ``action_mask``, read
by RLlib's ``ActionMaskingTorchRLModule``. The env runners (the self-play games) run on the
cluster's workers; the learner on the driver's node.

The evaluation plays the trained policy (its most likely legal action) in one seat against
three ``valuer`` bots that run inside Go (``container_rl/Container-v0``), the seat rotating
game by game, and prints wins with a 95% Wilson interval as ``container eval`` does. With
``--curve-every K`` the same measurement, on ``--curve-games`` games, is taken every K minutes
of training, which gives the learning curve in wins against the valuers (the evaluation time
is not counted in the training minutes).
Needs ``ray[rllib]`` and torch (see docs/SCALE.md for the tested versions).
"""

import argparse
import importlib.util
import json
import math
import os
import sys
import time

import numpy as np

if importlib.util.find_spec("container_rl") is None:  # not installed: the checkout's package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import gymnasium as gym  # noqa: E402

import container_rl  # noqa: E402
from container_rl.rllib import ContainerMultiAgentEnv, wilson  # noqa: E402


def evaluate(module, players, games, seed, opponent="valuer", **options):
    """The policy in one seat (rotating) against Go bots; returns wins (shared wins split), games."""
    import torch
    env = gym.make("container_rl/Container-v0", players=players, opponents=[opponent] * (players - 1),
                   seat="rotate", **options)
    wins = 0.0
    try:
        for g in range(games):
            env.unwrapped._fixed_seat = g % players  # the seat rotates game by game
            obs, info = env.reset(seed=seed + g)
            done = False
            while not done:
                batch = {"obs": {"observations": torch.as_tensor(obs[None], dtype=torch.float32),
                                 "action_mask": torch.as_tensor(info["action_mask"][None], dtype=torch.float32)}}
                with torch.no_grad():
                    logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
                logits = np.where(info["action_mask"] == 1, logits, -np.inf)
                obs, reward, term, trunc, info = env.step(int(np.argmax(logits)))
                done = term or trunc
            gi = env.unwrapped.core.game_info()
            winners = [s for s, sc in enumerate(gi["scores"]) if sc.get("winner")]
            if env.unwrapped.seat in winners:
                wins += 1.0 / len(winners)
    finally:
        env.close()
    return wins, games


def build(args):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env("container_ma", lambda cfg: ContainerMultiAgentEnv(cfg))
    env_config = {"players": args.players, "reward": args.reward, "seed": args.seed}
    cfg = (PPOConfig()
           .environment("container_ma", env_config=env_config, disable_env_checking=True)  # its checker plays unmasked random actions
           .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
           .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
               "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                      model_config={"fcnet_hiddens": [args.width, args.width]})}))
           .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=1,
                        rollout_fragment_length="auto")
           .training(train_batch_size_per_learner=args.batch, minibatch_size=min(256, args.batch),
                     num_epochs=args.epochs, lr=args.lr, gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
           .debugging(seed=args.seed))
    return cfg.build_algo()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--reward", default="win-loss")
    p.add_argument("--iterations", type=int, default=1000, help="at most this many training iterations")
    p.add_argument("--minutes", type=float, default=10.0, help="stop after this many minutes of training")
    p.add_argument("--env-runners", type=int, default=1)
    p.add_argument("--batch", type=int, default=4000, help="env steps per training iteration")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--width", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--address", help="Ray cluster address (default: RAY_ADDRESS, else a new local Ray instance)")
    p.add_argument("--json", help="write the curve and the evaluation to this new file (an existing file is refused)")
    p.add_argument("--curve-every", type=float, default=0.0,
                   help="also measure against the valuers every this many minutes of training (0: only at the end)")
    p.add_argument("--curve-games", type=int, default=40, help="games of each measurement of --curve-every")
    p.add_argument("--ci", action="store_true", help="a short run: 2 iterations of 1000 steps, 8 evaluation games")
    args = p.parse_args(argv)
    if args.ci:
        args.iterations, args.minutes, args.batch, args.eval_games, args.epochs = 2, 5.0, 1000, 8, 1
    if args.json and os.path.lexists(args.json):
        p.error(f"--json {args.json}: the file exists; name a new one")
    if args.json and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        p.error(f"--json {args.json}: no such directory")
    for name in ("players", "iterations", "env_runners", "batch", "epochs", "width", "eval_games", "curve_games"):
        if getattr(args, name) < (0 if name == "env_runners" else 1):
            p.error(f"--{name.replace('_', '-')} must be at least {0 if name == 'env_runners' else 1}")
    if not (args.minutes > 0 and args.curve_every >= 0 and math.isfinite(args.minutes) and math.isfinite(args.curve_every)):
        p.error("--minutes must be a positive number and --curve-every zero or more")
    if args.width > 4096:
        p.error("--width must be at most 4096")
    try:  # the env runners would fail on these inside Ray, where the message is lost
        ContainerMultiAgentEnv({"players": args.players, "reward": args.reward, "seed": args.seed})
    except Exception as e:  # noqa: BLE001  (any refusal of the options, in one line)
        p.error(f"--players {args.players} --reward {args.reward}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")

    import ray
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Ray starts its workers at niceness 15; the env runners do the sampling, so on a machine
    # with other work they would get almost no CPU (iterations of no samples). A local
    # instance runs them at the driver's priority.
    os.environ.setdefault("RAY_worker_niceness", "0")
    if not ray.is_initialized():
        kw = {} if args.address or os.environ.get("RAY_ADDRESS") else {"num_cpus": max(2, args.env_runners + 1), "_node_ip_address": "127.0.0.2"}
        pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(container_rl.__file__)))
        if "site-packages" not in pkg_parent:  # run from a checkout: the env runners import it from there too
            kw["runtime_env"] = {"env_vars": {"PYTHONPATH": pkg_parent}}
        # "local": a fresh instance, never a cluster some earlier `ray start` recorded in /tmp/ray.
        address = args.address or os.environ.get("RAY_ADDRESS") or "local"
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False, **kw)
    algo = build(args)
    curve = []
    t0 = time.monotonic()
    paused = 0.0  # seconds spent in --curve-every measurements, left out of the training time
    next_eval = args.curve_every * 60 if args.curve_every > 0 else math.inf
    try:
        for it in range(args.iterations):
            r = algo.train()
            steps = r["env_runners"].get("num_env_steps_sampled_lifetime", 0) if "env_runners" in r else 0
            el = time.monotonic() - t0 - paused
            ret = r.get("env_runners", {}).get("agent_episode_returns_mean", {})
            point = {"iteration": it + 1, "minutes": round(el / 60, 2), "env_steps": int(steps),
                     "env_steps_per_s": round(steps / el, 1), "return_mean": ret}
            if el >= next_eval:
                e0 = time.monotonic()
                w, n = evaluate(algo.get_module("shared"), args.players, args.curve_games, seed=20_000 + args.seed)
                point["vs_valuers"] = {"games": n, "wins": w, "win_rate": w / n, "ci95": list(wilson(w, n))}
                paused += time.monotonic() - e0
                while next_eval <= el:
                    next_eval += args.curve_every * 60
            curve.append(point)
            print(json.dumps(point), flush=True)
            if el > args.minutes * 60:
                break
        module = algo.get_module("shared")
        wins, n = evaluate(module, args.players, args.eval_games, seed=10_000 + args.seed)
    finally:
        algo.stop()
    lo, hi = wilson(wins, n)
    result = {"eval": {"agent": "rllib-ppo", "opponents": "valuer x%d" % (args.players - 1), "games": n,
                       "wins": wins, "win_rate": wins / n, "ci95": [lo, hi]},
              "curve": curve, "env_runners": args.env_runners}
    print(f"rllib-ppo vs {args.players - 1} valuers: {wins:g}/{n} wins, {100 * wins / n:.1f}% "
          f"[{100 * lo:.1f}%, {100 * hi:.1f}%] after {curve[-1]['minutes']} min, {curve[-1]['env_steps']} env steps")
    if args.json:
        with open(args.json, "x", encoding="utf-8") as f:  # new file only: never one this run did not write
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("rllib_ppo: interrupted; nothing was written", file=sys.stderr)
        sys.exit(130)
