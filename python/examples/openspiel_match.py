"""One of our bots against OpenSpiel's ISMCTSBot in the other seats, seats rotated; the result
through the project's statistics (win share with its 95% Wilson interval, env/eval.Wilson).

    PYTHONPATH=python .venv/bin/python python/examples/openspiel_match.py \\
        --ours ismcts:rollout=random,sims=10 --their-sims 10 --games 100 --seed 1 --out a.jsonl
    PYTHONPATH=python .venv/bin/python python/examples/openspiel_match.py --table a.jsonl b.jsonl

Game g is deal ``--seed + g // players`` (the setup ``container`` commands make with that
seed, as chance outcomes) with our bot in seat ``g % players``, so every deal is played from
every seat. ``--first``/``--games`` select games, so a long row can run in parts (each part
appends one JSON line per game to --out; --table merges any number of such files). OpenSpiel's
bots: ISMCTSBot with UCT constant --uct-c, most-visited final move, random rollouts played in
Go (``--rollout go``) or by OpenSpiel's own RandomRolloutEvaluator (``--rollout python``), and
either --their-sims simulations or --their-ms milliseconds per decision.
"""

import argparse
import collections
import json
import sys
import time

import numpy as np
import pyspiel

import container_rl as crl
from container_rl import openspiel as cos
from container_rl import openspiel_bots as ob


def run(args):
    params = {"players": args.players, "rules": args.rules, "length": args.length, "reward": args.their_reward}
    game = pyspiel.load_game("python_container", params)
    p = args.players
    out = open(args.out, "a") if args.out else None
    for g in range(args.first, args.first + args.games):
        deal, seat = args.seed + g // p, g % p
        bots = []
        for s in range(p):
            if s == seat:
                bots.append(cos.GoBot(game, args.ours, seed=args.seed * 7919 + g))
            else:
                bots.append(ob.make_ismcts(game, sims=args.their_sims,
                                           seconds=None if args.their_ms is None else args.their_ms / 1000,
                                           uct_c=args.uct_c, rollout=args.rollout, seed=args.seed * 100003 + g * 11 + s,
                                           final=args.their_final, value=args.their_value))
        t0 = time.perf_counter()
        returns, decisions, state = ob.play(game, bots, cos.setup_draws(deal, **params))
        # The win share (1 to the winner, split between tied winners) from the final scores,
        # whatever reward the game's returns use.
        winners = [s for s, sc in enumerate(crl.score_position(state.position_json())) if sc["winner"]]
        win = 1 / len(winners) if seat in winners else 0.0
        theirs = [b for s, b in enumerate(bots) if s != seat]
        row = {"game": g, "deal": deal, "seat": seat, "ours": args.ours, "theirs": their_name(args),
               "win": win, "returns": returns, "decisions": decisions,
               "seconds": round(time.perf_counter() - t0, 2),
               "our_sims": bots[seat].sims, "our_search_s": round(bots[seat].search_seconds, 4),
               "our_searches": bots[seat].searches,
               "their_sims": sum(b.sims for b in theirs), "their_search_s": round(sum(b.search_seconds for b in theirs), 4),
               "their_searches": sum(b.searches for b in theirs)}
        bots[seat].close()
        line = json.dumps(row)
        print(line, flush=True)
        if out:
            out.write(line + "\n")
            out.flush()


def speed(args):
    """Simulations per second of each search at the same positions: decisions 10, 60 and 110
    of a game the valuer plays in every seat from deal --seed."""
    params = {"players": args.players, "rules": args.rules, "length": args.length}
    game = pyspiel.load_game("python_container", params)
    state = game.new_initial_state()
    for a in cos.setup_draws(args.seed, **params):
        state.apply_action(a)
    valuers = [cos.GoBot(game, "valuer", seed=s) for s in range(args.players)]
    positions = []
    for k in range(111):
        if k in (10, 60, 110):
            positions.append(state.clone())
        state.apply_action(valuers[state.current_player()].step(state))
    searchers = [
        ("openspiel ISMCTSBot, RandomRolloutEvaluator (Python playouts)",
         lambda: ob.make_ismcts(game, sims=20, uct_c=args.uct_c, rollout="python", seed=1)),
        ("openspiel ISMCTSBot, GoRandomRollout (the same playouts in Go)",
         lambda: ob.make_ismcts(game, sims=200, uct_c=args.uct_c, rollout="go", seed=1)),
        ("ours: ismcts:rollout=random,workers=1", lambda: cos.GoBot(game, "ismcts:rollout=random,sims=2000,workers=1")),
        ("ours: ismcts (valuer rollouts), workers=1", lambda: cos.GoBot(game, "ismcts:sims=2000,workers=1")),
    ]
    print("| search | sims | seconds | sims/s |")
    print("|---|---:|---:|---:|")
    for name, make in searchers:
        bot = make()
        for pos in positions:
            bot.step(pos)
        print(f"| {name} | {bot.sims} | {bot.search_seconds:.2f} | {rate(bot.sims, bot.search_seconds)} |")


