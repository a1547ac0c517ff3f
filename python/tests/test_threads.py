"""Two threads using one VectorEnv at once: each call either runs alone or raises the
documented HandleError, never an error about actions or indices from the other thread's
half-written buffers, and the games are left as if only the calls that ran had run."""

import threading
import time

import numpy as np
import pytest

import container_rl as crl
from container_rl._lib import HandleError


def _hammer(calls, seconds=1.5, until=None, deadline=60):
    """Run calls[0] and calls[1] on two threads at once for a while; each returns normally
    or raises. Returns per thread the list of outcomes (None, or the exception). With until,
    the threads go on past seconds until until(outcomes) holds or deadline seconds have passed.
    In that second phase each thread pauses a few milliseconds after every call: on a loaded
    machine a thread whose call takes longer can lose every race to one that calls back to back
    (the handle is busy whenever it tries), so the pauses leave it room while the two threads
    still overlap."""
    stop = threading.Event()
    relax = threading.Event()
    outcomes = ([], [])

    def worker(i):
        rng = np.random.default_rng(i)
        while not stop.is_set():
            try:
                calls[i](rng)
                outcomes[i].append(None)
            except Exception as e:  # noqa: BLE001 - the test sorts them
                outcomes[i].append(e)
            if relax.is_set():
                time.sleep(float(rng.uniform(0.001, 0.005)))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    stop.wait(seconds)
    relax.set()
    t0 = time.monotonic()
    while until is not None and not until(outcomes) and time.monotonic() - t0 < deadline:
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join()
    return outcomes


def _busy(e):
    return isinstance(e, HandleError) and "in use by another thread" in str(e)


@pytest.mark.parametrize("as_list", [False, True])
def test_a_step_is_never_given_the_other_threads_actions(as_list):
    # Thread 0 steps legal actions (it alone moves the games, so they stay legal); thread 1
    # steps an illegal action in every game, which never moves a game. Each call either runs
    # alone or gets HandleError: thread 0 never sees thread 1's actions (IllegalActionError)
    # and thread 1 never plays thread 0's.
    with crl.VectorEnv(num_envs=8, seed=1, workers=1) as vec:
        bad = [-1] * vec.num_envs

        def good(rng):
            a = vec.sample_legal(rng)
            vec.step(a.tolist() if as_list else a)

        def illegal(rng):
            vec.step(bad if as_list else np.array(bad, dtype=np.int64))

        a, b = _hammer([good, illegal], until=lambda o: None in o[0])
        wrong_a = [repr(e) for e in a if e is not None and not _busy(e)]
        assert wrong_a == [], wrong_a[:3]
        assert None in a
        assert None not in b, "an illegal step ran"
        assert all(_busy(e) or isinstance(e, (crl.IllegalActionError, crl.InvalidArgumentError)) for e in b)


def test_two_threads_sampling_get_legal_actions_or_handle_errors():
    with crl.VectorEnv(num_envs=16, seed=3, workers=1) as vec:
        legal = [set(vec.legal[i, :vec.num_legal[i]].tolist()) for i in range(vec.num_envs)]
        bad = []

        def sample(rng):
            a = vec.sample_legal(rng)
            for i, x in enumerate(a.tolist()):
                if x not in legal[i]:
                    bad.append((i, x))

        outs = _hammer([sample, sample])
        wrong = [repr(e) for o in outs for e in o if e is not None and not _busy(e)]
        assert wrong == [], wrong[:3]
        assert bad == [], bad[:3]


def test_stepping_while_another_thread_observes_and_resets():
    with crl.VectorEnv(num_envs=4, seed=2, workers=1) as vec:
        def stepper(rng):
            vec.step(list(vec.sample_legal(rng)))

        def reader(rng):
            vec.observe(int(rng.integers(4)), 0)
            vec.game_info(int(rng.integers(4)))

        a, b = _hammer([stepper, reader], until=lambda o: None in o[0])
        wrong = [repr(e) for e in a + b if e is not None and not _busy(e)]
        assert wrong == [], wrong[:3]
        assert None in a
        # The env still works alone afterwards.
        rng = np.random.default_rng(0)
        for _ in range(50):
            vec.step(vec.sample_legal(rng))
