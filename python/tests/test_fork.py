"""The Go runtime does not survive fork(): a forked child refuses to make Go objects with a
clear error instead of hanging; spawn works."""

import multiprocessing as mp

import pytest

import container_rl as crl


def make_env(q):
    try:
        env = crl.ContainerEnv(players=3)
        env.reset(seed=1)
        q.put("ok " + env.agent_selection)
    except Exception as e:  # noqa: BLE001 - the message goes back to the parent
        q.put(f"{type(e).__name__}: {e}")


@pytest.mark.parametrize("method,want", [("fork", "ContainerError: container_rl: this process was forked"),
                                         ("spawn", "ok player_")])
def test_child_processes(method, want):
    crl.ContainerEnv(players=3).close()  # the library is loaded and used in the parent
    ctx = mp.get_context(method)
    q = ctx.Queue()
    p = ctx.Process(target=make_env, args=(q,))
    p.start()
    try:
        got = q.get(timeout=120)
    finally:
        p.join(timeout=30)
        if p.is_alive():
            p.kill()
    assert got.startswith(want), got
