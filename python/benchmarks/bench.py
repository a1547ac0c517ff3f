"""Throughput of the Python package, with Go's VecEnv measured in the same process.

    /usr/bin/python3 python/benchmarks/bench.py [--aec-steps N] [--vec-iters N] [--json]

1. AEC loop: PettingZoo-style ``agent_iter``/``last``/``step`` with a uniformly random legal
   action drawn from the observation's mask (np.flatnonzero + random.randrange), on one
   core; then where the time of one step goes (each piece timed alone).
2. Vector env: 256 games, random legal actions chosen in NumPy (``VectorEnv.sample_legal``),
   with 1 and 2 Go workers; and Go's own VecEnv benchmark loop (random legal actions picked
   in Go) in the same run, for the ratio.

Both wall-clock and process-CPU rates are printed: on a shared machine the wall rate
understates what a quiet core does, the CPU rate less so.
"""

import argparse
import importlib.util
import ctypes
import json
import os
import random
import sys
import time

import numpy as np

if importlib.util.find_spec("container_rl") is None:  # not installed: the checkout's package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import container_rl as crl  # noqa: E402
from container_rl import _lib  # noqa: E402


def timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    n = fn()
    return n, time.perf_counter() - w0, time.process_time() - c0


def aec_loop(steps, copy, make=None):
    env = make() if make else crl.ContainerEnv(copy_observations=copy)
    rnd = random.Random(1)
    flatnonzero = np.flatnonzero

    def run():
        n, ep = 0, 0
        while n < steps:
            env.reset(seed=ep)
            ep += 1
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term or trunc:
                    action = None
                else:
                    legal = flatnonzero(obs["action_mask"])
                    action = int(legal[rnd.randrange(len(legal))])
                env.step(action)
                n += 1
        return n

    n, wall, cpu = timed(run)
    env.close()
    return {"steps": n, "steps_per_s_wall": n / wall, "steps_per_s_cpu": n / cpu}


def pettingzoo_vs_core(steps, rounds=3):
    """The same AEC loop through the bare ContainerEnv (fresh observation arrays, as the
    PettingZoo class returns), the PettingZoo raw_env and the wrapped env(); rounds
    alternate between them and the best per-CPU-second rate of each counts, so a load
    change on a shared machine hits all three alike."""
    from container_rl import pettingzoo as pz
    makers = {"ContainerEnv": lambda: crl.ContainerEnv(copy_observations=True), "pettingzoo raw_env": pz.raw_env,
              "pettingzoo env (wrapped)": pz.env}
    best = {k: 0.0 for k in makers}
    for _ in range(rounds):
        for k, mk in makers.items():
            best[k] = max(best[k], aec_loop(steps, True, mk)["steps_per_s_cpu"])
    base = best["ContainerEnv"]
    return {k: {"steps_per_cpu_s": v, "overhead_vs_core": base / v - 1} for k, v in best.items()}


def gymnasium_single(steps, opponents=("valuer", "valuer", "valuer")):
    """Single-agent Gymnasium env (learner in a rotating seat, Go bots in the others): the
    learner's steps/s with random legal actions from info["action_mask"], and all decisions
    (the learner's plus the bots') per second."""
    import gymnasium as gym
    env = gym.make("container_rl/Container-v0", opponents=list(opponents), disable_env_checker=True)
    rng = np.random.default_rng(0)
    flatnonzero = np.flatnonzero

    def run():
        n = 0
        run.decisions = 0
        ep = 0
        while n < steps:
            obs, info = env.reset(seed=ep)
            ep += 1
            run.decisions += info["opponent_moves"]
            done = False
            while not done:
                legal = flatnonzero(info["action_mask"])
                obs, r, term, trunc, info = env.step(int(legal[int(rng.random() * len(legal))]))
                run.decisions += 1 + info["opponent_moves"]
                n += 1
                done = term or trunc
        return n

    n, wall, cpu = timed(run)
    env.close()
    return {"opponents": list(opponents), "learner_steps": n, "learner_steps_per_s_wall": n / wall,
            "learner_steps_per_cpu_s": n / cpu, "decisions_per_s_wall": run.decisions / wall}


def gymnasium_vector(num_envs, iters, opponents=("valuer", "valuer", "valuer"), workers=2):
    """ContainerVectorEnv: num_envs games, learner steps per second (random legal actions in NumPy)."""
    from container_rl.gymnasium import ContainerVectorEnv
    v = ContainerVectorEnv(num_envs, opponents=list(opponents), seed=1, workers=workers)
    rng = np.random.default_rng(0)
    obs, info = v.reset()
    masks = info["action_mask"]
    row = (np.arange(num_envs) * masks.shape[1]).astype(np.float64)

    def pick():
        # A uniformly random legal action per game from the int8 masks, in NumPy.
        cums = np.cumsum(masks, axis=1)
        k = (rng.random(num_envs) * cums[:, -1]).astype(np.int64)
        return np.array([np.searchsorted(cums[i], k[i], side="right") for i in range(num_envs)], dtype=np.int64)

    def run():
        for _ in range(iters):
            v.step(pick())
        return iters * num_envs

    k, wall, cpu = timed(run)
    v.close()
    return {"games": num_envs, "workers": workers, "learner_steps_per_s_wall": k / wall, "cores_used": cpu / wall}


