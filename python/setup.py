"""Builds the Go parts of container_rl while setuptools builds the package (pyproject.toml
holds the metadata): the C library libcontainer.so (cgo, -buildmode=c-shared of ../capi)
and the container command (../cmd/container) go into container_rl/ before it is packaged,
for `pip install`, `pip install -e` and `pip wheel` alike.

Needs Go (the version in ../go.mod) and a C compiler for cgo; the build fails with one line
saying which is missing. CONTAINER_RL_CLI=0 leaves the command out (a smaller wheel).
"""

import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1 (pyproject.toml asks for newer; this is for `setup.py build_py`)
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:
        bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PKG = os.path.join(HERE, "container_rl")


def fail(msg):
    # One line, on stderr, and a non-zero exit: pip shows it under "error: subprocess-exited-with-error".
    sys.stderr.write(f"container_rl build: {msg}\n")
    raise SystemExit(1)


def go_tool():
    go = os.environ.get("GO") or shutil.which("go")
    if not go:
        fail("Go is not on PATH (install Go from go.dev/dl, version in go.mod, or set GO=/path/to/go); "
             "it builds the engine library with cgo")
    return go


def check_c_compiler(go):
    cc = os.environ.get("CC")
    if not cc:
        try:
            cc = subprocess.run([go, "env", "CC"], capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError) as e:
            fail(f"`{go} env CC` failed: {e}")
    exe = cc.split()[0] if cc else "gcc"
    if not shutil.which(exe):
        fail(f"no C compiler: cgo needs {exe!r} on PATH (apt-get install gcc, or set CC)")


def build_go():
    if not (os.path.exists(os.path.join(ROOT, "go.mod")) and os.path.isdir(os.path.join(ROOT, "capi"))):
        fail(f"{ROOT} is not the repository root (no go.mod and capi/): build from a checkout, "
             "pip install ./python")
    go = go_tool()
    check_c_compiler(go)
    env = dict(os.environ, CGO_ENABLED="1")
    env.setdefault("GOFLAGS", "-buildvcs=false")
    # No -trimpath: the compiled packages are then shared with plain `go build` runs (CI builds
    # the command first), so only linking is left to do here.
    flags = ["-ldflags=-s -w"]
    lib = os.path.join(PKG, "libcontainer.so")
    cmds = [[go, "build", *flags, "-buildmode=c-shared", "-o", lib, "./capi"]]
    cli = os.path.join(PKG, "bin", "container")
    want_cli = os.environ.get("CONTAINER_RL_CLI", "1") != "0"
    if want_cli:
        cmds.append([go, "build", *flags, "-o", cli, "./cmd/container"])
    elif os.path.exists(cli):
        os.remove(cli)
    for cmd in cmds:
        print("container_rl build:", " ".join(cmd), flush=True)
        r = subprocess.run(cmd, cwd=ROOT, env=env)
        if r.returncode != 0:
            fail(f"`{' '.join(cmd)}` failed (exit {r.returncode}); its errors are above")
    header = os.path.join(PKG, "libcontainer.h")
    if os.path.exists(header):
        os.remove(header)


class BuildPyWithGo(build_py):
    def run(self):
        build_go()
        super().run()
        # build_py copies package data without its mode: the command must stay executable.
        cli = os.path.join(self.build_lib, "container_rl", "bin", "container")
        if not self.editable_mode and os.path.exists(cli):
            os.chmod(cli, 0o755)


cmdclass = {"build_py": BuildPyWithGo}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """Native code loaded with ctypes: any Python 3, this platform only."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(cmdclass=cmdclass, distclass=BinaryDistribution)
