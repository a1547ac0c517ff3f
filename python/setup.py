"""Builds the Go parts of container_rl while setuptools builds the package (pyproject.toml
holds the metadata): the C library libcontainer.so (cgo, -buildmode=c-shared of ../capi)
and the container command (../cmd/container) go into container_rl/ before it is packaged,
for `pip install`, `pip install -e` and `pip wheel` alike.

Needs Go (the version in ../go.mod) and a C compiler for cgo; the build fails with one line
saying which is missing. CONTAINER_RL_CLI=0 leaves the command out (a smaller wheel).

`pip install ./python` and `pip wheel ./python` write nothing into the checkout: setuptools'
build/ and egg-info directories go to a temporary directory of this build (removed at its
end) and the Go outputs straight into the build's copy of the package, so two builds at once
in one checkout do not meet. Only an editable install (`pip install -e`) puts the library
and the command into python/container_rl/, where the editable package imports them from;
each is written under a temporary name and renamed into place.
"""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile

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


def build_go(dest):
    """Build libcontainer.so and (unless CONTAINER_RL_CLI=0) bin/container into the package
    directory dest."""
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
    out = [("libcontainer.so", ["-buildmode=c-shared"], "./capi")]
    cli = os.path.join(dest, "bin", "container")
    if os.environ.get("CONTAINER_RL_CLI", "1") != "0":
        out.append((os.path.join("bin", "container"), [], "./cmd/container"))
    elif os.path.exists(cli):
        os.remove(cli)
    # Each output is built in a directory of its own (c-shared also writes a header there)
    # and renamed into dest, so a concurrent build or a running import never sees half a file.
    with tempfile.TemporaryDirectory(prefix="container_rl-go-") as tmp:
        for name, mode, pkg in out:
            target = os.path.join(tmp, os.path.basename(name))
            cmd = [go, "build", *flags, *mode, "-o", target, pkg]
            print("container_rl build:", " ".join(cmd), flush=True)
            r = subprocess.run(cmd, cwd=ROOT, env=env)
            if r.returncode != 0:
                fail(f"`{' '.join(cmd)}` failed (exit {r.returncode}); its errors are above")
            final = os.path.join(dest, name)
            os.makedirs(os.path.dirname(final), exist_ok=True)
            shutil.move(target, final + ".tmp")
            os.replace(final + ".tmp", final)


class BuildPyWithGo(build_py):
    def run(self):
        if self.editable_mode:
            # The editable package is the checkout's python/container_rl/: the library goes there.
            build_go(PKG)
            super().run()
            return
        super().run()
        # Straight into the build's copy of the package (a temporary directory, see below),
        # replacing whatever package data build_py copied from an editable install's leftovers.
        build_go(os.path.join(self.build_lib, "container_rl"))


def _scratch_dirs():
    """setuptools' build/ and egg-info directories in a temporary directory of this build
    instead of python/ (setup.cfg-style options; pip's own --output-dir settings still win)."""
    tmp = tempfile.mkdtemp(prefix="container_rl-build-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    return {"build": {"build_base": os.path.join(tmp, "build")},
            "egg_info": {"egg_base": tmp}}


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


setup(cmdclass=cmdclass, distclass=BinaryDistribution, options=_scratch_dirs())