def aec_breakdown(steps):
    """Time each piece of one AEC step alone, in microseconds per step."""
    env = crl.ContainerEnv(copy_observations=False)
    env.reset(seed=1)
    # Record a game's actions so the step-only timing replays real positions.
    out = {}
    rnd = random.Random(2)
    legal_lists = []
    n = 0
    env.reset(seed=5)
    actions = []
    while not env._ended and n < steps:
        legal = np.flatnonzero(env._mask)
        a = int(legal[rnd.randrange(len(legal))])
        actions.append(a)
        legal_lists.append(env._mask.copy())
        env.step(a)
        n += 1

    def replay_step():
        env.reset(seed=5)
        for a in actions:
            env.step(a)
        return len(actions)

    def replay_raw():
        fn, h, p = _lib.lib.ctr_env_step, env._h, env._errp
        _lib.call(_lib.lib.ctr_env_reset, h, 5, b"")
        for a in actions:
            fn(h, a, p, _lib.ERR_CAP)
        return len(actions)

    def lasts():
        env.reset(seed=5)
        for _ in actions:
            env.last()
        return len(actions)

    def choose():
        r = random.Random(3)
        for m in legal_lists:
            legal = np.flatnonzero(m)
            int(legal[r.randrange(len(legal))])
        return len(legal_lists)

    def cpu_us(fn):
        # Thread CPU time: the Go code runs on this thread during the call, and another
        # job taking the core does not count.
        t0 = time.thread_time()
        k = fn()
        return (time.thread_time() - t0) / k * 1e6

    reps = max(1, 20000 // max(1, len(actions)))
    for name, fn in [("step() total", replay_step), ("ctypes call + Go step/encode/copy alone", replay_raw),
                     ("last()", lasts), ("choose from mask (flatnonzero + randrange)", choose)]:
        out[name] = min(cpu_us(fn) for _ in range(3 * reps))
    noop = _lib.lib.ctr_abi_version

    def noops():
        for _ in range(20000):
            noop()
        return 20000

    out["empty ctypes->cgo call"] = min(cpu_us(noops) for _ in range(5))
    env.close()
    return out


def vec(n, workers, iters):
    v = crl.VectorEnv(n, seed=1, workers=workers)
    rng = np.random.default_rng(0)
    for _ in range(10):
        v.step(v.sample_legal(rng))

    def run():
        for _ in range(iters):
            v.step(v.sample_legal(rng))
        return iters * n

    k, wall, cpu = timed(run)
    v.close()
    return {"games": n, "workers": workers, "env_steps_per_s_wall": k / wall, "cores_used": cpu / wall,
            "env_steps_per_cpu_s": k / cpu}


def go_vec(n, workers, iters):
    out = ctypes.c_double(0)
    c0 = time.process_time()
    _lib.call(_lib.lib.ctr_bench_vec, n, workers, iters, 1, ctypes.byref(out))
    cpu = time.process_time() - c0
    return out.value, n * iters / cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--aec-steps", type=int, default=200000)
    ap.add_argument("--vec-iters", type=int, default=2000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--frameworks", action="store_true",
                    help="only the PettingZoo class vs the bare ContainerEnv and the Gymnasium envs")
    a = ap.parse_args()
    res = {"cpus": os.cpu_count(), "loadavg": os.getloadavg()}
    if a.frameworks:
        res["pettingzoo_vs_core"] = pettingzoo_vs_core(a.aec_steps // 4)
        res["gymnasium_single_3_valuers"] = gymnasium_single(a.aec_steps // 20)
        res["gymnasium_vector_3_valuers"] = gymnasium_vector(64, a.vec_iters // 10)
        res["loadavg_after"] = os.getloadavg()
        print(json.dumps(res, indent=1))
        return
    res["aec"] = aec_loop(a.aec_steps, copy=False)
    res["aec_copy_observations"] = aec_loop(a.aec_steps // 2, copy=True)
    res["aec_breakdown_us"] = aec_breakdown(2000)
    res["vec"] = [vec(256, w, a.vec_iters) for w in (1, 2)]
    go = {str(w): go_vec(256, w, a.vec_iters) for w in (1, 2)}
    res["go_vec_steps_per_s"] = {w: r[0] for w, r in go.items()}
    res["go_vec_steps_per_cpu_s"] = {w: r[1] for w, r in go.items()}
    res["python_over_go_2_workers"] = res["vec"][1]["env_steps_per_s_wall"] / res["go_vec_steps_per_s"]["2"]
    res["python_over_go_2_workers_cpu"] = res["vec"][1]["env_steps_per_cpu_s"] / res["go_vec_steps_per_cpu_s"]["2"]
    res["loadavg_after"] = os.getloadavg()
    if a.json:
        print(json.dumps(res, indent=1))
        return
    print(f"machine: {res['cpus']} CPUs, load average {res['loadavg'][0]:.1f} before, {res['loadavg_after'][0]:.1f} after")
    for k in ("aec", "aec_copy_observations"):
        r = res[k]
        print(f"{k}: {r['steps']} steps, {r['steps_per_s_wall']:,.0f} steps/s wall, {r['steps_per_s_cpu']:,.0f} steps/s per CPU-second")
    print("one AEC step, each piece alone (microseconds of thread CPU time, best of several):")
    for k, us in res["aec_breakdown_us"].items():
        print(f"  {us:6.2f}  {k}")
    for r in res["vec"]:
        print(f"python vector env, {r['games']} games, {r['workers']} workers: {r['env_steps_per_s_wall']:,.0f} env-steps/s "
              f"(NumPy random legal actions included; {r['cores_used']:.2f} cores used; "
              f"{r['env_steps_per_cpu_s']:,.0f} per CPU-second)")
    for w, s in res["go_vec_steps_per_s"].items():
        print(f"Go VecEnv, 256 games, {w} workers, same process: {s:,.0f} env-steps/s (Go random policy included; "
              f"{res['go_vec_steps_per_cpu_s'][w]:,.0f} per CPU-second)")
    print(f"python / Go (2 workers): {res['python_over_go_2_workers']:.2f} wall, "
          f"{res['python_over_go_2_workers_cpu']:.2f} per CPU-second")


if __name__ == "__main__":
    main()
