"""Train a small masked policy with PyTorch against the scripted bots, then report its win
rate against random bots and against valuers.

    /usr/bin/python3 python/examples/train_masked_policy.py --minutes 3
    /usr/bin/python3 python/examples/train_masked_policy.py --ci      # ~30 s smoke run

The learner plays seat 0 of every game of a VectorEnv; the other seats are Go bots seated
with a BotTable (random, manufacturer, shipper, valuer, drawn per run of games), so each
step the bots' actions are computed in Go and only the learner's decisions go through the
network. Training uses the dense cash-margin reward (the change in the learner's lead over
the table, summing to the final margin) and REINFORCE with a learned value baseline on
complete episodes; illegal actions get -inf logits, so the policy only ever samples
legal ones. Evaluation plays the greedy policy under win/loss rewards.
"""

import argparse
import importlib.util
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn

if importlib.util.find_spec("container_rl") is None:  # not installed: the checkout's package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import container_rl as crl  # noqa: E402


class Net(nn.Module):
    def __init__(self, obs_size, num_actions, width=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh())
        self.pi = nn.Linear(width, num_actions)
        self.v = nn.Linear(width, 1)

    def forward(self, obs, mask):
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, float("-inf"))
        return logits, self.v(h).squeeze(-1)


def learner_rows(vec, table, actions):
    """Let the bots act; return the indices of the games where seat 0 decides."""
    is_bot = table.act(actions)
    return np.flatnonzero(~is_bot)


def train(args):
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    opponents = ["random", "manufacturer", "shipper", "valuer"]
    vec = crl.VectorEnv(args.games, seed=args.seed, players=4, reward="cash-margin", dense=True)
    net = Net(vec.obs_size, vec.num_actions)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    actions = np.zeros(vec.num_envs, dtype=np.int64)
    traj = [[] for _ in range(vec.num_envs)]  # per game: [obs, mask, action, reward]
    batch, episodes, updates, steps = [], 0, 0, 0
    t0 = time.time()
    deadline = t0 + args.minutes * 60
    table = None
    while time.time() < deadline:
        if table is None or steps % 2000 == 0:
            if table is not None:
                table.close()
            seats = [None] + list(rng.choice(opponents, size=3))
            table = crl.BotTable(vec, seats, seed=int(rng.integers(1 << 62)))
        rows = learner_rows(vec, table, actions)
        if len(rows):
            obs = torch.from_numpy(vec.observations[rows].copy())
            mask = torch.from_numpy(vec.action_masks[rows].astype(np.bool_))
            with torch.no_grad():
                logits, _ = net(obs, mask)
                a = torch.distributions.Categorical(logits=logits).sample().numpy()
            actions[rows] = a
            for k, i in enumerate(rows):
                traj[i].append([obs[k], mask[k], int(a[k]), 0.0])
        vec.step(actions)
        steps += 1
        r0 = vec.rewards[:, 0]
        ended = vec.terminated | vec.truncated
        for i in np.flatnonzero((r0 != 0) | ended):
            if traj[i]:
                traj[i][-1][3] += float(r0[i])  # credit the learner's last decision
            if ended[i]:
                if traj[i]:
                    batch.append(traj[i])
                    episodes += 1
                traj[i] = []
        if sum(len(t) for t in batch) >= args.batch:
            loss = update(net, opt, batch)
            updates += 1
            if updates % 10 == 0:
                print(f"  {time.time() - t0:5.0f}s  update {updates}  episodes {episodes}  loss {loss:.3f}", flush=True)
            batch = []
    if table is not None:
        table.close()
    vec.close()
    print(f"trained {time.time() - t0:.0f}s: {updates} updates, {episodes} episodes, {steps} vector steps")
    return net


def update(net, opt, batch):
    obs, mask, act, ret = [], [], [], []
    for t in batch:
        g = 0.0
        rets = []
        for step in reversed(t):
            g += step[3]
            rets.append(g)
        rets.reverse()
        for step, r in zip(t, rets):
            obs.append(step[0])
            mask.append(step[1])
            act.append(step[2])
            ret.append(r)
    obs, mask = torch.stack(obs), torch.stack(mask)
    act, ret = torch.tensor(act), torch.tensor(ret, dtype=torch.float32)
    logits, v = net(obs, mask)
    logp = torch.log_softmax(logits, -1).gather(1, act[:, None]).squeeze(1)
    adv = (ret - v).detach()
    adv = (adv - adv.mean()) / (adv.std() + 1e-6)
    probs = torch.softmax(logits, -1)
    entropy = -(probs * torch.where(mask, torch.log_softmax(logits, -1), torch.zeros_like(logits))).sum(-1).mean()
    loss = -(logp * adv).mean() + 0.5 * ((ret - v) ** 2).mean() - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()
    return float(loss)


def evaluate(net, opponent, games, seed, parallel=32):
    """Win share of the greedy policy in seat 0 against three ``opponent`` bots."""
    vec = crl.VectorEnv(parallel, seed=seed, players=4)
    table = crl.BotTable(vec, [None, opponent, opponent, opponent], seed=seed)
    actions = np.zeros(parallel, dtype=np.int64)
    finished, wins = 0, 0.0
    counted = np.zeros(parallel, dtype=np.int64)  # episodes counted per game slot
    quota = -(-games // parallel)
    while finished < games:
        rows = learner_rows(vec, table, actions)
        if len(rows):
            with torch.no_grad():
                logits, _ = net(torch.from_numpy(vec.observations[rows].copy()),
                                torch.from_numpy(vec.action_masks[rows].astype(np.bool_)))
            actions[rows] = logits.argmax(-1).numpy()
        vec.step(actions)
        for i in np.flatnonzero(vec.terminated | vec.truncated):
            if counted[i] < quota and finished < games:
                counted[i] += 1
                finished += 1
                wins += float(vec.rewards[i, 0])
    table.close()
    vec.close()
    return wins / games


def main():
    ap = argparse.ArgumentParser(description="masked-policy REINFORCE against the scripted bots")
    ap.add_argument("--minutes", type=float, default=3.0, help="training time")
    ap.add_argument("--games", type=int, default=64, help="games stepped together")
    ap.add_argument("--batch", type=int, default=4096, help="learner decisions per update")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ci", action="store_true", help="short run for CI: 20 s of training, 32 evaluation games")
    args = ap.parse_args()
    if args.ci:
        args.minutes, args.eval_games, args.batch = 20 / 60, 32, 1024
    if args.minutes <= 0 or args.eval_games < 1 or args.games < 1 or args.batch < 1:
        ap.error("--minutes, --games, --batch and --eval-games must be positive")
    torch.set_num_threads(1)
    net = train(args)
    for opp in ("random", "valuer"):
        w = evaluate(net, opp, args.eval_games, seed=10_000 + args.seed)
        print(f"win rate vs 3 x {opp}: {w:.1%} over {args.eval_games} games (even share 25%)", flush=True)


if __name__ == "__main__":
    main()
