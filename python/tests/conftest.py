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


@pytest.fixture(scope="session")
def container_bin(tmp_path_factory):
    """The `container` CLI: $CONTAINER if set, else built from this checkout with go build
    into a pytest temporary directory."""
    import shutil
    import subprocess
    path = os.environ.get("CONTAINER")
    if path:
        if not os.access(path, os.X_OK):
            pytest.fail(f"CONTAINER={path} is not an executable file")
        return path
    if shutil.which("go") is None:
        pytest.fail("these tests need the container CLI: set CONTAINER=/path/to/container or put go on PATH")
    out = str(tmp_path_factory.mktemp("bin") / "container")
    subprocess.run(["go", "build", "-o", out, "./cmd/container"], cwd=ROOT, check=True)
    return out


def selfplay(container, out, *, fmt="arrow", games=12, seed=7, shard_games=4,
             agents="random,shipper,manufacturer,random", shard=None, extra=()):
    """Runs `container selfplay` into out (a new directory) and returns out."""
    import subprocess
    cmd = [container, "selfplay", "--agents", agents, "--games", str(games), "--seed", str(seed),
           "--shard-games", str(shard_games), "--format", fmt, "--quiet", "--workers", "2",
           "--out", str(out), *extra]
    if shard is not None:
        cmd += ["--shard", shard]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out


def sharded_selfplay(container, out, parts=3, **kw):
    """Plays a run as `parts` parts (selfplay --shard i/parts into out) and joins them with
    `container dataset merge out out/shard-*`; returns out (a manifest-only dataset whose
    manifest lists the parts' files)."""
    import glob
    import subprocess
    for i in range(parts):
        selfplay(container, out, shard=f"{i}/{parts}", **kw)
    subprocess.run([container, "dataset", "merge", str(out), *sorted(glob.glob(os.path.join(str(out), "shard-*")))],
                   check=True, stdout=subprocess.DEVNULL)
    return out


def dataset_stats(container, path):
    """`container dataset stats --json PATH`, parsed."""
    import json
    import subprocess
    r = subprocess.run([container, "dataset", "stats", "--json", str(path)], check=True,
                       stdout=subprocess.PIPE)
    return json.loads(r.stdout)
