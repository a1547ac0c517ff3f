"""The package installs the ways README's table says: `pip wheel ./python` makes a platform
wheel that installs and runs where there is no Go and no C compiler (two such builds at
once leave python/ as it was), and `pip install -e ./python` gives an editable install that
imports from the checkout.

Each test builds the Go parts (cgo) and makes a virtual environment of its own, so this module
takes a minute or two; it needs Go and a C compiler to build and PyPI (or pip's cache) for
NumPy and Gymnasium. Set CONTAINER_RL_SKIP_INSTALL_TESTS=1 to leave it out locally.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

PYTHON_DIR = os.path.join(ROOT, "python")
CONSTRAINTS = os.path.join(PYTHON_DIR, "constraints.txt")

pytestmark = pytest.mark.skipif(os.environ.get("CONTAINER_RL_SKIP_INSTALL_TESTS") == "1",
                                reason="CONTAINER_RL_SKIP_INSTALL_TESTS=1")


def pip_env():
    env = dict(os.environ, PIP_CONSTRAINT=CONSTRAINTS, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    return env


def run(cmd, env, cwd, timeout=900):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{cmd} exited {r.returncode}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def new_venv(path):
    # The base interpreter (not this venv's) so nothing of the test environment leaks in.
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(path)], check=True, timeout=300)
    return os.path.join(str(path), "bin", "python")


def without_build_tools():
    """An environment whose PATH holds no go, gcc or cc, and no Go or cgo settings: the
    machine a wheel user has."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GO", "CGO_", "CONTAINER_RL_LIB")) and k not in ("CC", "PYTHONPATH", "CONTAINER")}
    keep = []
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if d and not any(os.path.exists(os.path.join(d, t)) for t in ("go", "gcc", "cc")):
            keep.append(d)
    env["PATH"] = os.pathsep.join(keep)
    return env


def source_tree():
    """Every file under python/ (but caches) with its size and modification time."""
    out = {}
    for d, dirs, files in os.walk(PYTHON_DIR):
        dirs[:] = [x for x in dirs if x not in ("__pycache__", ".pytest_cache")]
        for f in files:
            st = os.stat(os.path.join(d, f))
            out[os.path.relpath(os.path.join(d, f), PYTHON_DIR)] = (st.st_size, st.st_mtime_ns)
    return out


def test_a_wheel_installs_and_runs_where_there_is_no_go(tmp_path):
    if shutil.which("go") is None:
        pytest.skip("no Go here to build the wheel with")
    # Two builds at once from one checkout: each builds in a directory of its own and
    # neither writes into python/ (no build/, egg-info, library or command left behind).
    before = source_tree()
    builds = []
    for i in (1, 2):
        cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", PYTHON_DIR, "-w", str(tmp_path / f"dist{i}")]
        builds.append((cmd, subprocess.Popen(cmd, env=pip_env(), cwd=str(tmp_path), stdout=subprocess.PIPE,
                                             stderr=subprocess.STDOUT, text=True)))
    for cmd, p in builds:
        out, _ = p.communicate(timeout=900)
        assert p.returncode == 0, f"{cmd} exited {p.returncode}:\n{out[-3000:]}"
    after = source_tree()
    assert after == before, (f"the builds wrote into python/: new {sorted(set(after) - set(before))}, "
                             f"changed {sorted(k for k in before if k in after and after[k] != before[k])}")
    dist = tmp_path / "dist1"
    wheels = glob.glob(str(dist / "*.whl"))
    assert len(wheels) == 1, wheels
    assert [os.path.basename(w) for w in glob.glob(str(tmp_path / "dist2" / "*.whl"))] == [os.path.basename(wheels[0])]
    name = os.path.basename(wheels[0])
    assert re.fullmatch(r"container_rl-[0-9.]+-py3-none-linux_[a-z0-9_]+\.whl", name), name
    print(f"wheel {name}: {os.path.getsize(wheels[0]) / 2**20:.1f} MiB")

    py = new_venv(tmp_path / "venv")
    run([py, "-m", "pip", "install", "-q", wheels[0] + "[gymnasium]"], pip_env(), cwd=str(tmp_path))

    env = without_build_tools()
    assert shutil.which("go", path=env["PATH"]) is None
    assert shutil.which("gcc", path=env["PATH"]) is None
    site = run([py, "-c", "import container_rl, os; print(os.path.dirname(container_rl.__file__))"],
               env, cwd=str(tmp_path)).strip()
    assert site.startswith(str(tmp_path / "venv")), f"imported from {site}, not from the wheel's install"
    assert os.path.exists(os.path.join(site, "libcontainer.so"))
    out = run([py, os.path.join(PYTHON_DIR, "examples", "gymnasium_random.py"), "--episodes", "2"],
              env, cwd=str(tmp_path))
    assert "mean reward" in out, out
    # The container command the wheel carries, on the venv's PATH as pip installs it.
    cli = os.path.join(str(tmp_path / "venv"), "bin", "container")
    out = run([cli, "selfplay", "--agents", "random,random,random", "--games", "2", "--seed", "1", "--out", str(tmp_path / "run")],
              env, cwd=str(tmp_path))
    assert os.path.exists(tmp_path / "run" / "manifest.json"), out


def test_an_editable_install_imports_from_the_checkout(tmp_path):
    if shutil.which("go") is None:
        pytest.skip("no Go here to build with")
    py = new_venv(tmp_path / "venv")
    run([py, "-m", "pip", "install", "-q", "-e", PYTHON_DIR], pip_env(), cwd=str(tmp_path))
    env = without_build_tools()
    where = run([py, "-c", "import container_rl, os; print(os.path.dirname(container_rl.__file__)); "
                 "e = container_rl.ContainerEnv(players=3); e.reset(seed=1); print(e.agent_selection)"],
                env, cwd=str(tmp_path)).split()
    assert os.path.realpath(where[0]) == os.path.realpath(os.path.join(PYTHON_DIR, "container_rl")), where
    assert where[1].startswith("player_"), where
