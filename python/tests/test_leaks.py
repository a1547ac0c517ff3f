"""No memory leak across many steps and many objects (resident set size, open handles).

CONTAINER_RL_LEAK_STEPS sets the step count (default 150,000 for CI; the README reports a
1,000,000-step run)."""

import gc
import os
import random

import numpy as np

import container_rl as crl


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def test_rss_is_flat_over_many_aec_and_vector_steps():
    steps = int(os.environ.get("CONTAINER_RL_LEAK_STEPS", "150000"))
    env = crl.ContainerEnv(players=4)
    vec = crl.VectorEnv(64, seed=1, workers=2)
    rng = np.random.default_rng(0)
    rnd = random.Random(0)

    def run(n):
        done, ep = 0, 0
        while done < n:
            env.reset(seed=ep)
            ep += 1
            for agent in env.agent_iter():
                obs, _, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rnd.randrange(len(legal))]))
                done += 1
            env.game_info()
        for _ in range(n // 64):
            vec.step(vec.sample_legal(rng))

    run(steps // 10)  # warm up: buffers, Go heap, Python caches
    gc.collect()
    before = rss_mb()
    run(steps)
    gc.collect()
    after = rss_mb()
    print(f"RSS {before:.1f} MB -> {after:.1f} MB over {steps} AEC + {steps} vector steps")
    assert after - before < 16, f"RSS grew {after - before:.1f} MB over {steps} steps"
    env.close()
    vec.close()


def test_objects_are_freed():
    base = crl.open_handles()
    for i in range(200):
        e = crl.ContainerEnv(players=3 + i % 3)
        e.reset(seed=i)
        b = crl.BotPolicy("valuer", players=3 + i % 3)
        b(e)
        if i % 20 == 0:
            v = crl.VectorEnv(8, seed=i)
            t = crl.BotTable(v, [None, "random", "shipper", "valuer"])
            t.act(np.zeros(8, dtype=np.int64))
            del t, v
        del e, b  # __del__ frees the Go objects
    gc.collect()
    assert crl.open_handles() == base
