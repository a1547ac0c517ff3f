"""Self-play games/s through container_rl.ray (1 and 2 Ray workers) against the plain
`container selfplay` on the same machine, so the cost Ray adds per shard shows.

    CONTAINER=./container python python/benchmarks/ray_bench.py [--games 400] [--shards 8]

Each row plays the same games (same seed and flags) into a fresh directory; the Ray rows
start a local Ray instance with that many CPUs (one shard per CPU at a time) and include
the merge. Prints one JSON object.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

if importlib.util.find_spec("container_rl") is None:  # not installed: the checkout's package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import container_rl  # noqa: E402

PKG = os.path.dirname(os.path.dirname(os.path.abspath(container_rl.__file__)))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [PKG, os.environ.get("PYTHONPATH")]))  # Ray's workers

from container_rl import ray as crl_ray  # noqa: E402

AGENTS = "valuer,shipper,manufacturer,random"


def plain(binary, args, workers, out):
    t0 = time.monotonic()
    subprocess.run([binary, "selfplay", *args, "--workers", str(workers), "--quiet", "--out", out], check=True,
                   stdout=subprocess.DEVNULL)
    return time.monotonic() - t0


def on_ray(binary, args, cpus, shards, out):
    import ray
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False,
             _node_ip_address="127.0.0.2")
    try:
        # Warm the worker pool once (Ray starts its worker processes lazily).
        ray.get([ray.remote(lambda: None).options(num_cpus=1).remote() for _ in range(cpus)])
        res = crl_ray.selfplay(args, out, shards, binary=binary, progress=False)
    finally:
        ray.shutdown()
    return res["seconds"], res


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--shards", type=int, default=8)
    p.add_argument("--shard-games", type=int, default=25)
    ns = p.parse_args()
    binary = crl_ray.find_binary()
    args = ["--agents", AGENTS, "--games", str(ns.games), "--seed", "1", "--shard-games", str(ns.shard_games)]
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for w in (1, 2):
            s = plain(binary, args, w, os.path.join(tmp, f"plain{w}"))
            rows[f"container selfplay --workers {w}"] = {"seconds": round(s, 2), "games_per_s": round(ns.games / s, 1)}
        for cpus in (1, 2):
            s, res = on_ray(binary, args, cpus, ns.shards, os.path.join(tmp, f"ray{cpus}"))
            per = sorted(r["seconds"] for r in res["shards"])
            rows[f"container_rl.ray, {cpus} worker(s), {ns.shards} shards"] = {
                "seconds": round(s, 2), "games_per_s": round(ns.games / s, 1),
                "shard_seconds_median": round(per[len(per) // 2], 2)}
    print(json.dumps({"games": ns.games, "agents": AGENTS, "load": os.getloadavg()[0], "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
