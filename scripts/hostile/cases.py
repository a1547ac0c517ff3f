"""Run-wide settings, the Case type and its registry, and the setup helpers a case uses to lay
out its files."""

import os
import re
import shutil
import socket


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The opening position of docs/POSITION.md (env/rules/testdata/positions/opening-4p.json).
OPENING = ('{"options":{"players":4},"players":['
           '{"factories":"w","factory_lots":{"2":"w"}},{"factories":"g","factory_lots":{"2":"g"}},'
           '{"factories":"r","factory_lots":{"2":"r"}},{"factories":"b","factory_lots":{"2":"b"}}],'
           '"bank":{"container_lots":["wy","g",""],"cash_lots":[1,2,3]}}')

PANIC_MARKERS = ("panic", "goroutine ", "runtime error", "fatal error")
# progress, not errors: a bar's frames on a terminal, and in a log or pipe the plain lines of
# internal/progress ("games: 2/2 (100%), 0s"), of train bc's reading ("reading: checking
# shards 1/1") and of a training loop ("bc: step 1/6 (16%), ...")
PROGRESS = re.compile(r"\d+%\s*\||\|\s*\(\d+/\d+|^[^:]+: \d+/\d+ \(\d+%\), \d|^reading: .* \d+/\d+$|^\w+: step \d+/\d+ \(\d+%\)")
# control characters and bidirectional overrides: a file name must not reach the terminal raw
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f\u202a-\u202e\u2066-\u2069]")

G = {}  # run-wide settings: container, root, fix, env dirs, timeout


# --------------------------------------------------------------------------------------------
# Cases


class Case:
    """One case. kind "cli": argv (list, or a function of the case directory) run with the
    generic checks; kind "fn": fn(ctx) returns (problems, why) and does its own checks."""

    def __init__(self, cat, name, argv=None, expect="fail", setup=(), outputs=(), may_create=(),
                 stdin=None, env=None, timeout=None, check=None, mention=None, hooks=(), kind="cli",
                 fn=None, stdout_file=None):
        self.cat, self.name, self.argv, self.expect = cat, name, argv, expect
        self.setup = list(setup) if isinstance(setup, (list, tuple)) else [setup]
        self.outputs, self.may_create = list(outputs), list(may_create)
        self.stdin, self.env, self.timeout, self.check = stdin, env or {}, timeout, check
        self.mention, self.hooks, self.kind, self.fn = mention, list(hooks), kind, fn
        self.stdout_file = stdout_file

    @property
    def full(self):
        return f"{self.cat}/{self.name}"


CASES = []
_names = set()


def add(case):
    if case.full in _names:
        raise SystemExit(f"hostile.py: two cases named {case.full}")
    _names.add(case.full)
    CASES.append(case)
    return case


def cli(cat, name, argv, expect="fail", **kw):
    return add(Case(cat, name, argv, expect, **kw))


# --------------------------------------------------------------------------------------------
# Setup helpers (each returns a function of the case directory)


def fx(*names):
    """Copy fixtures (files or directories, symbolic links kept) into the case directory."""
    def f(d):
        for n in names:
            src, dst = os.path.join(G["fix"], n), os.path.join(d, n)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isdir(src) and not os.path.islink(src):
                shutil.copytree(src, dst, symlinks=True)
            else:
                shutil.copy2(src, dst, follow_symlinks=False)
    return f


def fx_as(name, dst_name):
    def f(d):
        src, dst = os.path.join(G["fix"], name), os.path.join(d, dst_name)
        os.makedirs(os.path.dirname(dst) or d, exist_ok=True)
        if os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copy2(src, dst)
    return f


def wr(path, data):
    def f(d):
        p = os.path.join(os.fsencode(d), path) if isinstance(path, bytes) else os.path.join(d, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        b = data() if callable(data) else data
        with open(p, "wb") as fh:
            fh.write(b.encode("utf-8", "surrogateescape") if isinstance(b, str) else b)
    return f


def mkd(path):
    return lambda d: os.makedirs(os.path.join(d, path), exist_ok=True)


def sym(path, target):
    def f(d):
        p = os.path.join(d, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.symlink(target, p)
    return f


def mkfifo(path):
    return lambda d: os.mkfifo(os.path.join(d, path))


def mksock(path):
    def f(d):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(os.path.join(d, path))
        s.close()
    return f


def edit(path, fn):
    """Rewrite a file (bytes -> bytes)."""
    def f(d):
        p = os.path.join(d, path)
        with open(p, "rb") as fh:
            b = fh.read()
        with open(p, "wb") as fh:
            fh.write(fn(b))
    return f


def rm(path):
    def f(d):
        p = os.path.join(d, path)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.remove(p)
    return f
