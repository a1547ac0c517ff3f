"""Train a masked policy with Stable-Baselines3 contrib's MaskablePPO through the Gymnasium
env (one learning seat, Go bots in the other seats), then evaluate it like ``container eval``:
the learner's seat rotated game by game, win rates with 95% Wilson intervals.

    python python/examples/train_maskable_ppo.py --minutes 20 --opponents random,random,random
    python python/examples/train_maskable_ppo.py --timesteps 20000 --eval random,random,random

Training uses the dense cash-margin reward (the change in the learner's lead over the mean of
the other seats, in units of $100; it sums to the final margin), which teaches much faster
than the sparse win/loss signal; evaluation counts wins from the final scores. MaskablePPO
reads the legal actions through the env's ``action_masks()``, so the policy only ever samples
legal moves. The evaluation plays the deterministic (most likely) action.

Needs: pip install 'container_rl[sb3]' (stable-baselines3, sb3-contrib, gymnasium; torch:
see python/README.md, "Training with Stable-Baselines3").
"""

import argparse
import importlib.util
import json
import os
import sys
import time

import numpy as np

if importlib.util.find_spec("container_rl") is None:  # not installed: the checkout's package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def bots(text):
    names = [b for b in text.split(",") if b]
    if not names:
        raise argparse.ArgumentTypeError("want a comma-separated list of bot names, one per other seat")
    return names


def make_env(opponents, seed, **options):
    import gymnasium
    from stable_baselines3.common.monitor import Monitor

    import container_rl  # noqa: F401  (registers container_rl/Container-v0)

    def thunk():
        env = gymnasium.make("container_rl/Container-v0", opponents=opponents, seat="rotate",
                             reward="cash-margin", dense=True, disable_env_checker=True, **options)
        env.reset(seed=seed)
        return Monitor(env)
    return thunk


def train(args):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    vec = DummyVecEnv([make_env(args.opponents[i % len(args.opponents)], args.seed * 1000 + i)
                       for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", vec, learning_rate=args.lr, n_steps=args.n_steps,
                        batch_size=args.batch, n_epochs=args.epochs, gamma=0.999, gae_lambda=0.95,
                        ent_coef=0.01, policy_kwargs={"net_arch": [args.width, args.width]},
                        seed=args.seed, device="cpu", verbose=0)
    curve = []

    class Progress(BaseCallback):
        """Logs the learning curve (mean episode return of recent games) after each rollout
        and stops at the deadline."""

        def __init__(self, deadline):
            super().__init__()
            self.deadline = deadline
            self.t0 = time.time()

        def _on_step(self):
            return self.deadline is None or time.time() < self.deadline

        def _on_rollout_end(self):
            eps = self.model.ep_info_buffer
            if eps:
                ret = float(np.mean([e["r"] for e in eps]))
                curve.append({"timesteps": self.num_timesteps, "seconds": round(time.time() - self.t0, 1),
                              "mean_return": ret, "episodes": len(eps)})
                if args.verbose:
                    print(f"  {self.num_timesteps:>8} steps {time.time() - self.t0:7.1f} s  mean margin "
                          f"(last {len(eps)} games) {ret:+.3f}", flush=True)

    deadline = time.time() + args.minutes * 60 if args.minutes else None
    total = args.timesteps if args.timesteps else 10**12
    t0 = time.time()
    model.learn(total_timesteps=total, callback=Progress(deadline))
    secs = time.time() - t0
    vec.close()
    return model, curve, secs


def policy_of(model):
    def act(obs, mask):
        a, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(a)
    return act


def random_policy(seed):
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponents", type=bots, action="append", default=None, metavar="BOTS",
                    help="training opponents, one bot per other seat (default random,random,random); "
                         "repeat it for a mixed field: env i plays against the (i mod count)-th list")
    ap.add_argument("--minutes", type=float, default=0, help="train for this long (wall clock)")
    ap.add_argument("--timesteps", type=int, default=0,
                    help="train for this many learner decisions (reproducible for a seed; default 20000 "
                         "when --minutes is not given)")
    ap.add_argument("--eval", type=bots, action="append", default=None, metavar="BOTS",
                    help="evaluate against these opponents (repeatable; default random,random,random and "
                         "valuer,valuer,valuer)")
    ap.add_argument("--eval-games", type=int, default=200, help="games per evaluation (a multiple of 4)")
    ap.add_argument("--baseline", action="store_true", help="also evaluate a uniformly random legal policy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--envs", type=int, default=4, help="games collected in parallel (DummyVecEnv)")
    ap.add_argument("--n-steps", type=int, default=512, help="rollout length per env")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--save", help="save the trained model here (MaskablePPO.load reads it back with torch >= 2; with torch 1.13 see python/README.md)")
    ap.add_argument("--json", help="write the learning curve and evaluations as JSON here")
    ap.add_argument("-q", dest="verbose", action="store_false", help="no learning-curve lines")
    args = ap.parse_args(argv)
    if not args.minutes and not args.timesteps:
        args.timesteps = 20000
    if args.opponents is None:
        args.opponents = [bots("random,random,random")]
    if args.eval is None:
        args.eval = [bots("random,random,random"), bots("valuer,valuer,valuer")]

    from container_rl.evaluation import evaluate, format_summary

    model, curve, secs = train(args)
    print(f"trained {model.num_timesteps} learner decisions in {secs:.0f} s against "
          f"{' / '.join(','.join(o) for o in args.opponents)} "
          f"(MaskablePPO, seed {args.seed})", flush=True)
    if args.save:
        model.save(args.save)
    result = {"timesteps": model.num_timesteps, "seconds": secs, "curve": curve, "eval": []}
    for opps in args.eval:
        s = evaluate(policy_of(model), opps, args.eval_games, seed=args.seed + 7)
        print(format_summary(s, "maskppo"), flush=True)
        result["eval"].append(s)
        if args.baseline:
            b = evaluate(random_policy(args.seed), opps, args.eval_games, seed=args.seed + 7)
            print(format_summary(b, "random"), flush=True)
            result["eval"].append(dict(b, policy="random"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
