import importlib.util
import os
import sys

import pytest

# The installed package is tested (pip install ./python or python/venv.sh); a checkout whose
# library was built in place (pip install -e, or the setup.py build) works without installing.
if importlib.util.find_spec("container_rl") is None:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture
def root():
    return ROOT


def random_game(env, seed, rnd):
    """Play one game with uniformly random legal actions through the AEC loop; returns the
    number of decisions."""
    import numpy as np
    env.reset(seed=seed)
    n = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
        n += 1
    return n


def require(module):
    """Import an optional framework; skip the test module without it, unless
    CONTAINER_RL_REQUIRE_EXTRAS=1 (CI), where a missing framework is an error."""
    if os.environ.get("CONTAINER_RL_REQUIRE_EXTRAS") == "1":
        import importlib
        return importlib.import_module(module)
    return pytest.importorskip(module)
