"""Evaluate a policy against Go bots with the statistics of ``container eval``: the learner's
seat rotates game by game (game g puts it in seat (seed + g) mod players, so it plays every seat
equally often), a shared win counts 1/k for each of its k winners, and every rate carries its
95% Wilson score interval, computed exactly as Go's ``env/eval.Wilson``.

    from container_rl.evaluation import evaluate, format_summary
    s = evaluate(lambda obs, mask: int(np.flatnonzero(mask)[0]), ["valuer"] * 3, games=40)
    print(format_summary(s))

Needs gymnasium (the games are played through ``container_rl/Container-v0``).
"""

import numpy as np

from . import _lib
from ._lib import InvalidArgumentError

# Z95 is the normal quantile of a two-sided 95% interval (Go: eval.Z95).
Z95 = 1.959963984540054


def wilson(wins, n, z=Z95):
    """The Wilson score interval (lo, hi) for wins successes out of n trials (wins may be
    fractional: shared wins count 1/k each); (0, 1) when n is 0. Computed by Go's
    ``eval.Wilson`` (one implementation for every table of the project)."""
    if n <= 0:
        return 0.0, 1.0
    out = np.zeros(2, dtype=np.float64)
    _lib.call(_lib.lib.ctr_wilson, float(wins), _lib.c_int(n, "games"), float(z), _lib.ptr(out))
    return float(out[0]), float(out[1])


def rate(wins, n):
    """A proportion with its 95% Wilson interval, keyed like ``container eval --json``'s
    rates: wins, games, rate, ci_lo, ci_hi."""
    lo, hi = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "ci_lo": lo, "ci_hi": hi}


def evaluate(policy, opponents, games, seed=1, players=None, **options):
    """Plays ``games`` games of ``policy`` against the Go bots ``opponents`` (one bot name
    per other seat) and returns the learner's statistics.

    ``policy(obs, mask)`` gets the learner's observation (float32[D]) and legal actions
    (bool[241]) and returns an action id. ``games`` must be a positive multiple of the player
    count (every seat equally often). Game g is episode g of the seed sequence of ``seed``
    (``game_seed(seed, 0, g)``) with the learner in seat (seed + g) mod players (the Gymnasium
    env's ``seat="rotate"``: a seeded reset starts the rotation at the seed). ``options`` are game
    options (``rules``, ``modules``, ...); the reward option does not change the result,
    which counts wins from the final scores.

    Returns ``{"games", "learner": rate + mean_total, mean_rank, per_seat: [rate, ...],
    "opponents", "steps"}``.
    """
    import gymnasium

    import container_rl  # noqa: F401  (registers the env id)

    opponents = list(opponents)
    p = len(opponents) + 1 if players is None else players
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0 or games % p:
        raise InvalidArgumentError(f"games: {games!r}; want a positive multiple of the {p} players "
                                   "(the learner plays every seat equally often)")
    env = gymnasium.make("container_rl/Container-v0", opponents=opponents, players=p, seat="rotate",
                         disable_env_checker=True, **options)
    core = env.unwrapped
    wins = np.zeros(p)
    seat_games = np.zeros(p, dtype=np.int64)
    totals, ranks, steps = [], [], 0
    try:
        for g in range(int(games)):
            obs, info = env.reset(seed=seed) if g == 0 else env.reset()
            seat = info["seat"]
            assert seat == (seed + g) % p, f"seat rotation: game {g} put the learner in seat {seat}"
            done = False
            while not done:
                a = policy(obs, info["action_mask"].astype(bool))
                obs, _, term, trunc, info = env.step(int(a))
                done = term or trunc
                steps += 1
            scores = core.core.game_info()["scores"]
            winners = [s for s, sc in enumerate(scores) if sc["winner"]]
            seat_games[seat] += 1
            if seat in winners:
                wins[seat] += 1.0 / len(winners)
            totals.append(scores[seat]["total"])
            ranks.append(scores[seat]["rank"])
    finally:
        env.close()
    learner = rate(float(wins.sum()), int(games))
    learner["mean_total"] = float(np.mean(totals))
    learner["mean_rank"] = float(np.mean(ranks))
    learner["per_seat"] = [rate(float(wins[s]), int(seat_games[s])) for s in range(p)]
    return {"games": int(games), "opponents": opponents, "learner": learner, "steps": steps}


def format_summary(s, name="learner"):
    """A text table like ``container eval``'s: the win rate with its interval, then per seat."""
    r = s["learner"]
    lines = [f"{s['games']} games vs {','.join(s['opponents'])} (learner's seat rotated; parity "
             f"{1 / (len(s['opponents']) + 1):.1%})",
             f"{'agent':<10} {'win rate':>9} {'95% CI':>17} {'wins':>7} {'mean total':>11} {'mean rank':>10}",
             f"{name:<10} {r['rate']:>9.1%} [{r['ci_lo']:6.1%}, {r['ci_hi']:6.1%}] {r['wins']:>7.1f} "
             f"{r['mean_total']:>11.1f} {r['mean_rank']:>10.2f}",
             "by seat: " + "  ".join(f"{i}: {x['rate']:.1%} ({x['games']})" for i, x in enumerate(r["per_seat"]))]
    return "\n".join(lines)
