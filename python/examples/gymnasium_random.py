"""A random legal policy in one seat against three Go valuers, through Gymnasium.

    .venv/bin/python python/examples/gymnasium_random.py [--episodes 20] [--opponents valuer,valuer,valuer]

Plays the episodes with the learner's seat rotating, then prints the learner's mean reward
(win/loss: 1 for a win, 0 otherwise), its decisions per second and the bots' moves per
learner decision. The smoke test of an install: needs only container_rl and gymnasium.
"""

import argparse
import time

import gymnasium as gym
import numpy as np

import container_rl  # noqa: F401  (registers container_rl/Container-v0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=20)
    ap.add_argument("--opponents", default="valuer,valuer,valuer")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    env = gym.make("container_rl/Container-v0", opponents=a.opponents.split(","))
    rng = np.random.default_rng(a.seed)
    rewards, steps, bot_moves = [], 0, 0
    t0 = time.perf_counter()
    obs, info = env.reset(seed=a.seed)
    for _ in range(a.episodes):
        total, done = 0.0, False
        while not done:
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += r
            steps += 1
            bot_moves += info["opponent_moves"]
            done = term or trunc
        rewards.append(total)
        obs, info = env.reset()
    dt = time.perf_counter() - t0
    print(f"{a.episodes} episodes against {a.opponents}: mean reward {np.mean(rewards):.3f}, "
          f"{steps / dt:,.0f} learner decisions/s, {bot_moves / max(steps, 1):.1f} bot moves per decision")
    env.close()


if __name__ == "__main__":
    main()
