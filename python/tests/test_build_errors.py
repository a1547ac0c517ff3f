"""The package build (python/setup.py, which pip runs) stops with one line naming what is
missing when Go or a C compiler is not on PATH."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

SETUP = os.path.join(ROOT, "python", "setup.py")


def build(tmp_path, path):
    env = {k: v for k, v in os.environ.items() if k not in ("GO", "CC")}
    env["PATH"] = str(path)
    return subprocess.run([sys.executable, SETUP, "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
                          cwd=os.path.dirname(SETUP), env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def setuptools_available():
    pytest.importorskip("setuptools")


def test_missing_go_is_one_line(tmp_path, setuptools_available):
    empty = tmp_path / "bin"
    empty.mkdir()
    r = build(tmp_path, empty)
    assert r.returncode != 0
    assert r.stderr.strip().splitlines()[-1].startswith("container_rl build: Go is not on PATH"), r.stderr


def test_missing_c_compiler_is_one_line(tmp_path, setuptools_available):
    go = shutil.which("go")
    if go is None:
        pytest.skip("no Go here to build with")
    only_go = tmp_path / "bin"
    only_go.mkdir()
    os.symlink(go, only_go / "go")
    r = build(tmp_path, only_go)
    assert r.returncode != 0
    assert r.stderr.strip().splitlines()[-1].startswith("container_rl build: no C compiler: cgo needs"), r.stderr