def their_name(args):
    budget = f"sims={args.their_sims}" if args.their_ms is None else f"ms={args.their_ms:g}"
    name = f"openspiel-ismcts:{budget},c={args.uct_c:g},rollout={args.rollout}"
    if args.their_final != "visits":
        name += f",final={args.their_final}"
    if args.their_value != "returns":
        name += f",value={args.their_value}"
    if args.their_reward != "win-loss":
        name += f",reward={args.their_reward}"
    return name


def table(paths):
    rows = collections.defaultdict(list)
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    rows[(r["ours"], r["theirs"])].append(r)
    print("| ours | three of | games | our win share | 95% Wilson | parity | our sims/s | their sims/s | s/game |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    for (ours, theirs), rs in rows.items():
        seen = {}
        for r in rs:
            seen[r["game"]] = r  # a game run twice counts once
        rs = list(seen.values())
        n = len(rs)
        wins = sum(r["win"] for r in rs)
        lo, hi = cos.wilson(wins, n)
        parity = 1 / len(rs[0]["returns"])
        ours_sps = rate(sum(r["our_sims"] for r in rs), sum(r["our_search_s"] for r in rs))
        theirs_sps = rate(sum(r["their_sims"] for r in rs), sum(r["their_search_s"] for r in rs))
        secs = sum(r["seconds"] for r in rs) / n
        print(f"| `{ours}` | `{theirs}` | {n} | {wins / n:.1%} | {lo:.1%}-{hi:.1%} | {parity:.0%} | "
              f"{ours_sps} | {theirs_sps} | {secs:.0f} |")


def rate(sims, secs):
    return f"{sims / secs:,.0f}" if secs > 0 and sims > 0 else "-"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default="ismcts", help="our bot's spec (container bots lists them)")
    ap.add_argument("--their-sims", type=int, help="OpenSpiel ISMCTS simulations per decision")
    ap.add_argument("--their-ms", type=float, help="OpenSpiel ISMCTS milliseconds per decision")
    ap.add_argument("--uct-c", type=float, default=0.7, help="OpenSpiel ISMCTS UCT constant (ours defaults to 0.7)")
    ap.add_argument("--rollout", default="go", choices=["go", "python"])
    ap.add_argument("--their-final", default="visits", choices=["visits", "visits-value"],
                    help="the move OpenSpiel's ISMCTS plays: OpenSpiel's most visited (ties at random) or ours "
                         "(ties to the higher value)")
    ap.add_argument("--their-value", default="returns", choices=["returns", "search"],
                    help="how OpenSpiel's ISMCTS values a Go playout: the game's returns or our search's outcome "
                         "(half win share, half squashed score margin)")
    ap.add_argument("--their-reward", default="win-loss", choices=["win-loss", "rank"],
                    help="the game's returns, which OpenSpiel's ISMCTS backs up (the table's win share is always "
                         "the win-loss split)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rules", default="base")
    ap.add_argument("--length", default="standard")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--first", type=int, default=0, help="index of the first game (to run a row in parts)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="append one JSON line per game here")
    ap.add_argument("--table", nargs="+", metavar="JSONL", help="print the table of these result files and exit")
    ap.add_argument("--speed", action="store_true", help="print the simulations per second of each search and exit")
    args = ap.parse_args(argv)
    if args.table:
        table(args.table)
        return 0
    if args.speed:
        speed(args)
        return 0
    if (args.their_sims is None) == (args.their_ms is None):
        ap.error("give --their-sims or --their-ms")
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
