#!/usr/bin/env python3
"""Hostile-input sweep of the container command line, its merges, `train exit`, a full disk,
the Python package and the web server (docs/TESTING.md, "Hostile-input sweep").

    python3 scripts/hostile.py --container ./container [--out DIR] [--only REGEX]

Every case runs a command line (or sends an HTTP request to a `container serve` started here on
127.0.0.1 with a free port, or runs a snippet of the Python package in a fresh interpreter) on
files made for it in a scratch directory, and prints one line: OK or BAD, the case's name and
why. The last line is "N cases, B BAD"; the exit status is 1 when any case is BAD.

What every command-line case checks, beyond its own expectation (accepted, refused or either):
it exits within the time limit; standard error holds no "panic", "goroutine ", "runtime error"
or "fatal error"; a refused command (non-zero exit) prints exactly one non-empty line on
standard error (progress bars aside), starting "container: " (and not "container: container"),
with no control characters; every file that existed before and that the case does not name as
an intended output is byte for byte the same after (links stay links, pipes stay pipes); a
refused command leaves no new file behind unless the case allows it; the shared fixtures, the
other cases' directories, HOME and TMPDIR (all inside the scratch directory) are left alone.
HTTP: no request gets a 5xx or a dropped connection, bad requests get the 4xx the docs name, API
errors are {"error": "one line"}, and the server stops cleanly on SIGINT having changed nothing
under --data. Python: a bad call raises a Python exception (never InternalError, which is a Go
panic caught at the boundary) and the interpreter is never killed by a signal.

Python 3.11 standard library only. Disk-full cases need root (they mount a small tmpfs) and are
skipped with a note otherwise; Python cases need .venv/bin/python with container_rl importable
(python/venv.sh) or --python PY, and are skipped with a note otherwise.
"""

import argparse
import fcntl
import fnmatch
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The opening position of docs/POSITION.md (env/rules/testdata/positions/opening-4p.json).
OPENING = ('{"options":{"players":4},"players":['
           '{"factories":"w","factory_lots":{"2":"w"}},{"factories":"g","factory_lots":{"2":"g"}},'
           '{"factories":"r","factory_lots":{"2":"r"}},{"factories":"b","factory_lots":{"2":"b"}}],'
           '"bank":{"container_lots":["wy","g",""],"cash_lots":[1,2,3]}}')

PANIC_MARKERS = ("panic", "goroutine ", "runtime error", "fatal error")
PROGRESS = re.compile(r"\d+%\s*\||\|\s*\(\d+/\d+")
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


# --------------------------------------------------------------------------------------------
# Hooks: things that run around the command (a reader on a pipe, a lock held)


class _FifoPeer:
    """The other end of a named pipe, served in a thread while the command runs. A subclass
    says how it opens the pipe (mode), which end unblocks a peer the command never opened
    (unblock) and what it does with the open file (serve)."""

    mode, unblock = "rb", os.O_WRONLY

    def __init__(self, path):
        self.path = path

    def start(self, d):
        self.p = os.path.join(d, self.path)

        def run():
            try:
                with open(self.p, self.mode) as fh:
                    self.serve(fh)
            except OSError:
                pass
        self.t = threading.Thread(target=run, daemon=True)
        self.t.start()

    def stop(self, d):
        self.t.join(2)
        if self.t.is_alive():  # the command never opened the pipe: let the peer's open return
            try:
                os.close(os.open(self.p, self.unblock | os.O_NONBLOCK))
            except OSError:
                pass
            self.t.join(5)

    def problems(self, res):
        return []


class FifoReader(_FifoPeer):
    """Reads a named pipe while the command runs (as `cat PIPE` would)."""

    mode, unblock = "rb", os.O_WRONLY

    def __init__(self, path, must_get=True):
        super().__init__(path)
        self.must_get, self.data = must_get, b""

    def serve(self, fh):
        self.data = fh.read()

    def problems(self, res):
        if self.must_get and res.rc == 0 and not self.data:
            return [f"the reader of {self.path} got nothing"]
        return []


class FifoWriter(_FifoPeer):
    """Writes data into a named pipe while the command runs."""

    mode, unblock = "wb", os.O_RDONLY

    def __init__(self, path, data):
        super().__init__(path)
        self.data = data

    def serve(self, fh):
        fh.write(self.data)


class Flock:
    """Holds an exclusive flock on a file while the command runs (another run writing)."""

    def __init__(self, path):
        self.path = path

    def start(self, d):
        self.fh = open(os.path.join(d, self.path), "a")
        fcntl.flock(self.fh, fcntl.LOCK_EX)

    def stop(self, d):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()

    def problems(self, res):
        return []


# --------------------------------------------------------------------------------------------
# Running commands and the generic checks


class Result:
    def __init__(self, rc, out, err, hung, secs, timeout):
        self.rc, self.out, self.err, self.hung, self.secs, self.timeout = rc, out, err, hung, secs, timeout

    @property
    def errtext(self):
        return self.err.decode("utf-8", "replace")

    def lines(self):
        out = []
        for s in re.split(r"[\r\n]+", self.errtext):
            if s.strip() and not PROGRESS.search(s):
                out.append(s)
        return out

    def first(self):
        ls = self.lines()
        return ls[-1] if ls else ""


def base_env(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ("JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID")}
    env.update(HOME=G["home"], TMPDIR=G["tmp"], LC_ALL="C.UTF-8")
    env.update(extra or {})
    return env


def run_cmd(argv, cwd, stdin=None, env=None, timeout=None, stdout_path=None):
    timeout = timeout or G["timeout"]
    out_fh = open(stdout_path, "ab") if stdout_path else subprocess.PIPE
    t0 = time.monotonic()
    p = subprocess.Popen([G["container"]] + list(argv), cwd=cwd, env=base_env(env),
                         stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         stdout=out_fh, stderr=subprocess.PIPE, start_new_session=True)
    hung = False
    try:
        out, err = p.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        hung = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
    if stdout_path:
        out_fh.close()
        out = b""
    return Result(p.returncode, out or b"", err or b"", hung, time.monotonic() - t0, timeout)


def generic(res, expect, mention=None):
    """The checks every command-line run gets."""
    probs = []
    if res.hung:
        return [f"hang: still running after {res.timeout:.0f}s (killed)"]
    if res.rc < 0:
        probs.append(f"killed by signal {-res.rc}")
    et = res.errtext
    for m in PANIC_MARKERS:
        if m in et:
            i = et.index(m)
            probs.append(f"standard error holds {m!r}: {et[max(0, i - 60):i + 80]!r}")
            break
    if res.rc not in (0, 1, 130) and res.rc >= 0:
        probs.append(f"exit status {res.rc}")
    lines = res.lines()
    if res.rc != 0:
        if len(lines) != 1:
            probs.append(f"{len(lines)} lines on standard error, want 1: {[l[:100] for l in lines[:3]]}")
        if lines:
            line = lines[-1]
            if not line.startswith("container: "):
                probs.append(f"error line does not start with 'container: ': {line[:120]!r}")
            if line.startswith("container: container"):
                probs.append(f"error line names the program twice: {line[:120]!r}")
            if CONTROL.search(line.rstrip("\r")):
                probs.append(f"control character in the error line: {line[:160]!r}")
            if mention:
                for m in ([mention] if isinstance(mention, str) else mention):
                    if m not in line:
                        probs.append(f"error line does not name {m!r}: {line[:200]!r}")
    if expect == "ok" and res.rc != 0:
        probs.append(f"refused (exit {res.rc}): {res.first()[:200]}")
    if expect == "fail" and res.rc == 0:
        probs.append("accepted (exit 0)")
    return probs


def snapshot(root):
    """path -> signature of everything under root (symbolic links not followed)."""
    out = {}
    stack = [(root, "")]
    while stack:
        d, rel = stack.pop()
        try:
            ents = list(os.scandir(d))
        except OSError:
            continue
        for e in ents:
            r = rel + e.name
            try:
                st = os.lstat(e.path)
            except OSError:
                continue
            m = st.st_mode
            if stat.S_ISLNK(m):
                out[r] = ("link", os.readlink(e.path))
            elif stat.S_ISDIR(m):
                out[r] = ("dir",)
                stack.append((e.path, r + "/"))
            elif stat.S_ISREG(m):
                h = hashlib.sha256()
                try:
                    with open(e.path, "rb") as fh:
                        for chunk in iter(lambda: fh.read(1 << 20), b""):
                            h.update(chunk)
                except OSError as ex:
                    h.update(repr(ex).encode())
                out[r] = ("file", h.hexdigest(), stat.S_IMODE(m))
            elif stat.S_ISFIFO(m):
                out[r] = ("fifo",)
            elif stat.S_ISSOCK(m):
                out[r] = ("socket",)
            else:
                out[r] = ("other", m)
    return out


def quick_snapshot(root):
    out = {}
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            out[os.path.relpath(p, root)] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def matches(path, pats):
    """fnmatch patterns ("*" also crosses "/"); a pattern starting with "!" exempts what it
    matches (a user's file inside an output directory must stay)."""
    pos = [p for p in pats if not p.startswith("!")]
    neg = [p[1:] for p in pats if p.startswith("!")]
    hit = lambda ps: any(fnmatch.fnmatchcase(path, p) or (p.endswith("/*") and path == p[:-2]) for p in ps)
    return hit(pos) and not hit(neg)


def file_problems(before, after, outputs, may_create, rc):
    probs = []
    for p, sig in sorted(before.items()):
        if matches(p, outputs):
            continue
        a = after.get(p)
        if a is None:
            probs.append(f"removed {p!r}")
        elif a != sig:
            what = "replaced" if a[0] != sig[0] else "changed"
            probs.append(f"{what} {p!r} ({sig[0]} -> {a[0]})")
    if rc != 0:
        new = [p for p in sorted(after) if p not in before and not matches(p, outputs + may_create)]
        if new:
            probs.append(f"refused but left {len(new)} new path(s): {new[:4]}")
    return probs


def outside_problems():
    """The fixtures, the other cases and the scratch HOME/TMPDIR are left alone."""
    probs = []
    now = quick_snapshot(G["fix"])
    if now != G["fix_snap"]:
        diff = sorted(set(now.items()) ^ set(G["fix_snap"].items()))
        probs.append(f"touched the shared fixtures: {[x[0] for x in diff][:4]}")
        G["fix_snap"] = now
    for name in ("home", "tmp"):
        left = os.listdir(G[name])
        if left:
            probs.append(f"left {left[:4]} in the scratch {name.upper() if name == 'tmp' else 'HOME'}")
            for x in left:
                p = os.path.join(G[name], x)
                shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else os.remove(p)
    return probs


def run_cli_case(c, d):
    for s in c.setup:
        s(d)
    argv = c.argv(d) if callable(c.argv) else c.argv
    before = snapshot(d)
    siblings = set(os.listdir(os.path.dirname(d)))
    for h in c.hooks:
        h.start(d)
    stdout_path = os.path.join(d, c.stdout_file) if c.stdout_file else None
    try:
        stdin = c.stdin() if callable(c.stdin) else c.stdin
        if isinstance(stdin, str):
            stdin = stdin.encode("utf-8", "surrogateescape")
        res = run_cmd(argv, d, stdin=stdin, env=c.env, timeout=c.timeout, stdout_path=stdout_path)
    finally:
        for h in c.hooks:
            h.stop(d)
    probs = generic(res, c.expect, c.mention)
    for h in c.hooks:
        probs += h.problems(res)
    after = snapshot(d)
    outs = c.outputs + ([c.stdout_file] if c.stdout_file else [])
    probs += file_problems(before, after, outs, c.may_create, res.rc)
    if set(os.listdir(os.path.dirname(d))) != siblings:
        probs.append("changed the scratch cases directory outside its own")
    if c.check:
        probs += c.check(d, res) or []
    probs += outside_problems()
    why = f"exit {res.rc}" if not res.hung else "hung"
    if res.rc != 0 and not res.hung:
        why += ": " + res.first()[:150]
    return probs, why


# --------------------------------------------------------------------------------------------
# Fixtures


def build_fixtures():
    fix = G["fix"]
    os.makedirs(fix)

    def must(argv, stdout_path=None):
        r = run_cmd(argv, fix, timeout=120, stdout_path=stdout_path)
        if r.rc != 0:
            raise SystemExit(f"hostile.py: building a fixture failed: container {' '.join(argv)}: {r.errtext[-500:]}")
        return r
    with open(os.path.join(fix, "opening.json"), "w") as fh:
        fh.write(OPENING)
    r = must(["apply", "opening.json", "produce", "--record"])
    with open(os.path.join(fix, "rec.json"), "wb") as fh:
        fh.write(r.out)
    must(["eval", "--agents", "random", "--games", "2", "--save", "saved"])
    must(["selfplay", "--agents", "random", "--games", "2", "--out", "sp", "-q"])
    for i in (0, 1):
        must(["selfplay", "--agents", "random", "--games", "4", "--shard", f"{i}/2", "--out", "shards", "-q"])
        must(["selfplay", "--agents", "random", "--games", "4", "--seed", "2", "--shard", f"{i}/2", "--out",
              "shards2", "-q"])
        must(["eval", "--agents", "random", "--games", "4", "--shard", f"{i}/2", "--out", "ev"])
        must(["eval", "--agents", "random", "--games", "4", "--seed", "2", "--shard", f"{i}/2", "--out", "ev2"])
        must(["rate", "--agents", "random,valuer", "--games", "4", "--shard", f"{i}/2", "--out", "rt"])
    must(["eval", "--agents", "random", "--games", "2", "--csv", "own.csv"])
    must(BC + ["--out", "bc"])
    must(["export", "--run", "bc", "--out", "x.bot"])
    must(PPO + ["--out", "ppo"])
    must(EXIT + ["--out", "ex"])
    # A copy of every fixture directory's files for the cases that damage them.
    with open(os.path.join(fix, "x.bot"), "rb") as fh:
        bot = fh.read()
    os.makedirs(os.path.join(fix, "bots"))
    for name, data in bot_variants(bot).items():
        with open(os.path.join(fix, "bots", name), "wb") as fh:
            fh.write(data)
    os.makedirs(os.path.join(fix, "bots", "dir.bot"))
    with open(os.path.join(fix, "bc", "checkpoint.ckpt"), "rb") as fh:
        ck = fh.read()
    with open(os.path.join(fix, "bots", "ckpt.bot"), "wb") as fh:
        fh.write(ck)
    # Results files: the canonical-JSON checksum is recomputed here for the forged cases;
    # check it reproduces the file's own.
    f0 = os.path.join(fix, "ev", "results-shard-00000-of-00002.json")
    with open(f0, "rb") as fh:
        obj = json.loads(fh.read())
    G["checksum_ok"] = results_sum(obj) == obj.get("checksum")


def with_out(base, out):
    """base with the value of its --out replaced."""
    i = base.index("--out")
    return base[:i + 1] + [out] + base[i + 2:]


BC = ["train", "bc", "--data", "sp", "--steps", "2", "--log-every", "1", "--checkpoint-every", "1", "--width", "8",
      "--depth", "1", "--batch", "16"]
PPO = ["train", "ppo", "--iterations", "1", "--games", "1", "--eval-every", "0", "--width", "8", "--depth", "1",
       "--minibatch", "8", "--opponents", "random", "--pool-every", "0"]
EXIT = ["train", "exit", "--games", "1", "--sims", "2", "--generations", "1", "--steps", "1", "--gate-every", "0",
        "--width", "8", "--depth", "1", "--selfplay-turn-limit", "5", "--shard-games", "1", "--batch", "8",
        "--workers", "1"]


def bot_split(b):
    n = struct.unpack("<I", b[8:12])[0]
    return b[:8], b[12:12 + n], b[12 + n:-4]


def bot_join(magic, hdr, rest):
    body = magic + struct.pack("<I", len(hdr)) + hdr + rest
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def bot_variants(b):
    magic, hdr, rest = bot_split(b)
    assert hdr.startswith(b"{") and b'"name":' in hdr, "unexpected bot header"
    return {
        "trunc.bot": b[:len(b) // 2],
        "trunc-header.bot": b[:20],
        "garbage.bot": b"this is not a bot file\n" * 20,
        "empty.bot": b"",
        "dup.bot": bot_join(magic, b'{"name":"twice",' + hdr[1:], rest),
        "caps.bot": bot_join(magic, hdr.replace(b'"name":', b'"Name":', 1), rest),
        "unknown-key.bot": bot_join(magic, b'{"nosuch":1,' + hdr[1:], rest),
        "trailing-header.bot": bot_join(magic, hdr + b" {}", rest),
        "badmagic.bot": b"CNTRBOT9" + b[8:],
        "badcrc.bot": b[:-4] + bytes(x ^ 0xFF for x in b[-4:]),
        "trailing.bot": b + b"\x00",
        "hugehdr.bot": magic + b"\xff\xff\xff\xff" + b[12:],
        "flipped.bot": b[:len(b) - 40] + bytes([b[len(b) - 40] ^ 0x55]) + b[len(b) - 39:],
    }


BAD_BOTS = ["trunc.bot", "trunc-header.bot", "garbage.bot", "empty.bot", "dup.bot", "caps.bot", "unknown-key.bot",
            "trailing-header.bot", "badmagic.bot", "badcrc.bot", "trailing.bot", "hugehdr.bot", "flipped.bot",
            "dir.bot", "ckpt.bot", "missing.bot"]


def botfiles(d):
    shutil.copytree(os.path.join(G["fix"], "bots"), d, dirs_exist_ok=True)
    shutil.copy2(os.path.join(G["fix"], "x.bot"), os.path.join(d, "x.bot"))


# --- results files -------------------------------------------------------------------------


def _canon(v):
    if isinstance(v, dict):
        return "{" + ",".join(_canon_str(k) + ":" + _canon(v[k]) for k in sorted(v)) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_canon(x) for x in v) + "]"
    if isinstance(v, str):
        return _canon_str(v)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, _Num):
        return v.text
    return str(v)


def _canon_str(s):
    # Go's encoding/json: HTML-safe escapes, \u2028/\u2029, other controls as \u00XX.
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or ch in "<>&" or o in (0x2028, 0x2029):
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class _Num:
    def __init__(self, text):
        self.text = text


def results_sum(obj):
    m = {k: v for k, v in obj.items() if k != "checksum"}
    return hashlib.sha256(_canon(m).encode()).hexdigest()


def forge(path, fn, fix_sum=True):
    """Edit a results file's JSON with fn(obj) and write it back, with its checksum
    recomputed (fix_sum) or left as it was."""
    def f(d):
        p = os.path.join(d, path)
        with open(p) as fh:
            obj = json.load(fh)
        fn(obj)
        if fix_sum:
            obj["checksum"] = results_sum(obj)
        with open(p, "w") as fh:
            json.dump(obj, fh, separators=(",", ":"))
    return f


# --------------------------------------------------------------------------------------------
# The command-line cases


R0 = "ev/results-shard-00000-of-00002.json"
R1 = "ev/results-shard-00001-of-00002.json"
COMMAND_PATHS = [["selfplay"], ["eval"], ["rate"], ["bench"], ["spec"], ["bots"], ["dataset"], ["dataset", "stats"],
                 ["dataset", "head"], ["dataset", "merge"], ["train"], ["train", "bc"], ["train", "ppo"],
                 ["train", "exit"], ["export"], ["replay"], ["legal"], ["score"], ["apply"], ["serve"], ["play"],
                 ["demo"], ["completion"]]


def cases_unknown():
    cat = "unknown"
    for i, name in enumerate(["evall", "selfpaly", "Eval", "EVAL", "x" * 300, "évaluer", "eval\x1b[31m", "-x",
                              "--nosuch", "---", "train bcc", "train BC", "dataset mrege", "dataset Stats",
                              "help nosuch", "help train nosuch", "help eval extra", "completion nosuch",
                              "completion bash extra"]):
        argv = name.split(" ") if " " in name and "\x1b" not in name else [name]
        slug = re.sub(r"[^a-zA-Z0-9]+", "-", name).strip("-")[:24] or "dashes"
        cli(cat, f"command-{slug}", argv, mention=None)
    for path in COMMAND_PATHS:
        p = "-".join(path)
        cli(cat, f"{p}-long-flag", path + ["--no-such-flag"], mention="no-such-flag")
        cli(cat, f"{p}-short-flag", path + ["-Z"], mention="Z")
        cli(cat, f"{p}-flag-typo-value", path + ["--gmaes=2"], mention="gmaes")
    for path in [["selfplay", "--agents", "random", "--games", "2", "--out", "o", "-q"],
                 ["eval", "--agents", "random", "--games", "2"], ["rate", "--agents", "random", "--games", "2"],
                 ["bench", "--games", "2"], ["spec"], ["bots"], ["serve", "--addr", "127.0.0.1:0"],
                 ["demo", "--out", "o", "--games", "2", "--eval-games", "1", "--train-steps", "1"],
                 ["play", "--players", "3"], ["export", "--run", "bc", "--out", "o.bot"],
                 ["train", "bc", "--data", "sp", "--out", "o"], ["train", "ppo", "--out", "o"],
                 ["train", "exit", "--out", "o"]]:
        cli(cat, f"{path[0]}{'-' + path[1] if path[0] == 'train' else ''}-stray-argument", path + ["stray"],
            setup=fx("sp", "bc"), timeout=20)
    for argv, name in [(["legal", "a.json", "b.json"], "legal-two-files"), (["score", "a", "b"], "score-two-files"),
                       (["replay", "a", "b"], "replay-two-files"), (["dataset", "stats", "a", "b"], "stats-two-dirs"),
                       (["dataset", "head", "a", "b"], "head-two-dirs"), (["legal"], "legal-no-file"),
                       (["score"], "score-no-file"), (["replay"], "replay-no-file"), (["apply"], "apply-nothing"),
                       (["apply", "opening.json"], "apply-no-move"), (["dataset", "stats"], "stats-no-dir"),
                       (["dataset", "head"], "head-no-dir"), (["dataset", "merge"], "merge-nothing"),
                       (["dataset", "merge", "out"], "merge-no-parts"), (["selfplay", "--out", "o"], "selfplay-no-agents"),
                       (["selfplay", "--agents", "random"], "selfplay-no-out"), (["eval"], "eval-no-agents"),
                       (["rate"], "rate-no-agents"), (["export"], "export-nothing"),
                       (["export", "--run", "bc"], "export-no-out"), (["export", "--out", "o.bot"], "export-no-run"),
                       (["train", "bc"], "train-bc-nothing"), (["train", "bc", "--out", "o"], "train-bc-no-data"),
                       (["train", "ppo"], "train-ppo-no-out"), (["train", "exit"], "train-exit-no-out"),
                       (["eval", "--agents", "random", "--bots", "random"], "eval-agents-and-bots"),
                       (["rate", "--agents", "random", "--bots", "random"], "rate-agents-and-bots"),
                       (["selfplay", "--agents", "random", "--bots", "random", "--out", "o"], "selfplay-agents-and-bots"),
                       (["export", "--run", "bc", "--upgrade", "x.bot", "--out", "o.bot"], "export-run-and-upgrade"),
                       (["train", "bc", "--data", "sp", "--teachers", "random", "--out", "o"], "bc-data-and-teachers"),
                       (["train", "bc", "--data", "sp", "--record", "random", "--out", "o"], "bc-record-with-data"),
                       (["eval", "--merge"], "eval-merge-nothing"), (["rate", "--merge"], "rate-merge-nothing"),
                       (["eval", "--upgrade-results", "--agents", "random"], "upgrade-without-merge"),
                       (["eval", "--agents", "random", "--games", "2", "--force"], "force-without-csv"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--format", "csv"], "bad-format"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--compression", "brotli"], "bad-compression"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--compression", "snappy"], "snappy-for-arrow"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--reward", "money"], "bad-reward"),
                       (["eval", "--agents", "random", "--games", "2", "--rules", "modern"], "bad-rules"),
                       (["eval", "--agents", "random", "--games", "2", "--length", "long"], "bad-length"),
                       (["eval", "--agents", "random", "--games", "2", "--modules", "trucks,nosuch"], "bad-module"),
                       (["eval", "--agents", "random", "--games", "2", "--modules", "trucks,trucks"], "module-twice"),
                       (["eval", "--agents", "random", "--games", "2", "--schedule", "random"], "bad-schedule"),
                       (["train", "bc", "--data", "sp", "--out", "o", "--norm", "batch"], "bad-norm"),
                       (["spec", "--players", "4", "--rules", ""], "empty-rules")]:
        # harmless: --force alone, a module named twice, --rules "" (the default)
        expect = "any" if name in ("force-without-csv", "module-twice", "empty-rules") else "fail"
        # the line names the command once, and rate as rate (it shares eval's code)
        mention = {"eval-agents-and-bots": "container: eval: give", "rate-agents-and-bots": "container: rate: give",
                   "selfplay-agents-and-bots": "container: selfplay: give", "rate-no-agents": "container: rate: ",
                   "rate-merge-nothing": "container: rate: "}.get(name)
        cli(cat, name, argv, expect=expect, setup=fx("sp", "bc", "x.bot", "opening.json"), timeout=20, mention=mention)
    cli(cat, "completion-bash", ["completion", "bash"], expect="ok")
    cli(cat, "version", ["--version"], expect="ok")


# flag tables: (base argv, flag, min, max, kind) -- kind "int", "uint" or "float"
SP = ["selfplay", "--agents", "random", "--games", "2", "--out", "o", "-q"]
EV = ["eval", "--agents", "random", "--games", "2"]
RT = ["rate", "--agents", "random", "--games", "2"]
BE = ["bench", "--games", "2"]
BCT = ["train", "bc", "--data", "sp", "--out", "o", "--steps", "2", "--width", "8", "--depth", "1"]
PPT = ["train", "ppo", "--out", "o", "--iterations", "1", "--games", "1", "--eval-every", "0", "--width", "8",
       "--depth", "1", "--opponents", "random"]
EXT = ["train", "exit", "--out", "o", "--generations", "1", "--games", "1", "--sims", "2", "--steps", "1",
       "--gate-every", "0", "--width", "8", "--depth", "1", "--selfplay-turn-limit", "5"]
EXT_NOSIMS = EXT[:EXT.index("--sims")] + EXT[EXT.index("--sims") + 2:]
FLAGS = [
    (SP, "games", 1, 100_000_000, "int"), (SP, "workers", 0, 4096, "int"), (SP, "shard-games", 1, 100_000_000, "int"),
    (SP, "turn-limit", 0, 100_000, "int"), (SP, "players", 3, 5, "players"), (SP, "seed", 0, None, "uint"),
    (EV, "games", 1, 100_000_000, "int"), (EV, "workers", 0, 4096, "int"), (EV, "batch", 0, 65536, "int"),
    (EV, "players", 3, 5, "players"), (EV, "turn-limit", 0, 100_000, "int"), (EV, "seed", 0, None, "uint"),
    (RT, "games", 1, 100_000_000, "int"), (RT, "workers", 0, 4096, "int"), (RT, "players", 3, 5, "players"),
    (BE, "games", 1, 1_000_000, "int"), (BE, "workers", 1, 4096, "int"), (BE, "players", 3, 5, "int"),
    (["spec"], "players", 3, 5, "int"),
    (BCT, "steps", 1, 100_000_000, "int"), (BCT, "batch", 1, 65536, "int"), (BCT, "width", 1, 4096, "int"),
    (BCT, "depth", 1, 16, "int"), (BCT, "log-every", 1, 100_000_000, "int"), (BCT, "val-percent", 0, 50, "int"),
    (BCT, "lr", 0, 10.0, "float+"), (BCT, "value-coef", 0, 1000.0, "float"),
    (["train", "bc", "--teachers", "random", "--out", "o", "--steps", "1"], "games", 1, 1_000_000, "int"),
    (PPT, "iterations", 1, 100_000_000, "int"), (PPT, "games", 1, 65536, "int"), (PPT, "epochs", 1, 1000, "int"),
    (PPT, "minibatch", 1, 65536, "int"), (PPT, "players", 3, 5, "int"), (PPT, "eval-games", 1, 1_000_000, "int"),
    (PPT, "entropy-coef", 0, 1000.0, "float"),
    (EXT, "generations", 1, 100_000_000, "int"), (EXT, "games", 1, 1_000_000, "int"), (EXT, "sims", 1, 10_000_000, "int"),
    (EXT, "window", 1, 1000, "int"), (EXT, "workers", 1, 4096, "int"), (EXT, "players", 3, 5, "int"),
    (EXT, "c", 0, 100.0, "float"), (EXT, "value-mix", 0, 1.0, "float"), (EXT, "gate-margin", -1.0, 1.0, "float"),
    (["dataset", "stats", "sp"], "top", 0, 1_000_000, "int"), (["dataset", "head", "sp"], "rows", 0, 1_000_000, "int"),
    (["play", "--opponents", "random"], "players", 3, 5, "int"),
    (["demo", "--out", "o", "--games", "2", "--eval-games", "1", "--train-steps", "1"], "games", 1, 1_000_000, "int"),
    (["demo", "--out", "o", "--games", "2", "--eval-games", "1", "--train-steps", "1"], "eval-games", 1, 1_000_000, "int"),
    (["serve", "--addr", "127.0.0.1:0"], "max-games", 1, 100_000, "int"),
]


def bad_values(lo, hi, kind):
    if kind == "uint":
        return ["-1", "abc", "1.5", "", "18446744073709551616", "1e9"]
    if kind.startswith("float"):
        return ["nan", "inf", "abc", "", str(hi * 10), "0" if kind == "float+" else str(lo - 1)]
    if kind == "players":  # 0 means "from the agents"; 1, 2 and 6 are not games of Container
        return ["-1", "2", "6", "abc", "", "1e9"]
    vals = [str(lo - 1), str(hi + 1), "abc", "", "99999999999999999999", "1e9"]
    if lo - 1 != -1:
        vals.append("-1")
    return vals


def cases_numbers():
    cat = "numbers"
    for base, flag, lo, hi, kind in FLAGS:
        tag = "-".join(x for x in base[:2] if not x.startswith("-"))
        for v in bad_values(lo, hi, kind):
            vname = {"": "empty"}.get(v, v.replace(".", "_").replace("-", "minus")[:14])
            cli(cat, f"{tag}--{flag}={vname}", base + [f"--{flag}={v}"], setup=fx("sp"),
                mention=flag, timeout=20)
    for v in ["-2", "4", "99", "abc", ""]:
        cli(cat, f"replay--viewer={v or 'empty'}", ["replay", "saved/game-00000.json", f"--viewer={v}"],
            setup=fx("saved"), mention="viewer")
    for v in ["-1", "3", "99", "abc"]:
        cli(cat, f"play--seat={v}", ["play", "--players", "3", "--opponents", "random", f"--seat={v}"], mention="seat")
    for v in ["0", "-1s", "abc", "500ms", "1", ""]:
        cli(cat, f"serve--expire={v or 'empty'}", ["serve", "--addr", "127.0.0.1:0", f"--expire={v}"],
            mention="expire", timeout=10)
    for v in ["127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:abc", "nosuchhost.invalid:0", "300.1.1.1:0"]:
        cli(cat, f"serve--addr={v or 'empty'}", ["serve", f"--addr={v}"], timeout=10)
    for v in ["", ":0", "0.0.0.0:0"]:
        serve_start_case(cat, f"serve--addr={v or 'empty'}", v)
    cli(cat, "serve--data=missing", ["serve", "--addr", "127.0.0.1:0", "--data", "missing"], timeout=10)
    cli(cat, "serve--data=file", ["serve", "--addr", "127.0.0.1:0", "--data", "notes.txt"],
        setup=wr("notes.txt", "mine"), timeout=10)
    cli(cat, "serve--addr=busy", lambda d: ["serve", "--addr", f"127.0.0.1:{G['busy_port']}"], timeout=10)
    cli(cat, "selfplay-shard-games-too-many-shards", SP + ["--games", "100000000", "--shard-games", "1"],
        mention="shard")
    cli(cat, "train-exit-explore=-1", EXT + ["--explore=-1"], mention="explore")
    cli(cat, "train-exit-selfplay-turn-limit=-1", EXT + ["--selfplay-turn-limit=-1"], mention="selfplay-turn-limit")
    cli(cat, "train-ppo-max-steps=-1", PPT + ["--max-steps=-1"], mention="max-steps")
    cli(cat, "train-bc-checkpoint-every=0", BCT + ["--checkpoint-every=0"], mention="checkpoint-every")


def serve_start_case(cat, name, addr):
    """serve --addr ADDR: refused in one line, or started; an address other than loopback must
    then print the warning that it is reachable from the network, and SIGINT stops it cleanly."""
    def fn(d):
        p = subprocess.Popen([G["container"], "serve", f"--addr={addr}"], cwd=d, env=base_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            out, err = p.communicate(timeout=3)
            res = Result(p.returncode, out, err, False, 3, 3)
            return generic(res, "any") + outside_problems(), f"exit {p.returncode}: {res.first()[:120]}"
        except subprocess.TimeoutExpired:
            pass
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            return ["did not stop within 20s of SIGINT"], "hung"
        probs = []
        first = out.decode("utf-8", "replace").splitlines()[:1]
        if b"127.0.0.1" not in out[:200] and b"reachable from the network" not in out + err:
            probs.append(f"listening beyond loopback without the warning: {first}")
        if p.returncode != 0:
            probs.append(f"exit status {p.returncode} after SIGINT")
        for m in PANIC_MARKERS:
            if m in err.decode("utf-8", "replace"):
                probs.append(f"standard error holds {m!r}")
        return probs + outside_problems(), f"started ({first[0][:80] if first else ''}) and stopped"
    add(Case(cat, name, kind="fn", fn=fn))


def cases_shard():
    cat = "shard"
    forms = ["0/0", "1/0", "2/2", "3/2", "-1/2", "0/-2", "a/b", "0/a", "a/2", "1", "/", "0/", "/2", "", "0/2/3",
             "0/1000001", "0/99999999999999999999", "99999999999999999999/2", "auto/2", "auto/0", "auto/x",
             "auto/", " 0/2", "0/2 ", "0x0/2", "1/2junk", "0/2\n"]
    envs = [("job-out-of-range", {"JOB_COMPLETION_INDEX": "5"}), ("job-and-slurm-differ",
            {"JOB_COMPLETION_INDEX": "0", "SLURM_ARRAY_TASK_ID": "1"}), ("job-garbage", {"JOB_COMPLETION_INDEX": "abc"}),
            ("slurm-negative", {"SLURM_ARRAY_TASK_ID": "-1"}), ("job-empty", {"JOB_COMPLETION_INDEX": ""})]
    for cmd, base in (("selfplay", ["selfplay", "--agents", "random", "--games", "4", "--out", "o", "-q"]),
                      ("eval", ["eval", "--agents", "random", "--games", "4", "--out", "o"]),
                      ("rate", ["rate", "--agents", "random", "--games", "4", "--out", "o"])):
        for f in forms:
            name = f.replace("/", "of").replace(" ", "_").replace("\n", "NL") or "empty"
            # "" is the default (no sharding); white space around I/N is trimmed
            expect = "any" if f.strip() in ("", "0/2") else "fail"
            cli(cat, f"{cmd}-{name}", base + [f"--shard={f}"], expect=expect, mention="shard")
        for name, env in envs:
            cli(cat, f"{cmd}-auto-{name}", base + ["--shard=auto/2"], env=env, mention="shard")
        cli(cat, f"{cmd}-1of2-ok", base + ["--shard=1/2"], expect="ok")
        cli(cat, f"{cmd}-auto-slurm-ok", base + ["--shard=auto/2"], env={"SLURM_ARRAY_TASK_ID": "1"}, expect="ok")
    cli(cat, "eval-shard-without-out", EV + ["--shard", "0/2"], mention="--out")
    cli(cat, "rate-shard-without-out", RT + ["--shard", "0/2"], mention="--out")
    cli(cat, "selfplay-shard-more-parts-than-games", ["selfplay", "--agents", "random", "--games", "2", "--out", "o",
                                                      "-q", "--shard", "5/8"], expect="any")


AGENT_SPECS = [("empty", ""), ("comma", ","), ("trailing-comma", "random,"), ("leading-comma", ",random"),
               ("unknown", "nosuchbot"), ("one-unknown", "random,nosuchbot"), ("capitals", "RANDOM"),
               ("space", "random, valuer"), ("temp-negative", "default@-1"), ("temp-text", "default@abc"),
               ("temp-nan", "default@nan"), ("temp-inf", "default@inf"), ("temp-empty", "default@"),
               ("temp-twice", "default@1@2"), ("temp-on-scripted", "valuer@0.5"), ("ismcts-negative", "ismcts:sims=-1"),
               ("ismcts-text", "ismcts:sims=abc"), ("ismcts-unknown-key", "ismcts:nosuch=1"),
               ("ismcts-huge", "ismcts:sims=99999999999"), ("ismcts-empty", "ismcts:"), ("ismcts-no-value", "ismcts:sims"),
               ("ismcts-bad-rollout", "ismcts:rollout=nosuch"), ("ismcts-bad-net", "ismcts:net=missing.bot"),
               ("ismcts-key-twice", "ismcts:sims=2:sims=3"), ("missing-bot", "missing.bot"), ("dir-bot", "dir.bot"),
               ("garbage-bot", "garbage.bot"), ("trunc-bot", "trunc.bot"), ("dup-header-bot", "dup.bot"),
               ("dev-null", "/dev/null"), ("long-name", "r" * 5000), ("control-char", "rand\x1bom"),
               ("newline", "random\nvaluer"), ("unicode", "vålüer"), ("six-agents", ",".join(["random"] * 6))]


def cases_agents():
    cat = "agents"
    # a short turn limit keeps a spec that turns out valid (ismcts at its default budget) quick
    lenient = ("trailing-comma", "leading-comma", "space", "ismcts-empty")  # empty items and spaces are dropped
    for cmd, base in (("selfplay", ["selfplay", "--games", "2", "--turn-limit", "3", "--out", "o", "-q"]),
                      ("eval", ["eval", "--games", "2", "--turn-limit", "3"]),
                      ("rate", ["rate", "--games", "2", "--turn-limit", "3"])):
        for name, spec in AGENT_SPECS:
            if cmd == "rate" and name == "six-agents":
                spec = ",".join(["random"] * 17)
            cli(cat, f"{cmd}-{name}", base + ["--agents", spec], expect="any" if name in lenient else "fail",
                setup=botfiles, timeout=20)
        cli(cat, f"{cmd}-good-bot", base + ["--agents", "x.bot,random"], setup=botfiles, expect="ok")
    for name, spec in [("unknown", "nosuchbot"), ("bad-count", "random,random,random,random,random"),
                       ("garbage-bot", "garbage.bot"), ("trunc-bot", "trunc.bot"), ("empty", ""),
                       ("temp-text", "default@abc")]:
        cli(cat, f"play-opponents-{name}", ["play", "--players", "3", "--opponents", spec], setup=botfiles)
        cli(cat, f"ppo-opponents-{name}", PPT + ["--opponents", spec], setup=[botfiles, fx("sp")],
            expect="any" if name == "bad-count" else "fail")  # a pool of five is fine
        cli(cat, f"bc-teachers-{name}", ["train", "bc", "--teachers", spec, "--games", "1", "--out", "o",
                                         "--steps", "1"], setup=botfiles)
    cli(cat, "ppo-eval-opponent-unknown", PPT + ["--eval-opponent", "nosuch", "--eval-every", "1"], setup=botfiles)
    # a bot file that cannot be read, or is made for other games, is refused before the run directory is made
    cli(cat, "ppo-eval-opponent-garbage-bot", PPT + ["--eval-opponent", "garbage.bot", "--eval-every", "1"],
        setup=botfiles)
    cli(cat, "ppo-opponents-other-players-bot", PPT + ["--opponents", "x.bot", "--players", "3"], setup=botfiles)
    cli(cat, "bc-record-not-a-teacher", ["train", "bc", "--teachers", "random", "--record", "valuer", "--games", "1",
                                         "--out", "o", "--steps", "1"])


OUT_KINDS = [
    # name, setup, target, ok without --force, ok with --force, outputs when accepted
    ("new-file", [], "T", True, True, ["T"]),
    ("dev-null", [], "/dev/null", True, True, []),
    ("dev-stdout", [], "/dev/stdout", True, True, []),
    ("dash", [], "-", True, True, []),
    ("dev-full", [], "/dev/full", False, False, []),
    ("link-to-own", ["own"], "link", True, True, ["own"]),
    ("link-to-notes", ["notes"], "link", False, True, ["notes"]),
    ("dangling-link", [], "dangling", False, False, []),
    ("link-to-dir", ["dir"], "dirlink", False, False, []),
    ("directory", ["dir"], "dir", False, False, []),
    ("socket", [], "sock", False, False, []),
    ("notes-file", ["notes"], "notes", False, True, ["notes"]),
    ("own-file", ["own"], "own", True, True, ["own"]),
    ("missing-parent", [], "nodir/T", False, False, []),
    ("trailing-slash", [], "T/", False, False, []),
    ("notes-in-run-dir", ["rundir"], "sp/notes", False, True, ["sp/notes"]),
    ("fifo-with-reader", [], "fifo", True, True, []),
    ("link-chain-to-notes", ["notes"], "link2", False, True, ["notes"]),
]


def cases_output():
    cat = "output"
    for cmd in ("eval-csv", "export"):
        ext = ".csv" if cmd == "eval-csv" else ".bot"
        own_fix = "own.csv" if cmd == "eval-csv" else "x.bot"
        for kname, needs, target, ok_plain, ok_force, outs in OUT_KINDS:
            for force in (False, True):
                def setup(d, needs=needs, ext=ext, own_fix=own_fix):
                    shutil.copytree(os.path.join(G["fix"], "bc"), os.path.join(d, "bc"))
                    if "own" in needs:
                        shutil.copy2(os.path.join(G["fix"], own_fix), os.path.join(d, "own" + ext))
                    if "notes" in needs:
                        with open(os.path.join(d, "notes" + ext), "w") as fh:
                            fh.write("my notes, not an output\n")
                    if "dir" in needs:
                        os.makedirs(os.path.join(d, "dir" + ext, "inside"))
                        with open(os.path.join(d, "dir" + ext, "inside", "keep.txt"), "w") as fh:
                            fh.write("mine")
                    if "rundir" in needs:
                        shutil.copytree(os.path.join(G["fix"], "sp"), os.path.join(d, "sp"))
                        with open(os.path.join(d, "sp", "notes" + ext), "w") as fh:
                            fh.write("my notes in a run directory\n")
                    os.symlink("own" + ext if "own" in needs else "notes" + ext, os.path.join(d, "link" + ext))
                    os.symlink("link" + ext, os.path.join(d, "link2" + ext))
                    os.symlink("nothing-here" + ext, os.path.join(d, "dangling" + ext))
                    if "dir" in needs:
                        os.symlink("dir" + ext, os.path.join(d, "dirlink" + ext))
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.bind(os.path.join(d, "sock" + ext))
                    s.close()
                    os.mkfifo(os.path.join(d, "fifo" + ext))
                tgt = target if target.startswith("/") or target == "-" else (
                    target[:-1] + ext + "/" if target.endswith("/") else target + ext)
                if cmd == "export" and target.startswith("/dev/"):
                    tgt = target  # must end in .bot: refused by name (docs/FILES.md: a .bot link to a device is written)
                ok = ok_force if force else ok_plain
                if cmd == "export" and target.startswith("/dev/") and target != "/dev/full":
                    ok = False
                argv = (["eval", "--agents", "random", "--games", "2", "--csv", tgt] if cmd == "eval-csv"
                        else ["export", "--run", "bc", "--out", tgt])
                if force:
                    argv.append("--force")
                hooks = [FifoReader("fifo" + ext)] if kname == "fifo-with-reader" else []
                outputs = [o + ext if not o.endswith(ext) else o for o in outs]
                cli(cat, f"{cmd}-{kname}{'-force' if force else ''}", argv, expect="ok" if ok else "fail",
                    setup=setup, outputs=outputs, hooks=hooks, check=link_stays_link)
    # export onto a .bot name that is a link to a device: written through, the link stays
    cli(cat, "export-bot-link-to-dev-null", ["export", "--run", "bc", "--out", "dev.bot"], expect="ok",
        setup=[fx("bc"), sym("dev.bot", "/dev/null")])
    cli(cat, "export-dash-stdout", ["export", "--run", "bc", "--out", "-"], expect="ok", setup=fx("bc"),
        check=lambda d, r: [] if r.out.startswith(b"CNTRBOT1") else ["standard output is not a bot file"])
    # --csv /dev/stdout with standard output a regular file: table and CSV both land in it, in order
    cli(cat, "eval-csv-dev-stdout-into-file", ["eval", "--agents", "random", "--games", "2", "--csv", "/dev/stdout"],
        expect="ok", stdout_file="out.txt", setup=wr("out.txt", "earlier line\n"), check=stdout_file_holds_both)
    # --save, --out (results) and selfplay --out onto special things
    for cmd, base in (("eval-save", ["eval", "--agents", "random", "--games", "2", "--save"]),
                      ("eval-out", ["eval", "--agents", "random", "--games", "2", "--shard", "0/1", "--out"]),
                      ("rate-out", ["rate", "--agents", "random", "--games", "2", "--shard", "0/1", "--out"]),
                      ("selfplay-out", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out"])):
        for kname, setup, tgt, expect in [
                ("notes-file", wr("notes.txt", "mine"), "notes.txt", "fail"),
                ("dev-null", [], "/dev/null", "fail"),
                ("dangling-link", sym("dl", "nothing"), "dl", "any"),
                ("fifo", mkfifo("fifo"), "fifo", "fail"),
                ("socket", mksock("sock"), "sock", "fail"),
                ("link-to-notes", [wr("notes.txt", "mine"), sym("ln", "notes.txt")], "ln", "fail"),
                ("file-as-parent", wr("notes.txt", "mine"), "notes.txt/sub", "fail"),
                ("link-to-user-dir", [wr("mine/a.txt", "a"), sym("ln", "mine")], "ln", "any")]:
            # the results file's --out under a file names that file (the results file does not "exist")
            mention = "notes.txt is a file" if kname == "file-as-parent" and cmd in ("eval-out", "rate-out") else None
            cli(cat, f"{cmd}-{kname}", base + [tgt], expect=expect, setup=setup,
                outputs=[], mention=mention)
        # the command's own earlier output is replaced (the intended output)
    cli(cat, "eval-save-own-dir-rerun", ["eval", "--agents", "random", "--games", "2", "--save", "saved"], expect="ok",
        setup=fx("saved"), outputs=["saved/game-*.json", "saved/.container*"])
    cli(cat, "eval-save-own-dir-with-user-file", ["eval", "--agents", "random", "--games", "2", "--save", "saved"],
        expect="any", setup=[fx("saved"), wr("saved/notes.txt", "mine")], outputs=["saved/game-*.json", "saved/.container*"])
    cli(cat, "eval-out-dir-with-user-file", ["eval", "--agents", "random", "--games", "4", "--shard", "0/2", "--out", "ev"],
        expect="any", setup=[fx("ev"), wr("ev/notes.txt", "mine")], outputs=[R0])
    cli(cat, "eval-out-other-tournament", ["eval", "--agents", "random", "--games", "4", "--seed", "9", "--shard", "0/2",
                                           "--out", "ev"], setup=fx("ev"), mention="results-shard-00000-of-00002.json")
    cli(cat, "eval-out-garbage-results-file", ["eval", "--agents", "random", "--games", "4", "--shard", "0/2", "--out", "ev"],
        setup=[fx("ev"), wr(R0, "not json")])
    cli(cat, "eval-out-results-file-is-dir", ["eval", "--agents", "random", "--games", "4", "--shard", "0/2", "--out", "ev"],
        setup=[mkd(R0 + "/x")])
    cli(cat, "eval-out-results-file-is-link", ["eval", "--agents", "random", "--games", "4", "--shard", "0/2", "--out", "ev"],
        expect="any", setup=[wr("notes.txt", "mine"), mkd("ev"), sym(R0, "../notes.txt")], outputs=[R0])


def link_stays_link(d, res):
    probs = []
    for n in ("link.csv", "link.bot", "link2.csv", "link2.bot", "dev.bot"):
        p = os.path.join(d, n)
        if os.path.lexists(p) and not os.path.islink(p):
            probs.append(f"{n} is no longer a symbolic link")
    return probs


def stdout_file_holds_both(d, res):
    with open(os.path.join(d, "out.txt"), "rb") as fh:
        b = fh.read()
    probs = []
    if not b.startswith(b"earlier line\n"):
        probs.append("out.txt lost what was in it before (not appended through the stream)")
    if b"agent" not in b or b"," not in b:
        probs.append("out.txt lacks the table or the CSV")
    return probs


FOREIGN = [("notes", wr("D/notes.txt", "mine")), ("train-py", wr("D/train.py", "print('mine')\n")),
           ("hidden", wr("D/.hidden", "mine")), ("subdir", wr("D/sub/keep.txt", "mine")),
           ("garbage-manifest", wr("D/manifest.json", "{garbage")),
           ("garbage-marker", wr("D/.container-run", "{garbage")),
           ("forged-marker", wr("D/.container-run", '{"format":"container-run/1","kind":"nosuch","command":"x"}')),
           ("foreign-shard", wr("D/steps-00000.arrow", "not arrow")),
           ("garbage-checkpoint", wr("D/checkpoint.ckpt", "CNTRCKP1garbage")),
           ("user-game-file", wr("D/game-00000.json", '{"mine":true}')),
           ("empty-marker", wr("D/.container-run", "")),
           ("lock-only", wr("D/.container.lock", "")),
           ("link-in-dir", sym("D/escape", "/etc")),
           ("results-only", wr("D/results-shard-00000-of-00001.json", "{}"))]

WRITERS = [("selfplay", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", "D"]),
           ("eval-save", ["eval", "--agents", "random", "--games", "2", "--save", "D"]),
           ("train-bc", with_out(BCT, "D")),
           ("train-ppo", with_out(PPT, "D")),
           ("train-exit", with_out(EXT, "D")),
           ("demo", ["demo", "--out", "D", "--games", "2", "--eval-games", "1", "--train-steps", "1"]),
           ("merge", ["dataset", "merge", "--copy", "D", "shards/shard-00000-of-00002", "shards/shard-00001-of-00002"])]


def cases_rundir():
    cat = "rundir"
    for wname, argv in WRITERS:
        for fname, f in FOREIGN:
            # an empty directory apart from the lock is fine to take; dataset merge takes no
            # directory of its own (docs/FILES.md): it may write beside other files, keeping them
            expect = "any" if fname == "lock-only" or wname == "merge" else "fail"
            cli(cat, f"{wname}-{fname}", argv, expect=expect, setup=[fx("sp", "shards"), f], timeout=30,
                outputs=["D/*"] if expect == "any" else [])
    # directories of another kind
    for wname, argv in WRITERS:
        for other in ("sp", "bc", "ppo", "ex", "saved"):
            if (wname, other) in (("selfplay", "sp"), ("train-bc", "bc"), ("train-ppo", "ppo"), ("train-exit", "ex"),
                                  ("eval-save", "saved")):
                continue
            cli(cat, f"{wname}-onto-{other}", argv, setup=[fx("sp", "shards"), fx_as(other, "D")], timeout=30,
                expect="any" if wname == "merge" and other != "sp" else "fail")
    # resume refusing a changed setting; the data is kept
    sp = ["selfplay", "--agents", "random", "--games", "2", "--out", "sp", "-q"]
    cli(cat, "selfplay-rerun-without-resume", sp, setup=fx("sp"), mention="resume")
    for name, extra in [("seed", ["--seed", "2"]), ("agents", ["--agents", "valuer"]), ("games", ["--games", "3"]),
                        ("format", ["--format", "parquet"]), ("players", ["--players", "3"]),
                        ("reward", ["--reward", "rank"]), ("hidden-cash", ["--hide-opponent-cash"]),
                        ("compression", ["--compression", "lz4"]), ("shard-games", ["--shard-games", "1"])]:
        cli(cat, f"selfplay-resume-changed-{name}", sp + ["--resume"] + extra, setup=fx("sp"))
    cli(cat, "selfplay-resume-same", sp + ["--resume"], expect="ok", setup=fx("sp"), outputs=["sp/.container*"])
    cli(cat, "selfplay-resume-altered-shard", sp + ["--resume"], setup=[fx("sp"), edit("sp/steps-00000.arrow",
                                                                                       lambda b: b[:-10] + b"0123456789")])
    cli(cat, "selfplay-resume-forged-manifest", sp + ["--resume"],
        setup=[fx("sp"), edit("sp/manifest.json", lambda b: b.replace(b'"seed": 1', b'"seed": 7', 1)
                              .replace(b'"seed":1', b'"seed":7', 1))])
    cli(cat, "selfplay-resume-deleted-shard", sp + ["--resume"], expect="ok",
        setup=[fx("sp"), rm("sp/steps-00000.arrow"), rm("sp/games-00000.arrow")], outputs=["sp/*"])
    cli(cat, "selfplay-locked", sp + ["--resume"], setup=fx("sp"), hooks=[Flock("sp/.container.lock")],
        mention="another run")
    bc = ["train", "bc", "--data", "sp", "--out", "bc", "--steps", "2", "--log-every", "1", "--checkpoint-every", "1",
          "--width", "8", "--depth", "1", "--batch", "16"]
    for name, extra in [("width", ["--width", "16"]), ("lr", ["--lr", "0.01"]), ("batch", ["--batch", "32"]),
                        ("seed", ["--seed", "3"]), ("checkpoint-every", ["--checkpoint-every", "2"]),
                        ("norm", ["--norm", "none"])]:
        cli(cat, f"train-bc-resume-changed-{name}", bc + extra, setup=fx("sp", "bc"))
    cli(cat, "train-bc-resume-other-data", bc, setup=[fx("bc"), fx_as("shards2/shard-00000-of-00002", "sp")])
    cli(cat, "train-bc-resume-more-steps", bc + ["--steps", "3"], expect="ok", setup=fx("sp", "bc"), outputs=["bc/*"])
    cli(cat, "train-bc-truncated-checkpoint", bc, setup=[fx("sp", "bc"), edit("bc/checkpoint.ckpt", lambda b: b[:100])])
    cli(cat, "train-bc-locked", bc, setup=fx("sp", "bc"), hooks=[Flock("bc/.container.lock")], mention="another run")
    cli(cat, "export-truncated-checkpoint", ["export", "--run", "bc", "--out", "o.bot"],
        setup=[fx("bc"), edit("bc/checkpoint.ckpt", lambda b: b[:len(b) // 2])])
    cli(cat, "export-run-is-dataset", ["export", "--run", "sp", "--out", "o.bot"], setup=fx("sp"))
    cli(cat, "export-run-missing", ["export", "--run", "nosuch", "--out", "o.bot"])
    cli(cat, "export-run-user-dir", ["export", "--run", "mine", "--out", "o.bot"], setup=wr("mine/a.txt", "a"))
    ppo = with_out(PPT, "ppo") + ["--minibatch", "8", "--pool-every", "0"]
    for name, extra in [("players", ["--players", "3"]), ("lr", ["--lr", "0.1"]), ("opponents", ["--opponents", "valuer"]),
                        ("width", ["--width", "16"]), ("max-steps", ["--max-steps", "5"]),
                        ("hide-opponent-cash", ["--hide-opponent-cash"])]:
        cli(cat, f"train-ppo-resume-changed-{name}", ppo + extra, setup=fx("ppo"))
    cli(cat, "train-ppo-init-other-players", PPT + ["--init", "x.bot", "--players", "3"],
        setup=fx("x.bot"))
    cli(cat, "demo-onto-user-train-dir", ["demo", "--out", "D", "--games", "2", "--eval-games", "1", "--train-steps", "1"],
        setup=[wr("D/train/model.py", "mine"), wr("D/.container-run", "")])


def cases_merge():
    cat = "merge-dataset"
    P0, P1 = "shards/shard-00000-of-00002", "shards/shard-00001-of-00002"
    Q0, Q1 = "shards2/shard-00000-of-00002", "shards2/shard-00001-of-00002"
    M = ["dataset", "merge"]
    s = fx("shards", "shards2", "sp")
    cli(cat, "good", M + ["shards", P0, P1], expect="ok", setup=s, outputs=["shards/manifest.json"])
    cli(cat, "good-rerun", M + ["shards", P0, P1], expect="ok",
        setup=[s, lambda d: run_cmd(M + ["shards", P0, P1], d)], outputs=["shards/manifest.json"])
    cli(cat, "good-copy", M + ["--copy", "merged", P0, P1], expect="ok", setup=s)
    cli(cat, "missing-part", M + ["shards", P0], setup=s, mention="games [2,4)")
    cli(cat, "missing-part-first", M + ["shards", P1], setup=s)
    cli(cat, "duplicated-part", M + ["shards", P0, P0, P1], setup=s)
    cli(cat, "duplicated-part-other-spelling", M + ["shards", P0, P0 + "/", P1], setup=s)
    cli(cat, "duplicated-part-via-link", M + ["shards", P0, "shards/again", P1], setup=[s, sym("shards/again",
                                                                                               "shard-00000-of-00002")])
    cli(cat, "parts-of-two-runs", M + ["shards", P0, "shards/other"], setup=[s, lambda d: shutil.copytree(
        os.path.join(d, Q1), os.path.join(d, "shards", "other"))])
    cli(cat, "part-not-inside-out", M + ["shards", P0, Q1], setup=s)
    cli(cat, "out-is-a-part", M + [P0, P0, P1], setup=s)
    cli(cat, "out-is-file", M + ["notes.txt", P0, P1], setup=[s, wr("notes.txt", "mine")])
    cli(cat, "out-with-user-file", M + ["shards", P0, P1], setup=[s, wr("shards/notes.txt", "mine")], expect="any",
        outputs=["shards/manifest.json"])
    cli(cat, "out-with-user-manifest", M + ["shards", P0, P1], setup=[s, wr("shards/manifest.json", '{"mine":1}')])
    cli(cat, "copy-onto-user-shard-name", M + ["--copy", "merged", P0, P1], setup=[s, wr("merged/steps-00000.arrow", "mine")])
    cli(cat, "part-is-file", M + ["shards", P0, "shards/notes.txt"], setup=[s, wr("shards/notes.txt", "mine")])
    cli(cat, "part-missing", M + ["shards", P0, "shards/nosuch"], setup=s)
    cli(cat, "part-is-dev-null", M + ["shards", P0, "/dev/null"], setup=s)
    cli(cat, "part-is-user-dir", M + ["shards", P0, "shards/mine"], setup=[s, wr("shards/mine/a.txt", "a")])
    cli(cat, "part-is-whole-dataset", M + ["shards", P0, "shards/sp"], setup=[s, fx_as("sp", "shards/sp")])
    for what, f in [("steps-altered", edit(P1 + "/steps-00001.arrow", lambda b: b[:100] + bytes([b[100] ^ 1]) + b[101:])),
                    ("steps-truncated", edit(P1 + "/steps-00001.arrow", lambda b: b[:len(b) // 2])),
                    ("steps-missing", rm(P1 + "/steps-00001.arrow")),
                    ("steps-is-dir", lambda d: (os.remove(os.path.join(d, P1, "steps-00001.arrow")),
                                                os.makedirs(os.path.join(d, P1, "steps-00001.arrow")))),
                    ("games-missing", rm(P1 + "/games-00001.arrow")),
                    ("manifest-missing", rm(P1 + "/manifest.json")),
                    ("manifest-truncated", edit(P1 + "/manifest.json", lambda b: b[:len(b) // 2])),
                    ("manifest-garbage", wr(P1 + "/manifest.json", "garbage")),
                    ("manifest-empty", wr(P1 + "/manifest.json", "")),
                    ("manifest-dup-key", edit(P1 + "/manifest.json", lambda b: b.replace(b"{", b'{"seed": 1,', 1))),
                    ("manifest-capital-key", edit(P1 + "/manifest.json", lambda b: b.replace(b'"seed"', b'"Seed"', 1))),
                    ("manifest-misspelt-key", edit(P1 + "/manifest.json", lambda b: b.replace(b'"seed"', b'"sed"', 1))),
                    ("manifest-edited", edit(P1 + "/manifest.json", lambda b: re.sub(rb'"steps": ?(\d)', rb'"steps": 9\1', b, 1))),
                    ("manifest-trailing", edit(P1 + "/manifest.json", lambda b: b + b"{}")),
                    ("manifest-is-dir", lambda d: (os.remove(os.path.join(d, P1, "manifest.json")),
                                                   os.makedirs(os.path.join(d, P1, "manifest.json")))),
                    ("manifest-link-out", lambda d: (os.remove(os.path.join(d, P1, "manifest.json")),
                                                     os.symlink(os.path.join(d, Q1, "manifest.json"),
                                                                os.path.join(d, P1, "manifest.json"))))]:
        cli(cat, what, M + ["shards", P0, P1], setup=[s, f])
        # with --copy each file is checked as it is copied (docs/SCALE.md): exact copies of the
        # parts checked before the bad one may stay, never a manifest or a temporary file
        cli(cat, what + "-copy", M + ["--copy", "merged", P0, P1], setup=[s, f],
            may_create=["merged", "merged/steps-0000?.arrow", "merged/games-0000?.arrow"])
    cli(cat, "copy-non-utf8-out", M + ["--copy", b"m\xff", P0, P1], expect="ok", setup=s)

    cat = "merge-results"
    for cmd in ("eval", "rate"):
        src = "ev" if cmd == "eval" else "rt"
        a, b = f"{src}/results-shard-00000-of-00002.json", f"{src}/results-shard-00001-of-00002.json"
        b_name = os.path.basename(b)
        s = fx(src, "ev2")
        mg = [cmd, "--merge"]
        cli(cat, f"{cmd}-good-dir", mg + [src], expect="ok", setup=s)
        cli(cat, f"{cmd}-good-files", mg + [a, b], expect="ok", setup=s)
        cli(cat, f"{cmd}-good-json", mg + [src, "--json"], expect="ok", setup=s)
        cli(cat, f"{cmd}-missing-shard", mg + [a], setup=s, mention="games [2,4)")
        cli(cat, f"{cmd}-missing-shard-dir", mg + [src], setup=[s, rm(b)])
        cli(cat, f"{cmd}-duplicated-file", mg + [a, a, b], setup=s)
        cli(cat, f"{cmd}-duplicated-via-copy", mg + [a, b, "copy.json"], setup=[s, fx_as(a, "copy.json")])
        cli(cat, f"{cmd}-other-tournament", mg + [a, "ev2/results-shard-00001-of-00002.json"], setup=s)
        cli(cat, f"{cmd}-missing-file", mg + [a, "nosuch.json"], setup=s)
        cli(cat, f"{cmd}-empty-dir", mg + ["empty"], setup=mkd("empty"))
        cli(cat, f"{cmd}-dir-as-file", mg + [a, "d.json"], setup=[s, mkd("d.json")])
        cli(cat, f"{cmd}-dir-named-like-results", mg + [src], setup=[s, rm(b), mkd(b)])
        cli(cat, f"{cmd}-dev-null", mg + [a, "/dev/null"], setup=s)
        cli(cat, f"{cmd}-fifo-with-writer", mg + [a, "p.json"], setup=[s, mkfifo("p.json")],
            hooks=[FifoWriter("p.json", b"{not json")])
        for what, f in [("edited-total", forge(b, lambda o: _bump(o, "total"), fix_sum=False)),
                        ("moved-winner", forge(b, _move_winner, fix_sum=False)),
                        ("edited-total-resummed", forge(b, lambda o: _bump(o, "total"))),
                        ("moved-winner-resummed", forge(b, _move_winner)),
                        ("edited-rank-resummed", forge(b, lambda o: _set_score(o, "rank", 2 if _scores(o)[0]["rank"] == 1 else 1))),
                        ("edited-seed-resummed", forge(b, lambda o: o["results"][0].__setitem__("seed", 12345))),
                        ("swapped-games-resummed", forge(b, lambda o: o["results"].reverse())),
                        ("dropped-game-resummed", forge(b, lambda o: o["results"].pop())),
                        ("doubled-game-resummed", forge(b, lambda o: o["results"].append(o["results"][-1]))),
                        ("edited-games-resummed", forge(b, lambda o: o.__setitem__("games", 6))),
                        ("edited-range-resummed", forge(b, lambda o: o.__setitem__("first_game", 0))),
                        ("zero-steps-resummed", forge(b, lambda o: o["results"][0].__setitem__("steps", 0))),
                        ("bad-end-resummed", forge(b, lambda o: o["results"][0].__setitem__("end_reason", 7))),
                        ("bad-agents-resummed", forge(b, lambda o: o["results"][0].__setitem__("agents", [9, 9, 9, 9]))),
                        ("edited-tool-version", forge(b, lambda o: o.__setitem__("tool_version", "9.9.9"), fix_sum=False)),
                        ("truncated", edit(b, lambda x: x[:len(x) // 2])),
                        ("garbage", wr(b, "garbage\n")),
                        ("empty", wr(b, "")),
                        ("null", wr(b, "null")),
                        ("array", wr(b, "[]")),
                        ("nul-bytes", edit(b, lambda x: x[:50] + b"\x00" + x[50:])),
                        ("bom", edit(b, lambda x: b"\xef\xbb\xbf" + x)),
                        ("dup-key", edit(b, lambda x: x.replace(b"{", b'{"seed":1,', 1))),
                        ("capital-key", edit(b, lambda x: x.replace(b'"seed"', b'"Seed"', 1))),
                        ("misspelt-key", edit(b, lambda x: x.replace(b'"seed"', b'"sede"', 1))),
                        ("unknown-key", edit(b, lambda x: x.replace(b"{", b'{"extra":1,', 1))),
                        ("trailing-data", edit(b, lambda x: x + b"{}")),
                        ("deep-nesting", wr(b, "[" * 100000 + "]" * 100000)),
                        ("non-utf8", edit(b, lambda x: x.replace(b'"random"', b'"rand\xffom"', 1))),
                        ("format-v9", forge(b, lambda o: o.__setitem__("format", "container-eval-results/9"))),
                        ("no-checksum-v1", forge(b, lambda o: (o.pop("checksum"), o.__setitem__(
                            "format", "container-eval-results/1")), fix_sum=False))]:
            cli(cat, f"{cmd}-{what}", mg + [a, b], setup=[s, f], mention=b_name)
        cli(cat, f"{cmd}-upgrade-v1", mg + ["--upgrade-results", a, b], expect="ok", outputs=[a, b],
            setup=[s, forge(a, _v1, fix_sum=False), forge(b, _v1, fix_sum=False)])
        cli(cat, f"{cmd}-upgrade-v1-one-bad", mg + ["--upgrade-results", a, b],
            setup=[s, forge(a, _v1, fix_sum=False), forge(b, lambda o: (_v1(o), _bump(o, "total")), fix_sum=False)])
        cli(cat, f"{cmd}-upgrade-v1-through-link", mg + ["--upgrade-results", a, "ln.json"],
            setup=[s, forge(a, _v1, fix_sum=False), forge(b, _v1, fix_sum=False),
                   lambda d, b=b: (shutil.move(os.path.join(d, b), os.path.join(d, "real.json")),
                              os.symlink("real.json", os.path.join(d, "ln.json")))])
        cli(cat, f"{cmd}-upgrade-current", mg + ["--upgrade-results", a, b], expect="any", setup=s)


def _scores(o):
    return o["results"][0]["scores"]


def _bump(o, key):
    _scores(o)[0][key] += 1


def _set_score(o, key, v):
    _scores(o)[0][key] = v


def _move_winner(o):
    for g in o["results"]:
        w = [i for i, s in enumerate(g["scores"]) if s["winner"]]
        if len(w) == 1:
            i = w[0]
            j = (i + 1) % len(g["scores"])
            g["scores"][i]["winner"], g["scores"][j]["winner"] = False, True
            return
    g = o["results"][0]
    g["scores"][0]["winner"] = not g["scores"][0]["winner"]


def _v1(o):
    o.pop("checksum", None)
    o["format"] = "container-eval-results/1"


def cases_inputs():
    cat = "inputs"
    pos = json.loads(OPENING)

    def j(o):
        return json.dumps(o)
    bad = {
        "misspelt-key": OPENING.replace('"players":[', '"playres":['),
        "misspelt-inner-key": OPENING.replace('"factories":"w"', '"factorys":"w"'),
        "dup-key": OPENING.replace('{"options"', '{"options":{"players":3},"options"', 1),
        "dup-inner-key": OPENING.replace('"factories":"w"', '"factories":"w","factories":"g"'),
        "capital-key": OPENING.replace('"options"', '"Options"'),
        "capital-inner-key": OPENING.replace('"players":4', '"Players":4'),
        "truncated": OPENING[:len(OPENING) // 2],
        "garbage": "this is not JSON",
        "empty": "",
        "null": "null",
        "array": "[]",
        "number": "42",
        "string": '"position"',
        "deep-nesting": "[" * 200000 + "]" * 200000,
        "deep-object": '{"a":' * 100000 + "1" + "}" * 100000,
        "nul-byte": OPENING[:20] + "\x00" + OPENING[20:],
        "non-utf8": OPENING.replace('"w"', '"\udcff"', 1),
        "bom": "\ufeff" + OPENING,
        "trailing-data": OPENING + "{}",
        "two-values": OPENING + OPENING,
        "players-99": OPENING.replace('"players":4', '"players":99'),
        "players-negative": OPENING.replace('"players":4', '"players":-4'),
        "players-huge": OPENING.replace('"players":4', '"players":1e300'),
        "cash-negative": OPENING.replace('"factories":"w",', '"factories":"w","cash":-5,', 1),
        "cash-huge": OPENING.replace('"factories":"w",', '"factories":"w","cash":99999999999999999999,', 1),
        "bad-colour": OPENING.replace('"factories":"w"', '"factories":"q"'),
        "unknown-format": OPENING.replace('{"options"', '{"format":"container-position/9","options"'),
        "long-string": OPENING.replace('"w"', '"' + "w" * 1_000_000 + '"', 1),
        "record-illegal-move": None, "record-moves-not-strings": None, "record-misspelt-moves": None,
        "record-dup-moves": None, "record-format-capital": None, "record-unknown-format": None,
        "record-huge-move-list": None,
    }
    def rec():
        with open(os.path.join(G["fix"], "rec.json")) as fh:
            return fh.read()

    def recj(**kw):
        return lambda: j(dict(json.loads(rec()), **kw))
    bad["record-illegal-move"] = recj(moves=["build:warehouse:purple"])
    bad["record-moves-not-strings"] = recj(moves=[1, 2, 3])
    bad["record-misspelt-moves"] = lambda: rec().replace('"moves"', '"movs"', 1)
    bad["record-dup-moves"] = lambda: rec().replace('"moves"', '"moves":[],"moves"', 1)
    bad["record-format-capital"] = lambda: rec().replace('"format"', '"Format"', 1)
    bad["record-unknown-format"] = lambda: rec().replace("container-game/1", "container-game/7", 1)
    bad["record-huge-move-list"] = recj(moves=["end"] * 200000)
    cmds = {"legal": ["legal"], "score": ["score"], "replay": ["replay"], "apply": ["apply"]}
    for name, text in bad.items():
        data = text if callable(text) else text.encode("utf-8", "surrogateescape")
        for cmd, argv in cmds.items():
            tail = ["end"] if cmd == "apply" else []
            expect = "fail"
            if name == "cash-huge" or name == "long-string":
                expect = "fail"
            cli(cat, f"{cmd}-{name}", argv + ["p.json"] + tail, expect=expect, setup=wr("p.json", data),
                mention="p.json" if name not in ("deep-nesting",) else None, timeout=30)
        if name in ("dup-key", "capital-key", "truncated", "garbage", "empty", "deep-nesting", "non-utf8", "nul-byte",
                    "record-dup-moves", "misspelt-key"):
            for cmd, argv in cmds.items():
                tail = ["end"] if cmd == "apply" else []
                cli(cat, f"{cmd}-stdin-{name}", argv + ["-"] + tail, stdin=data, mention="standard input", timeout=30)
    for cmd, argv in cmds.items():
        tail = ["end"] if cmd == "apply" else []
        cli(cat, f"{cmd}-directory", argv + ["d.json"] + tail, setup=mkd("d.json"), mention="d.json")
        cli(cat, f"{cmd}-missing", argv + ["nosuch.json"] + tail, mention="nosuch.json")
        cli(cat, f"{cmd}-dev-null", argv + ["/dev/null"] + tail)
        cli(cat, f"{cmd}-fifo-garbage", argv + ["p.json"] + tail, setup=mkfifo("p.json"),
            hooks=[FifoWriter("p.json", b"{garbage")])
        cli(cat, f"{cmd}-dangling-link", argv + ["l.json"] + tail, setup=sym("l.json", "nothing"))
        cli(cat, f"{cmd}-stdin-empty-terminal", argv + ["-"] + tail, stdin=b"", mention="standard input")
        cli(cat, f"{cmd}-dash-dash-file", argv + ["--", "-x.json"] + tail, setup=wr("-x.json", "{"))
        cli(cat, f"{cmd}-bot-file", argv + ["x.bot"] + tail, setup=fx("x.bot"))
        cli(cat, f"{cmd}-dataset-dir", argv + ["sp"] + tail, setup=fx("sp"))
        cli(cat, f"{cmd}-binary-zeros", argv + ["z.json"] + tail, setup=wr("z.json", b"\x00" * 4096))
    # the good inputs, as a baseline
    for cmd in ("legal", "score", "apply"):
        tail = ["end"] if cmd == "apply" else []
        cli(cat, f"{cmd}-good-position", [cmd, "opening.json"] + tail, expect="ok", setup=fx("opening.json"))
        cli(cat, f"{cmd}-good-position-stdin", [cmd, "-"] + tail, expect="ok", stdin=OPENING.encode())
    for cmd in ("legal", "score", "replay"):
        cli(cat, f"{cmd}-good-record", [cmd, "rec.json"], expect="ok", setup=fx("rec.json"))
    cli(cat, "replay-position-not-record", ["replay", "opening.json"], setup=fx("opening.json"), mention="opening.json")
    for i, mv in enumerate(["nosuchmove", "place:$99", "-1", "241", "99999999999999999999", "", "end end", "\x1b[2J",
                            "é", "pick:factory:red:$2" * 100]):
        cli(cat, f"apply-bad-move-{i}", ["apply", "opening.json", "--", mv], setup=fx("opening.json"))


def cases_bots():
    cat = "bot-files"
    for b in BAD_BOTS:
        n = b.replace(".bot", "")
        cli(cat, f"eval-{n}", ["eval", "--agents", f"{b},random", "--games", "2"], setup=botfiles, mention=b)
        cli(cat, f"selfplay-{n}", ["selfplay", "--agents", f"{b},random", "--games", "2", "--out", "o", "-q"],
            setup=botfiles, mention=b)
        cli(cat, f"export-run-{n}", ["export", "--run", b, "--out", "o.bot"], setup=botfiles, mention=b)
        cli(cat, f"export-upgrade-{n}", ["export", "--upgrade", b, "--out", "o.bot"], setup=botfiles, mention=b)
        cli(cat, f"bc-init-{n}", ["train", "bc", "--init", b, "--data", "sp", "--out", "o", "--steps", "1"],
            setup=[botfiles, fx("sp")], mention=b)
        cli(cat, f"ppo-init-{n}", PPT + ["--init", b], setup=botfiles, mention=b)
        cli(cat, f"exit-init-{n}", EXT + ["--init", b], setup=botfiles, mention=b)
        cli(cat, f"play-{n}", ["play", "--players", "4", "--opponents", b], setup=botfiles, mention=b)
    cli(cat, "eval-good", ["eval", "--agents", "x.bot,random", "--games", "2"], expect="ok", setup=botfiles)
    cli(cat, "export-relabel-good", ["export", "--run", "x.bot", "--out", "y.bot"], expect="ok", setup=botfiles)
    cli(cat, "export-onto-itself", ["export", "--run", "x.bot", "--out", "x.bot"], expect="any", setup=botfiles,
        outputs=["x.bot"])
    cli(cat, "export-onto-bad-bot", ["export", "--run", "x.bot", "--out", "garbage.bot"], setup=botfiles,
        mention="garbage.bot")


def go_escape(s):
    """s with its control characters and bidirectional controls escaped as Go's strconv.Quote
    writes them (the rest as it is): what an error line shows of a file name."""
    named = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    out = []
    for ch in s:
        if ch in named:
            out.append(named[ch])
        elif CONTROL.match(ch) or ch == "\t":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x80 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def cases_paths():
    cat = "paths"
    long_comp = "x" * 300
    deep = "/".join(["d"] * 2500)
    cli(cat, "legal-non-utf8-missing", ["legal", b"\xff\xfe.json"])
    cli(cat, "legal-non-utf8-existing", ["legal", b"\xff\xfe.json"], expect="ok",
        setup=wr(b"\xff\xfe.json", OPENING))
    cli(cat, "selfplay-out-non-utf8", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", b"sp\xff"],
        expect="ok")
    cli(cat, "eval-csv-non-utf8", ["eval", "--agents", "random", "--games", "2", "--csv", b"r\xff.csv"], expect="ok")
    cli(cat, "export-out-non-utf8", ["export", "--run", "bc", "--out", b"b\xff.bot"], expect="ok", setup=fx("bc"))
    cli(cat, "eval-save-non-utf8", ["eval", "--agents", "random", "--games", "2", "--save", b"s\xff"], expect="ok")
    cli(cat, "merge-non-utf8-part", ["dataset", "merge", "shards", b"shards/\xff"], setup=fx("shards"))
    cli(cat, "stats-non-utf8-missing", ["dataset", "stats", b"\xff"])
    for i, weird in zip(["newline", "carriage-return", "escape", "tab", "bell", "delete", "bidi-override", "quote"],
                        ["a\nb.json", "a\rb.json", "\x1b[31mred.json", "tab\there.json", "bell\x07.json",
                         "del\x7f.json", "\u202eevil.json", "quote\".json"]):
        # the error line names the file with its control characters escaped as Go's strconv.Quote
        # writes them (a newline as \n, not as the "; " between two errors)
        shown = go_escape(weird) if go_escape(weird) != weird else None
        cli(cat, f"legal-weird-missing-{i}", ["legal", weird], mention=shown)
        cli(cat, f"score-weird-garbage-{i}", ["score", weird], setup=wr(weird, "{garbage"), mention=shown)
        cli(cat, f"selfplay-weird-agent-{i}", ["selfplay", "--agents", weird, "--games", "2", "--out", "o", "-q"],
            mention=shown)
        cli(cat, f"stats-weird-missing-{i}", ["dataset", "stats", weird], mention=shown)
        cli(cat, f"eval-merge-weird-missing-{i}", ["eval", "--merge", weird], mention=shown)
        cli(cat, f"export-run-weird-missing-{i}", ["export", "--run", weird, "--out", "o.bot"], mention=shown)
        cli(cat, f"train-bc-data-weird-missing-{i}", ["train", "bc", "--data", weird, "--out", "o"], mention=shown)
    cli(cat, "legal-long-name", ["legal", long_comp + ".json"])
    cli(cat, "legal-very-long-name", ["legal", "y" * 20000])
    cli(cat, "legal-deep-path", ["legal", deep + ".json"])
    cli(cat, "selfplay-long-out", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", long_comp])
    cli(cat, "selfplay-deep-out", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", deep])
    cli(cat, "eval-csv-long", ["eval", "--agents", "random", "--games", "2", "--csv", long_comp + ".csv"])
    cli(cat, "eval-save-long", ["eval", "--agents", "random", "--games", "2", "--save", long_comp])
    cli(cat, "eval-out-long", ["eval", "--agents", "random", "--games", "2", "--shard", "0/1", "--out", long_comp])
    cli(cat, "export-out-long", ["export", "--run", "bc", "--out", long_comp + ".bot"], setup=fx("bc"))
    cli(cat, "train-bc-out-long", with_out(BCT, long_comp), setup=fx("sp"))
    cli(cat, "stats-long", ["dataset", "stats", long_comp])
    cli(cat, "merge-long-out", ["dataset", "merge", long_comp, "shards/shard-00000-of-00002"], setup=fx("shards"))
    cli(cat, "eval-merge-long", ["eval", "--merge", long_comp])
    cli(cat, "bot-long-name", ["eval", "--agents", long_comp + ".bot", "--games", "2"])
    cli(cat, "export-out-dot-bot-only", ["export", "--run", "bc", "--out", ".bot"], setup=fx("bc"), expect="any",
        outputs=[".bot"])
    cli(cat, "export-out-newline", ["export", "--run", "bc", "--out", "a\nb.bot"], setup=fx("bc"), expect="any",
        outputs=["a\nb.bot"])
    cli(cat, "selfplay-out-with-comma", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", "a,b"],
        expect="any")


def cases_exit():
    cat = "train-exit"
    cli(cat, "out-with-comma", with_out(EXT, "a,b"), mention="comma")
    for name, flag, v in [("expert-unknown", "--expert", "nosuch"), ("expert-not-ismcts", "--expert", "valuer"),
                          ("expert-bad-sims", "--expert", "ismcts:sims=abc"), ("expert-net", "--expert", "ismcts:net=default"),
                          ("expert-negative", "--expert", "ismcts:sims=-5"),
                          ("rollout-unknown", "--rollout", "nosuch"), ("rollout-bot-file", "--rollout", "x.bot"),
                          ("gate-opponent-unknown", "--gate-opponent", "nosuch"),
                          ("gate-opponent-bad", "--gate-opponent", "ismcts:sims=-1"),
                          ("gate-opponent-garbage-bot", "--gate-opponent", "garbage.bot"),
                          ("init-missing", "--init", "missing.bot"), ("init-dataset", "--init", "sp"),
                          ("init-user-dir", "--init", "mine"), ("init-other-players", "--init", "x.bot"),
                          ("rules-bad", "--rules", "nosuch"), ("modules-bad", "--modules", "nosuch"),
                          ("length-bad", "--length", "forever"), ("norm-bad", "--norm", "batch"),
                          ("workers-zero", "--workers", "0"), ("window-zero", "--window", "0"),
                          ("batch-zero", "--batch", "0"), ("shard-games-zero", "--shard-games", "0"),
                          ("gate-games-zero", "--gate-games", "0"), ("lr-zero", "--lr", "0")]:
        extra = [flag, v] + (["--players", "3"] if name == "init-other-players" else [])
        if name.startswith("gate-opponent"):
            extra += ["--gate-every", "1", "--gate-games", "3"]
        base = EXT_NOSIMS if name.startswith("expert") else EXT  # --expert sets its own simulations
        cli(cat, name, base + extra, setup=[botfiles, fx("sp"), wr("mine/a.txt", "a")])
    ex = EXIT + ["--out", "ex"]  # the fixture's own command
    for name, extra in [("sims", ["--sims", "3"]), ("width", ["--width", "16"]), ("seed", ["--seed", "5"]),
                        ("games", ["--games", "2"]), ("players", ["--players", "3"]),
                        ("rollout", ["--rollout", "valuer"]), ("window", ["--window", "2"])]:
        # the refusal names the setting and the flags that may change, as they are spelt
        cli(cat, f"resume-changed-{name}", ex + extra, setup=fx("ex"),
            mention=["--keep-buffer"] + (["--" + name] if name != "players" else []))
    cli(cat, "resume-changed-expert", [a for a in ex if a not in ("--sims", "2")] + ["--expert", "ismcts:sims=2"],
        setup=fx("ex"))
    cli(cat, "resume-more-generations", ex + ["--generations", "2"], expect="ok", setup=fx("ex"), outputs=["ex/*"],
        timeout=60)
    # a user's file in a buffer generation that leaves the window: refused, or the generation kept
    cli(cat, "resume-keeps-user-file-in-buffer", ex + ["--generations", "6"], expect="any",
        setup=[fx("ex"), wr("ex/buffer/gen-000001/notes.txt", "mine"), wr("ex/notes.txt", "mine")],
        outputs=["ex/*", "!ex/notes.txt", "!ex/buffer/gen-000001/notes.txt"], timeout=90)
    cli(cat, "resume-truncated-checkpoint", ex + ["--generations", "2"], setup=[fx("ex"), edit(
        "ex/checkpoint.ckpt", lambda b: b[:len(b) // 3])])
    # run.json is the run's own summary (the settings live in the checkpoint): it may be rewritten
    cli(cat, "resume-garbage-run-json", ex + ["--generations", "2"], expect="any",
        setup=[fx("ex"), wr("ex/run.json", "{garbage")], outputs=["ex/*"], timeout=60)
    cli(cat, "resume-missing-net", ex + ["--generations", "2"], expect="any", setup=[fx("ex"), rm("ex/nets/gen-000001.bot")],
        outputs=["ex/*"], timeout=60)
    cli(cat, "resume-garbage-net", ex + ["--generations", "2"], setup=[fx("ex"), wr("ex/nets/gen-000001.bot", "garbage")],
        outputs=["ex/run.json"])
    # a file named like a buffer shard is the run's by its name (docs/FILES.md: files are removed
    # by the names the kind declares), so pruning the generation may remove it
    cli(cat, "resume-foreign-buffer-shard", ex + ["--generations", "6"], expect="any",
        setup=[fx("ex"), wr("ex/buffer/gen-000001/steps-00099.arrow", "mine")], outputs=["ex/*"], timeout=90)
    cli(cat, "resume-locked", ex + ["--generations", "2"], setup=fx("ex"), hooks=[Flock("ex/.container.lock")],
        mention="another run")
    cli(cat, "out-is-file", with_out(EXT, "notes.txt"), setup=wr("notes.txt", "mine"))
    cli(cat, "good-fresh", EXT, expect="ok", timeout=60)


# --------------------------------------------------------------------------------------------
# Disk full


class Tmpfs:
    def __init__(self, path, size):
        self.path, self.size = path, size

    def __enter__(self):
        os.makedirs(self.path, exist_ok=True)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size}", "tmpfs", self.path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise OSError(r.stderr.strip() or "mount failed")
        return self

    def grow(self, size):
        subprocess.run(["mount", "-o", f"remount,size={size}", self.path], check=True, capture_output=True)

    def fill(self, leave=0):
        """Fill the filesystem with a filler file, leaving about `leave` bytes free."""
        p = os.path.join(self.path, "filler")
        with open(p, "wb") as fh:
            try:
                while True:
                    fh.write(b"\0" * 65536)
                    fh.flush()
            except OSError:
                pass
        try:
            with open(p, "r+b") as fh:
                fh.truncate(max(0, os.path.getsize(p) - leave))
        except OSError:
            pass
        return p

    def __exit__(self, *a):
        subprocess.run(["umount", "-l", self.path], capture_output=True)


def can_mount(root):
    if os.geteuid() != 0 or not shutil.which("mount"):
        return "not root (mounting a tmpfs needs root)"
    try:
        with Tmpfs(os.path.join(root, "mount-probe"), "1m"):
            pass
    except OSError as e:
        return f"cannot mount a tmpfs: {e}"
    return None


def disk_case(name, first, rerun, size="2m", leave=None, then=None, copy=(), absent=(), rerun_expect="ok",
              rerun_mention=None):
    """first: argv run on the small filesystem (refused in one line); then the filesystem is
    grown (the filler removed) and rerun is run (accepted); then each argv of `then` (accepted).
    Paths "M/..." are under the mount. absent: paths that must not exist after the failure."""
    def fn(d):
        probs = []
        m = os.path.join(d, "M")
        for n in copy:
            fx(n)(d)
        sub = lambda argv: [a.replace("M/", m + "/") if isinstance(a, str) else a for a in argv]
        with Tmpfs(m, size) as t:
            if leave is not None:
                t.fill(leave)
            r1 = run_cmd(sub(first), d, timeout=60)
            probs += [f"on the full disk: {p}" for p in generic(r1, "fail")]
            for a in absent:
                if os.path.lexists(os.path.join(m, a)):
                    probs.append(f"a half-written {a} was left on the full disk")
            tmps = [os.path.join(dp, f) for dp, _, fs in os.walk(m) for f in fs if f.endswith(".tmp")]
            if tmps:
                probs.append(f"temporary files left after the failure: {[os.path.relpath(x, m) for x in tmps][:3]}")
            if leave is not None:
                os.remove(os.path.join(m, "filler"))
            t.grow("256m")
            r2 = run_cmd(sub(rerun), d, timeout=60)
            probs += [f"the rerun: {p}" for p in generic(r2, rerun_expect, rerun_mention if r2.rc else None)]
            for argv in then or []:
                r3 = run_cmd(sub(argv), d, timeout=60)
                probs += [f"after the rerun, {argv[0]} {argv[1] if len(argv) > 1 else ''}: {p}" for p in generic(r3, "ok")]
        probs += outside_problems()
        why = f"full disk: exit {r1.rc}: {r1.first()[:110]}; rerun exit {r2.rc}" + (
            f": {r2.first()[:100]}" if r2.rc else "")
        return probs, why
    add(Case("disk-full", name, kind="fn", fn=fn))


def cases_disk():
    sp = ["selfplay", "--agents", "random", "--games", "4", "--compression", "none", "-q", "--out", "M/sp"]
    disk_case("selfplay-arrow-resume", sp, sp + ["--resume"], then=[["dataset", "stats", "M/sp"]])
    # the same command again, without --resume: it runs, or it says to add --resume
    disk_case("selfplay-arrow-rerun-plain", sp, sp, rerun_expect="any", rerun_mention="--resume")
    spq = ["selfplay", "--agents", "random", "--games", "4", "--format", "parquet", "--compression", "none", "-q",
           "--out", "M/pq"]
    disk_case("selfplay-parquet-resume", spq, spq + ["--resume"], then=[["dataset", "stats", "M/pq"]])
    sps = sp[:-1] + ["M/sh", "--shard", "0/2"]
    disk_case("selfplay-shard-resume", sps, sps + ["--resume"])
    disk_case("selfplay-manifest-on-full-disk", sp, sp + ["--resume"], leave=0)
    ev = ["eval", "--agents", "random", "--games", "4", "--shard", "0/1", "--out", "M/ev"]
    disk_case("eval-results-file", ev, ev, leave=0, then=[["eval", "--merge", "M/ev"]],
              absent=["ev/results-shard-00000-of-00001.json"])
    sv = ["eval", "--agents", "random", "--games", "4", "--save", "M/games"]
    disk_case("eval-save", sv, sv, leave=4096)
    csv = ["eval", "--agents", "random", "--games", "2", "--csv", "M/t.csv"]
    disk_case("eval-csv", csv, csv, leave=0, absent=["t.csv"])
    ex = ["export", "--run", "bc", "--out", "M/x.bot"]
    disk_case("export", ex, ex, leave=0, copy=["bc"], absent=["x.bot"])
    bc = with_out(BCT, "M/bc")
    disk_case("train-bc", bc, bc, leave=0, copy=["sp"])
    tx = with_out(EXT, "M/ex")
    disk_case("train-exit", tx, tx, leave=8192)
    mg = ["dataset", "merge", "--copy", "M/merged", "shards/shard-00000-of-00002", "shards/shard-00001-of-00002"]
    disk_case("merge-copy", mg, mg, size="200k", copy=["shards"], then=[["dataset", "stats", "M/merged"]])


# --------------------------------------------------------------------------------------------
# The web server


class Server:
    def __init__(self, data):
        self.data = data

    def start(self, root):
        self.p = subprocess.Popen([G["container"], "serve", "--addr", "127.0.0.1:0", "--data", self.data,
                                   "--max-games", "12"], cwd=root, env=base_env(), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, start_new_session=True)
        line = b""
        deadline = time.monotonic() + 30
        self.out = []
        # read the first line ("container serve: http://127.0.0.1:PORT/ (Ctrl-C to stop)")
        t = threading.Thread(target=lambda: self.out.append(self.p.stdout.readline()), daemon=True)
        t.start()
        t.join(max(0.0, deadline - time.monotonic()))
        line = self.out[0] if self.out else b""
        m = re.search(rb"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.p.kill()
            raise SystemExit(f"hostile.py: container serve did not start: {line!r} {self.p.stderr.read()[:300]!r}")
        self.port = int(m.group(1))
        self.host = f"127.0.0.1:{self.port}"

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        try:
            out, err = self.p.communicate(timeout=20)
            return self.p.returncode, out, err, False
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            out, err = self.p.communicate()
            return self.p.returncode, out, err, True


def http_req(srv, method, path, headers=None, body=None, host=True, timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=timeout)
    try:
        c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is True:
            c.putheader("Host", srv.host)
        elif host is not False:
            c.putheader("Host", host)
        for k, v in (headers or {}).items():
            c.putheader(k, v)
        if body is not None:
            if isinstance(body, str):
                body = body.encode()
            c.putheader("Content-Length", str(len(body)))
        c.endheaders()
        if body:
            try:
                c.send(body)
            except (BrokenPipeError, ConnectionResetError):
                pass
        r = c.getresponse()
        data = r.read()
        return r.status, data, dict(r.getheaders())
    finally:
        c.close()


def raw_req(srv, data, timeout=30):
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=timeout)
    try:
        s.sendall(data)
        buf = b""
        while b"\r\n" not in buf:
            chunk = s.recv(4096)
            if not chunk:
                break
            buf += chunk
        m = re.match(rb"HTTP/1\.[01] (\d{3})", buf)
        return int(m.group(1)) if m else None, buf
    finally:
        s.close()


JSONH = {"Content-Type": "application/json"}
TOKEN = re.compile(r"\{(g\d|t\d|r\d|rt\d|host|port)\}")  # {g1}: an id an earlier case saved


def hcase(name, method, path, want, body=None, headers=None, host=True, save=None, raw=None, note=None):
    """want: a status or a set of statuses (0 in the set: a 3xx redirect inside the server
    is accepted for a path the router cleans)."""
    def fn(ctx):
        srv = ctx["srv"]
        fmt = lambda s: TOKEN.sub(lambda m: ctx["ids"][m.group(1)], s) if isinstance(s, str) else s
        probs = []
        try:
            if raw is not None:
                status, data = raw_req(srv, fmt(raw).encode("latin-1") if isinstance(raw, str) else raw)
                hdrs = {}
            else:
                h = {k: fmt(v) for k, v in (headers or {}).items()}
                status, data, hdrs = http_req(srv, method, fmt(path), h, fmt(body) if isinstance(body, str) else body,
                                              host=fmt(host) if isinstance(host, str) else host)
        except (OSError, http.client.HTTPException) as e:
            probs.append(f"no answer: {type(e).__name__}: {e}")
            status, data, hdrs = None, b"", {}
        wants = want if isinstance(want, (set, frozenset)) else {want}
        if status is not None:
            if status >= 500:
                probs.append(f"status {status} (a 5xx): {data[:150]!r}")
            elif status not in wants and not (0 in wants and 300 <= status < 400 and _inside(hdrs.get("Location", ""))):
                probs.append(f"status {status}, want {sorted(wants)}: {data[:150]!r}")
            go_level = data.startswith(b"400 Bad Request") or status in (414, 431)  # net/http's own answers
            if raw is None and 400 <= status < 500 and fmt(path).startswith("/api/") and not go_level:
                try:
                    e = json.loads(data)
                    if not (isinstance(e, dict) and isinstance(e.get("error"), str) and "\n" not in e["error"]
                            and e["error"].strip()):
                        probs.append(f"error body is not {{\"error\": \"one line\"}}: {data[:120]!r}")
                except ValueError:
                    probs.append(f"error body is not JSON: {data[:120]!r}")
            if save and status == 200:
                obj = json.loads(data)
                for k, v in save.items():
                    ctx["ids"][k] = obj[v]
        if srv.p.poll() is not None:
            probs.append(f"the server exited (status {srv.p.returncode})")
        return probs, f"status {status}" + (f" ({note})" if note else "")
    add(Case("http", name, kind="fn", fn=fn))


def _inside(loc):
    return loc.startswith("/") and not loc.startswith("//") and ".." not in loc


def cases_http():
    # sessions first (their ids and tokens feed the later cases)
    new3 = '{"players":3,"seat":0,"opponents":["random"],"seed":1}'
    hcase("new-game-1", "POST", "/api/games", 200, new3, JSONH, save={"g1": "id", "t1": "token"})
    hcase("new-game-2", "POST", "/api/games", 200, new3, JSONH, save={"g2": "id", "t2": "token"})
    hcase("new-replay-path", "POST", "/api/replays", 200, '{"path":"game-00000.json"}', JSONH,
          save={"r1": "id", "rt1": "token"})
    hcase("new-replay-dataset", "POST", "/api/replays", 200, '{"dataset":"sp","game":0}', JSONH)
    hcase("page", "GET", "/", 200)
    hcase("bots", "GET", "/api/bots", 200)
    hcase("files", "GET", "/api/files", 200, note="with a FIFO, garbage bots and links in --data")
    # odd paths
    for i, p in enumerate(["/%ff", "/%00%ff", "/%00", "/api/%ff", "/api/games/%ff", "/api/games/%00",
                           "/api/games/a%00b/record", "/api/replays/%ff%fe/step/0", "/%c0%af", "/api/%e2%80%ae"]):
        hcase(f"bad-path-{i}", "GET", p, {400, 404})
    for i, p in enumerate(["/../../etc/passwd", "/api/../../etc/passwd", "/api/games/../../../etc/passwd",
                           "/static/../../../../etc/passwd", "/./api/bots/../files", "//etc/passwd",
                           "/api//bots"]):
        hcase(f"dotdot-path-{i}", "GET", p, {0, 400, 403, 404}, note="a 3xx is Go's path cleaning to a path inside")
    for i, p in enumerate(["/api/games/x%2F..%2F..%2Fetc", "/api/replays/..%2f..%2fetc%2fpasswd/step/0",
                           "/api/games/%2e%2e/record", "/api%2Fbots", "/api/replays/%2e%2e%2f/step/1"]):
        hcase(f"encoded-slash-{i}", "GET", p, {400, 401, 403, 404})
    hcase("long-path", "GET", "/" + "a" * 100000, {400, 404, 414, 431})
    hcase("many-headers", "GET", "/api/bots", {200, 431}, headers={f"X-H{i}": "v" * 100 for i in range(300)})
    # content type
    for i, ct in enumerate([None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                            "application/jsonx", "json", "application/json-patch+json", "text/json", ""]):
        hcase(f"content-type-{i}", "POST", "/api/games", 415, new3, {} if ct is None else {"Content-Type": ct})
    hcase("content-type-charset", "POST", "/api/games", 200, new3, {"Content-Type": "application/json; charset=utf-8"},
          save={"g3": "id", "t3": "token"})
    hcase("content-type-capitals", "POST", "/api/games", {200, 415}, new3, {"Content-Type": "Application/JSON"},
          save={"g4": "id", "t4": "token"})
    hcase("move-without-content-type", "POST", "/api/games/{g1}/move", 415, '{"move":"end"}', {"X-Game-Token": "{t1}"})
    hcase("replay-without-content-type", "POST", "/api/replays", 415, '{"path":"game-00000.json"}')
    # oversize bodies
    hcase("oversize-game", "POST", "/api/games", 413, '{"players":3,"x":"' + "a" * 70000 + '"}', JSONH)
    hcase("oversize-replay", "POST", "/api/replays", 413, '{"record":"' + "a" * (5 << 20) + '"}', JSONH)
    hcase("oversize-move", "POST", "/api/games/{g1}/move", 413, '{"move":"' + "a" * 70000 + '"}',
          dict(JSONH, **{"X-Game-Token": "{t1}"}))
    hcase("oversize-undo", "POST", "/api/games/{g1}/undo", {400, 413}, "{" + " " * 70000 + "}",
          dict(JSONH, **{"X-Game-Token": "{t1}"}))
    # host and origin
    for i, h in enumerate(["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example",
                           "evil.example:{port}", "[::2]", "0.0.0.0", "127.1", "2130706433", " ", "a b",
                           "localhost@evil.example"]):
        hcase(f"foreign-host-{i}", "GET", "/api/bots", {400, 403}, host=h)
    for i, h in enumerate(["localhost:1", "127.0.0.1", "[::1]:9", "app.localhost"]):
        hcase(f"loopback-host-{i}", "GET", "/api/bots", 200, host=h)
    # another loopback address: cannot be rebound by DNS, so either answer is safe
    hcase("loopback-host-127-0-0-2", "GET", "/api/bots", {200, 403}, host="127.0.0.2")
    hcase("no-host", None, None, 400, raw="GET /api/bots HTTP/1.1\r\nConnection: close\r\n\r\n")
    hcase("two-hosts", None, None, {400, 403}, raw="GET /api/bots HTTP/1.1\r\nHost: {host}\r\nHost: evil.example\r\n"
          "Connection: close\r\n\r\n")
    hcase("absolute-uri-foreign", None, None, {400, 403}, raw="GET http://evil.example/api/bots HTTP/1.1\r\n"
          "Host: evil.example\r\nConnection: close\r\n\r\n")
    hcase("http10-no-host", None, None, {200, 400, 403}, raw="GET /api/bots HTTP/1.0\r\n\r\n")
    hcase("raw-non-ascii-path", None, None, {400, 404}, raw=b"GET /\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          b"Connection: close\r\n\r\n")
    hcase("raw-non-ascii-token", None, None, {400, 403, 404}, raw=b"GET /api/games/x HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          b"X-Game-Token: \xff\xfe\r\nConnection: close\r\n\r\n")
    for i, o in enumerate(["http://evil.example", "null", "http://127.0.0.1:1", "http://localhost:{port}",
                           "http://{host}.evil.example", "file://", "http://[::1]:{port}", "http://evil.example:{port}"]):
        hcase(f"foreign-origin-{i}", "POST", "/api/games", 403, new3, dict(JSONH, Origin=o))
    # not another site: https on this very host:port (no other server can hold it), this origin
    # with a path, an empty header; either answer is safe
    for i, o in enumerate(["https://{host}", "http://{host}/path", ""]):
        hcase(f"odd-origin-{i}", "POST", "/api/games", {200, 403}, new3, dict(JSONH, Origin=o))
    hcase("same-origin", "POST", "/api/games", 200, new3, dict(JSONH, Origin="http://{host}"),
          save={"g5": "id", "t5": "token"})
    hcase("foreign-origin-get", "GET", "/api/bots", 403, headers={"Origin": "http://evil.example"})
    hcase("preflight", "OPTIONS", "/api/games", {403, 404, 405}, headers={"Origin": "http://evil.example",
                                                                           "Access-Control-Request-Method": "POST"})
    # bad JSON bodies
    bodies = ["", "{", "[]", "null", "42", '"x"', '{"players":3,"players":4}', '{"Players":3}', '{"players":"3"}',
              '{"players":99}', '{"players":-1}', '{"players":3.5}', '{"players":1e400}', '{"players":3,"seat":7}',
              '{"players":3,"seat":-1}', '{"opponents":["nosuch"]}', '{"opponents":["garbage.bot"]}',
              '{"opponents":["../outside/x.bot"]}', '{"opponents":["/etc/passwd"]}', '{"opponents":"random"}',
              '{"opponents":["random","random","random","random","random"]}', '{"seed":-1}', '{"seed":1e30}',
              '{"turn_limit":-5}', '{"turn_limit":99999999}', '{"modules":"nosuch"}', '{"variant":"nosuch"}',
              '{"length":"forever"}', '{} {}', '{"players":3}x', '{"players":3,}', "{'players':3}",
              '{"a":' * 20000 + "1" + "}" * 20000, '{"players":3,"nosuch":1}', "\ufeff{}", '{"players":3}\x00',
              '{"opponents":["rand\\u0000om"]}', '{"opponents":[' + ",".join(['"random"'] * 5000) + "]}"]
    for i, b in enumerate(bodies):
        hcase(f"bad-new-game-{i:02d}", "POST", "/api/games", 400 if len(b) < 65536 else {400, 413}, b, JSONH)
    hcase("bad-new-game-non-utf8", "POST", "/api/games", 400, b'{"opponents":["\xff"]}', JSONH)
    # unknown ids and tokens
    hcase("unknown-game", "GET", "/api/games/nosuch", 404, headers={"X-Game-Token": "{t1}"})
    hcase("unknown-game-no-token", "GET", "/api/games/0000000000000000", {401, 404})
    hcase("unknown-game-delete", "DELETE", "/api/games/nosuch", 404, headers={"X-Game-Token": "{t1}"})
    hcase("unknown-replay", "GET", "/api/replays/nosuch/step/0", 404, headers={"X-Game-Token": "{rt1}"})
    hcase("unknown-replay-ask", "POST", "/api/replays/nosuch/ask", 404, '{"bot":"random","step":0,"viewer":0}',
          dict(JSONH, **{"X-Game-Token": "{rt1}"}))
    hcase("game-no-token", "GET", "/api/games/{g1}", 401)
    hcase("game-other-games-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "{t2}"})
    hcase("game-replays-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "{rt1}"})
    hcase("game-garbage-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "garbage"})
    hcase("game-empty-token", "GET", "/api/games/{g1}", {401, 403}, headers={"X-Game-Token": ""})
    hcase("game-long-token", "GET", "/api/games/{g1}", 403, headers={"X-Game-Token": "a" * 10000})
    hcase("move-other-token", "POST", "/api/games/{g1}/move", 403, '{"move":"end"}',
          dict(JSONH, **{"X-Game-Token": "{t2}"}))
    hcase("delete-other-token", "DELETE", "/api/games/{g1}", 403, headers={"X-Game-Token": "{t2}"})
    hcase("replay-games-token", "GET", "/api/replays/{r1}/step/0", 403, headers={"X-Game-Token": "{t1}"})
    hcase("replay-no-token", "GET", "/api/replays/{r1}/step/0", 401)
    hcase("record-other-token", "GET", "/api/games/{g1}/record", 403, headers={"X-Game-Token": "{t2}"})
    tk = {"X-Game-Token": "{t1}"}
    tkj = dict(JSONH, **tk)
    hcase("state-good", "GET", "/api/games/{g1}?since=0", 200, headers=tk)
    for i, q in enumerate(["-1", "abc", "999999", "1e3", "", "0x1", "99999999999999999999", "1.0", "0&since=1"]):
        hcase(f"since-{i}", "GET", "/api/games/{g1}?since=" + q, {200, 400} if q in ("", "0&since=1") else 400,
              headers=tk)
    for i, b in enumerate(['{"move":"nosuch"}', '{"move":123}', '{"move":"end","x":1}', '{"Move":"end"}',
                           '{"move":"end","move":"end"}', '{"move":""}', "{}", '{"move":"end","since":-1}',
                           '{"move":"end","since":"0"}', '{"move":"\u202e"}', '{"move":"place:$99999999999999999999"}',
                           "[]", "null", '{"move":null}']):
        hcase(f"bad-move-{i:02d}", "POST", "/api/games/{g1}/move", {400, 409}, b, tkj)
    hcase("undo-with-field", "POST", "/api/games/{g1}/undo", 400, '{"x":1}', tkj)
    hcase("undo-garbage", "POST", "/api/games/{g1}/undo", 400, "garbage", tkj)
    hcase("undo-nothing-to-undo", "POST", "/api/games/{g1}/undo", {200, 409}, "{}", tkj)
    for i, b in enumerate(['{"bot":"nosuch"}', '{"bot":"garbage.bot"}', '{"bot":"../outside/x.bot"}', '{"bot":1}',
                           '{"bot":"random","step":0}', '{"Bot":"random"}', "{}", '{"bot":"ismcts:sims=-1"}',
                           '{"bot":"dup.bot"}', '{"bot":"trunc.bot"}', '{"bot":"link-out.bot"}']):
        hcase(f"bad-ask-{i:02d}", "POST", "/api/games/{g1}/ask", {400, 403, 404, 409}, b, tkj)
    hcase("record-before-end", "GET", "/api/games/{g1}/record", 409, headers=tk)
    for i, n in enumerate(["-1", "abc", "99999", "99999999999999999999", "1.5", "%00", ""]):
        hcase(f"history-{i}", "GET", "/api/games/{g1}/history/" + n, {400, 404}, headers=tk)
    rtk = {"X-Game-Token": "{rt1}"}
    hcase("replay-step-good", "GET", "/api/replays/{r1}/step/0?viewer=-1", 200, headers=rtk)
    for i, q in enumerate(["step/-2", "step/abc", "step/999999", "step/99999999999999999999", "step/0?viewer=9",
                           "step/0?viewer=abc", "step/0?viewer=-2", "step/0?viewer=", "step/1.5"]):
        hcase(f"replay-{i}", "GET", "/api/replays/{r1}/" + q, {200, 400} if q.endswith("viewer=") else {400, 404},
              headers=rtk)
    for i, b in enumerate(['{"bot":"random","step":0,"viewer":5}', '{"bot":"random","step":-1,"viewer":0}',
                           '{"bot":"nosuch","step":0,"viewer":-1}', '{"bot":"random","step":999999,"viewer":-1}',
                           '{"bot":"random","step":0,"viewer":0,"x":1}', '{"bot":"random","step":"0","viewer":0}']):
        hcase(f"replay-ask-{i}", "POST", "/api/replays/{r1}/ask", {400, 409}, b, dict(JSONH, **rtk))
    # replays from files: traversal, links, odd files
    for i, (b, want) in enumerate([
            ('{"path":"../outside/secret.json"}', {400}), ('{"path":"/etc/passwd"}', {400}),
            ('{"path":"link-out.json"}', {403}), ('{"path":"missing.json"}', {404}), ('{"path":"dir.json"}', {400}),
            ('{"path":"fifo.json"}', {400}), ('{"path":"garbage.json"}', {400}), ('{"path":""}', {400}),
            ('{"path":"sub/../../outside/secret.json"}', {400}), ('{"path":"a\\u0000b"}', {400}),
            ('{"path":"%2e%2e/outside/secret.json"}', {400, 404}), ('{"path":"x.bot"}', {400}),
            ('{"path":"sp"}', {400}), ('{"path":"link-loop.json"}', {400, 403, 404}),
            ('{"path":"..\\\\outside\\\\secret.json"}', {400, 404}), ('{"path":"big.json"}', {400, 413}),
            ('{"dataset":"sp","game":-1}', {400}), ('{"dataset":"sp","game":99999}', {400, 404}),
            ('{"dataset":"../outside","game":0}', {400}), ('{"dataset":"game-00000.json","game":0}', {400}),
            ('{"dataset":"link-out-dir","game":0}', {403}), ('{"dataset":"sp","game":"0"}', {400}),
            ('{"dataset":"sp"}', {200, 400}), ('{"record":"string"}', {400}), ('{"record":{"garbage":1}}', {400}),
            ('{"record":{}}', {400}), ('{"path":"game-00000.json","dataset":"sp","game":0}', {400}), ("{}", {400}),
            ('{"record":{"format":"container-game/1","moves":["nosuch"]}}', {400}),
            ('{"path":"game-00000.json","x":1}', {400})]):
        hcase(f"replay-file-{i:02d}", "POST", "/api/replays", want, b, JSONH)
    # methods
    for i, (m, p) in enumerate([("PUT", "/api/games"), ("PATCH", "/api/games/{g1}"), ("DELETE", "/api/bots"),
                                ("TRACE", "/"), ("FOO", "/api/bots"), ("POST", "/api/bots"), ("GET", "/api/replays"),
                                ("CONNECT", "/"), ("GET", "/api/games/{g1}/move"), ("POST", "/api/games/{g1}")]):
        hcase(f"method-{i}", m, p, {400, 404, 405, 415}, headers=tk)
    hcase("head-page", "HEAD", "/", {200, 405})
    hcase("static-missing", "GET", "/static/nosuch.js", 404)
    hcase("unknown-api", "GET", "/api/nosuch", 404)
    # close sessions, then the session cap (--max-games 12): 429 beyond
    hcase("delete-game-2", "DELETE", "/api/games/{g2}", {200, 204}, headers={"X-Game-Token": "{t2}"})
    hcase("deleted-game-gone", "GET", "/api/games/{g2}", 404, headers={"X-Game-Token": "{t2}"})

    def cap(ctx):
        srv, probs, got = ctx["srv"], [], []
        for _ in range(14):
            try:
                st, data, _ = http_req(srv, "POST", "/api/games", JSONH, new3)
            except OSError as e:
                probs.append(f"no answer: {e}")
                break
            got.append(st)
            if st >= 500:
                probs.append(f"status {st}")
            if st == 429:
                break
        if 429 not in got:
            probs.append(f"no 429 after {len(got)} new games: {got}")
        return probs, f"statuses {got}"
    add(Case("http", "session-cap-429", kind="fn", fn=cap))


def http_data(d):
    os.makedirs(d)
    out = os.path.join(os.path.dirname(d), "outside")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "secret.json"), "w") as fh:
        fh.write(open(os.path.join(G["fix"], "saved", "game-00000.json")).read())
    shutil.copy2(os.path.join(G["fix"], "saved", "game-00000.json"), d)
    shutil.copytree(os.path.join(G["fix"], "sp"), os.path.join(d, "sp"))
    botfiles(d)
    os.symlink(os.path.join(out, "secret.json"), os.path.join(d, "link-out.json"))
    os.symlink(os.path.join(G["fix"], "x.bot"), os.path.join(d, "link-out.bot"))
    os.symlink(out, os.path.join(d, "link-out-dir"))
    os.symlink("link-loop.json", os.path.join(d, "link-loop.json"))
    os.symlink("nothing", os.path.join(d, "dangling.json"))
    os.makedirs(os.path.join(d, "dir.json"))
    os.mkfifo(os.path.join(d, "fifo.json"))
    with open(os.path.join(d, "garbage.json"), "w") as fh:
        fh.write("{garbage")
    with open(os.path.join(d, "big.json"), "w") as fh:
        fh.write("[" + " " * (6 << 20) + "]")
    with open(os.path.join(os.fsencode(d), b"\xff\xfe.json"), "w") as fh:
        fh.write("{}")


def run_http(cases, root, report):
    data = os.path.join(root, "http", "data")
    http_data(data)
    before = snapshot(data)
    srv = Server(data)
    srv.start(os.path.join(root, "http"))
    ctx = {"srv": srv, "ids": {"host": srv.host, "port": str(srv.port)}}
    try:
        for c in cases:
            t0 = time.monotonic()
            try:
                probs, why = c.fn(ctx)
            except KeyError as e:
                probs, why = [f"an earlier case did not give {e}"], "skipped"
            except Exception as e:  # a bug here is a BAD line, not a crash of the sweep
                probs, why = [f"harness error: {type(e).__name__}: {e}"], "error"
            report(c, probs, why, time.monotonic() - t0)
    finally:
        rc, out, err, hung = srv.stop()
    probs = []
    if hung:
        probs.append("did not stop within 20s of SIGINT")
    if rc != 0:
        probs.append(f"exit status {rc} after SIGINT")
    if b"stopped" not in out:
        probs.append(f"no 'stopped' line: {out[-200:]!r}")
    et = err.decode("utf-8", "replace")
    for m in PANIC_MARKERS:
        if m in et:
            probs.append(f"standard error holds {m!r}: {et[:200]!r}")
            break
    report(Case("http", "shutdown-sigint"), probs, f"exit {rc}", 0)
    after = snapshot(data)
    dp = file_problems(before, after, [], [], 0)
    new = sorted(set(after) - set(before))
    if new:
        dp.append(f"wrote under --data: {new[:4]}")
    report(Case("http", "data-dir-unchanged"), dp, f"{len(after)} paths under --data", 0)


# --------------------------------------------------------------------------------------------
# The Python package


PY_PRELUDE = r'''
import os, sys, threading
import numpy as np
import container_rl as c
from container_rl import _lib
def expect(fn):
    try:
        fn()
    except c.InternalError as e:
        print("INTERNAL", str(e)[:300]); sys.exit(5)
    except Exception as e:
        print("RAISED", type(e).__name__, (str(e).splitlines() or [""])[0][:200]); sys.exit(0)
    print("NORAISE"); sys.exit(3)
def started(**kw):
    e = c.ContainerEnv(**kw); e.reset(seed=1); return e
POS = %r
''' % OPENING

PY_CASES = [
    ("env-players-2", "c.ContainerEnv(players=2)"),
    ("env-players-str", "c.ContainerEnv(players='4')"),
    ("env-players-float", "c.ContainerEnv(players=4.5)"),
    ("env-players-huge", "c.ContainerEnv(players=10**30)"),
    ("env-players-list", "c.ContainerEnv(players=[4])"),
    ("env-unknown-option", "c.ContainerEnv(nosuch=1)"),
    ("env-bad-modules", "c.ContainerEnv(modules='nosuch')"),
    ("env-bad-rules", "c.ContainerEnv(rules='modern')"),
    ("env-bad-length", "c.ContainerEnv(length=3)"),
    ("env-bad-reward", "c.ContainerEnv(reward='money')"),
    ("env-turn-limit-negative", "c.ContainerEnv(turn_limit=-1)"),
    ("env-max-steps-negative", "c.ContainerEnv(max_steps=-5)"),
    ("env-margin-scale-nan", "c.ContainerEnv(margin_scale=float('nan'))"),
    ("env-render-mode", "c.ContainerEnv(render_mode='rgb_array')"),
    ("env-option-object", "c.ContainerEnv(players=object())"),
    ("env-option-nul", "c.ContainerEnv(modules='trucks\\x00luxury')"),
    ("env-option-surrogate", "c.ContainerEnv(modules='\\udcff')"),
    ("step-before-reset", "c.ContainerEnv().step(0)"),
    ("step-negative", "started().step(-1)"),
    ("step-past-last-id", "started().step(241)"),
    ("step-huge-int", "started().step(2**40)"),
    ("step-huger-int", "started().step(10**30)"),
    ("step-float", "started().step(1.5)"),
    ("step-str", "started().step('0')"),
    ("step-none-mid-game", "started().step(None)"),
    ("step-bool", "started().step(True)"),
    ("step-np-float", "started().step(np.float32(1))"),
    ("step-np-int8-negative", "started().step(np.int8(-1))"),
    ("step-np-uint64-huge", "started().step(np.uint64(2**63 + 5))"),
    ("step-array", "started().step(np.array([0, 1]))"),
    ("step-illegal-id", "e = started(); m = e.last()[0]['action_mask']; e.step(int(np.flatnonzero(m == 0)[0]))"),
    ("reset-seed-negative", "c.ContainerEnv().reset(seed=-1)"),
    ("reset-seed-too-big", "c.ContainerEnv().reset(seed=2**64)"),
    ("reset-seed-float", "c.ContainerEnv().reset(seed=1.5)"),
    ("reset-seed-str", "c.ContainerEnv().reset(seed='1')"),
    ("reset-options-players", "c.ContainerEnv().reset(seed=1, options={'players': 5})"),
    ("reset-options-unknown", "c.ContainerEnv().reset(seed=1, options={'nosuch': 1})"),
    ("reset-options-not-dict", "c.ContainerEnv().reset(seed=1, options=[1, 2])"),
    ("observe-unknown-agent", "started().observe('player_9')"),
    ("observe-int-agent", "started().observe(3)"),
    ("observe-none", "started().observe(None)"),
    ("last-after-close", "e = started(); e.close(); e.last()"),
    ("step-after-close", "e = started(); e.close(); e.step(0)"),
    ("close-twice-then-observe", "e = started(); e.close(); e.close(); e.observe('player_0')"),
    ("vec-zero", "c.VectorEnv(num_envs=0)"),
    ("vec-negative", "c.VectorEnv(num_envs=-1)"),
    ("vec-huge", "c.VectorEnv(num_envs=1 << 20)"),
    ("vec-float", "c.VectorEnv(num_envs=2.5)"),
    ("vec-workers-negative", "c.VectorEnv(num_envs=2, workers=-1)"),
    ("vec-workers-huge", "c.VectorEnv(num_envs=2, workers=10**9)"),
    ("vec-workers-overflow", "c.VectorEnv(num_envs=2, workers=2**70)"),
    ("vec-seed-negative", "c.VectorEnv(num_envs=2, seed=-3)"),
    ("vec-step-wrong-shape", "v = c.VectorEnv(num_envs=2); v.step(np.zeros(3, dtype=np.int64))"),
    ("vec-step-float-dtype", "v = c.VectorEnv(num_envs=2); v.step(np.zeros(2, dtype=np.float64))"),
    ("vec-step-object-dtype", "v = c.VectorEnv(num_envs=2); v.step(np.array([None, None]))"),
    ("vec-step-illegal", "v = c.VectorEnv(num_envs=2); v.step(np.full(2, 240, dtype=np.int64))"),
    ("vec-step-negative", "v = c.VectorEnv(num_envs=2); v.step(np.full(2, -7, dtype=np.int64))"),
    ("vec-step-uint64-huge", "v = c.VectorEnv(num_envs=2); v.step(np.full(2, 2**64 - 1, dtype=np.uint64))"),
    ("vec-step-noncontiguous", "v = c.VectorEnv(num_envs=2); v.step(np.zeros((2, 2), dtype=np.int64)[:, 0] + 10**6)"),
    ("vec-step-list-str", "v = c.VectorEnv(num_envs=2); v.step(['a', 'b'])"),
    ("vec-observe-bad-game", "v = c.VectorEnv(num_envs=2); v.observe(99, 0)"),
    ("vec-observe-bad-seat", "v = c.VectorEnv(num_envs=2); v.observe(0, -1)"),
    ("vec-game-info-huge", "v = c.VectorEnv(num_envs=2); v.game_info(10**20)"),
    ("vec-after-close", "v = c.VectorEnv(num_envs=2); v.close(); v.step(np.zeros(2, dtype=np.int64))"),
    ("vec-rebound-arrays", "v = c.VectorEnv(num_envs=2); v.observations = None; import gc; gc.collect(); "
                           "v.step(np.zeros(2, dtype=np.int64) + 10**6)"),
    ("bot-unknown", "c.BotPolicy('nosuch')"),
    ("bot-garbage-file", "open('g.bot', 'wb').write(b'garbage' * 10); c.BotPolicy('g.bot')"),
    ("bot-truncated-file", "open('t.bot', 'wb').write(b'CNTRBOT1\\xff\\xff\\xff\\x7f{'); c.BotPolicy('t.bot')"),
    ("bot-bad-sims", "c.BotPolicy('ismcts:sims=-1')"),
    ("bot-seed-negative", "c.BotPolicy('random', seed=-1)"),
    ("bot-name-not-str", "c.BotPolicy(12)"),
    ("bot-closed-env", "b = c.BotPolicy('random'); e = started(); e.close(); b(e)"),
    ("bot-unstarted-env", "b = c.BotPolicy('random'); b(c.ContainerEnv())"),
    ("bot-table-unknown-bot", "v = c.VectorEnv(num_envs=2); c.BotTable(v, seats=[None, 'nosuch', None, None])"),
    ("bot-table-short-seats", "v = c.VectorEnv(num_envs=2); c.BotTable(v, seats=[None])"),
    ("bot-table-closed-vec", "v = c.VectorEnv(num_envs=2); t = c.BotTable(v, seats=[None, 'random', 'random', "
                             "'random']); v.close(); t.act(np.zeros(2, dtype=np.int64))"),
    ("score-truncated", "c.score_position(POS[:30])"),
    ("score-capital-key", "c.score_position(POS.replace('\"options\"', '\"Options\"'))"),
    ("score-dup-key", "c.score_position(POS.replace('{\"options\"', '{\"options\":{},\"options\"', 1))"),
    ("score-non-utf8", "c.score_position(b'\\xff\\xfe{}')"),
    ("score-int", "c.score_position(123)"),
    ("score-null", "c.score_position('null')"),
    ("score-deep-nesting", "c.score_position('[' * 200000 + ']' * 200000)"),
    ("score-nul-byte", "c.score_position(POS[:10] + '\\x00' + POS[10:])"),
    ("observe-position-bad-seat", "c.observe_position(POS, seat=9)"),
    ("observe-position-negative-seat", "c.observe_position(POS, seat=-1)"),
    ("observe-position-options-list", "c.observe_position('{\"options\": []}', seat=0)"),
    ("observe-position-players-99", "c.observe_position(POS.replace('\"players\":4', '\"players\":99'), seat=0)"),
    ("spec-players-9", "c.spec(players=9)"),
    ("game-seed-negative", "c.game_seed(-1, 0, 0)"),
    ("game-seed-huge-game", "c.game_seed(0, 2**70, 0)"),
    ("forked-child", "r = os.fork()\nif r == 0:\n    try:\n        c.ContainerEnv().reset(seed=1)\n"
                     "    except c.InternalError:\n        os._exit(5)\n    except Exception:\n        os._exit(0)\n"
                     "    os._exit(3)\n_, st = os.waitpid(r, 0)\nif os.WIFSIGNALED(st):\n"
                     "    print('child killed by signal', os.WTERMSIG(st)); sys.exit(6)\n"
                     "print('RAISED in the forked child' if os.WEXITSTATUS(st) == 0 else 'child exit %d' % "
                     "os.WEXITSTATUS(st))\nsys.exit(os.WEXITSTATUS(st))"),
    ("two-threads-vec", "v = c.VectorEnv(num_envs=64)\nerrs = []\ndef w():\n    for _ in range(200):\n        "
                        "try:\n            v.step(v.sample_legal(np.random.default_rng(0)))\n        except c.HandleError:\n"
                        "            errs.append(1)\nts = [threading.Thread(target=w) for _ in range(2)]\n"
                        "[t.start() for t in ts]; [t.join() for t in ts]\nexpect(lambda: (_ for _ in ()).throw("
                        "RuntimeError('done')))"),
]


def find_python(arg):
    cands = [arg] if arg else [os.path.join(REPO, ".venv", "bin", "python")]
    for py in cands:
        if not py or not (os.path.exists(py) or shutil.which(py)):
            continue
        r = subprocess.run([py, "-c", "import container_rl, numpy"], capture_output=True, cwd=G["root"])
        if r.returncode == 0:
            return py, None
        if arg:
            # the working tree's package (python/container_rl with its built library), copied
            # into the scratch directory so that a rebuild meanwhile cannot change it
            src = os.path.join(REPO, "python", "container_rl")
            if os.path.exists(os.path.join(src, "libcontainer.so")):
                dst = os.path.join(G["root"], "py", "container_rl")
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("bin", "__pycache__"), dirs_exist_ok=True)
                env = dict(os.environ, PYTHONPATH=os.path.join(G["root"], "py"))
                r = subprocess.run([py, "-c", "import container_rl, numpy"], capture_output=True, env=env)
                if r.returncode == 0:
                    return py, os.path.join(G["root"], "py")
    return None, None


def cases_python():
    for name, code in PY_CASES:
        def fn(d, code=code):
            body = code if "\n" in code else f"expect(lambda: exec({code!r}, globals()))"
            src = PY_PRELUDE + "\n" + body + "\n"
            env = base_env()
            if G.get("pypath"):
                env["PYTHONPATH"] = G["pypath"]
            t0 = time.monotonic()
            try:
                r = subprocess.run([G["python"], "-c", src], cwd=d, env=env, capture_output=True, timeout=60)
                rc, out, err, hung = r.returncode, r.stdout, r.stderr, False
            except subprocess.TimeoutExpired as e:
                rc, out, err, hung = None, e.stdout or b"", e.stderr or b"", True
            probs = []
            o, et = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
            if hung:
                probs.append("hang: no exit within 60s")
            elif rc < 0:
                probs.append(f"the interpreter was killed by signal {-rc}")
            elif rc == 5:
                probs.append(f"InternalError (a Go panic caught at the boundary): {o.strip()[:200]}")
            elif rc == 3:
                probs.append("no exception raised")
            elif rc == 6:
                probs.append(o.strip()[:200])
            elif rc != 0:
                probs.append(f"exit status {rc}: {et.strip().splitlines()[-1:]!r}")
            for m in ("panic", "goroutine ", "fatal error", "SIGSEGV"):
                if m in et:
                    probs.append(f"standard error holds {m!r}: {et[:200]!r}")
                    break
            return probs, o.strip().splitlines()[-1][:150] if o.strip() else f"exit {rc}"
        add(Case("python", name, kind="fn", fn=fn))


# --------------------------------------------------------------------------------------------
# Main


ALL_CATEGORIES = [cases_unknown, cases_numbers, cases_shard, cases_agents, cases_output, cases_rundir, cases_merge,
                  cases_inputs, cases_bots, cases_paths, cases_exit]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--container", required=True, help="the container binary to test")
    ap.add_argument("--out", help="scratch directory (created; kept afterwards); default: a new temporary one, "
                                  "removed when every case is OK")
    ap.add_argument("--only", help="run only the cases whose category/name matches this regular expression")
    ap.add_argument("--python", help="Python interpreter for the package cases (default: .venv/bin/python)")
    ap.add_argument("--timeout", type=float, default=30, help="seconds a command may run (default 30)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--verbose", action="store_true", help="also print the seconds each case took")
    args = ap.parse_args()

    container = os.path.abspath(args.container)
    if not os.access(container, os.X_OK):
        raise SystemExit(f"hostile.py: {args.container} is not an executable")
    if args.only:
        try:
            re.compile(args.only)
        except re.error as e:
            raise SystemExit(f"hostile.py: --only {args.only!r} is not a regular expression: {e}")
    if args.list:
        G.update(fix="", root="")
        for f in ALL_CATEGORIES + [cases_disk, cases_python, cases_http]:
            f()
        for c in CASES:
            if not args.only or re.search(args.only, c.full):
                print(c.full)
        return 0
    if args.out:
        root = os.path.abspath(args.out)
        os.makedirs(root, exist_ok=False)
    else:
        root = tempfile.mkdtemp(prefix="hostile-")
        G["own_root"] = root  # removed again if the sweep is interrupted
    G.update(container=container, root=root, fix=os.path.join(root, "fix"), home=os.path.join(root, "env", "home"),
             tmp=os.path.join(root, "env", "tmp"), timeout=args.timeout)
    os.makedirs(G["home"])
    os.makedirs(G["tmp"])
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    G["busy_port"] = busy.getsockname()[1]

    for f in ALL_CATEGORIES:
        f()
    notes = []
    why_disk = can_mount(root)
    if why_disk is None:
        cases_disk()
    else:
        notes.append(f"disk-full cases skipped: {why_disk}")
    py, pypath = find_python(args.python)
    if py:
        G["python"], G["pypath"] = py, pypath
        cases_python()
    else:
        notes.append("python cases skipped: no .venv/bin/python with container_rl importable (python/venv.sh), "
                     "and no --python given")
    cases_http()

    sel = [c for c in CASES if not args.only or re.search(args.only, c.full)]
    t_start = time.monotonic()
    build_fixtures()
    if not G.get("checksum_ok"):
        notes.append("the results-file checksum could not be recomputed here: the '-resummed' forgeries are "
                     "refused for their checksum rather than by the cross-checks")
    G["fix_snap"] = quick_snapshot(G["fix"])
    fix_full = snapshot(G["fix"])
    cases_dir = os.path.join(root, "cases")
    os.makedirs(cases_dir)
    n_bad = 0
    counts = {}
    bads = []

    def report(c, probs, why, secs):
        nonlocal n_bad
        ok = not probs
        counts.setdefault(c.cat, [0, 0])
        counts[c.cat][0] += 1
        if not ok:
            n_bad += 1
            counts[c.cat][1] += 1
            bads.append(c.full)
        text = "; ".join(probs) if probs else why
        t = f" [{secs:.1f}s]" if args.verbose else ""
        print(f"{'OK ' if ok else 'BAD'} {c.full}  {text}{t}".replace("\n", "\\n"), flush=True)

    http_cases = [c for c in sel if c.cat == "http"]
    for i, c in enumerate(x for x in sel if x.cat != "http"):
        d = os.path.join(cases_dir, f"{i:04d}")
        os.makedirs(d)
        t0 = time.monotonic()
        try:
            if c.kind == "cli":
                probs, why = run_cli_case(c, d)
            else:
                probs, why = c.fn(d)
        except Exception as e:
            probs, why = [f"harness error: {type(e).__name__}: {e}"], "error"
        report(c, probs, why, time.monotonic() - t0)
    if http_cases:
        run_http(http_cases, root, report)
    if snapshot(G["fix"]) != fix_full:
        print("BAD sweep/fixtures-unchanged  a command changed the shared fixtures")
        n_bad += 1
    total = sum(v[0] for v in counts.values())
    secs = time.monotonic() - t_start
    for n in notes:
        print(f"note: {n}")
    print("per category: " + ", ".join(f"{k} {v[0]}" + (f" ({v[1]} BAD)" if v[1] else "") for k, v in counts.items()))
    print(f"{total} cases, {n_bad} BAD ({secs:.0f}s; scratch {root})")
    busy.close()
    if n_bad == 0 and not args.out:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if n_bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        own = G.get("own_root")
        if own:
            shutil.rmtree(own, ignore_errors=True)
        where = G.get("root")
        kept = f"; scratch directory {where} kept" if where and not own else ""
        sys.stderr.write(f"hostile.py: interrupted{kept}\n")
        sys.exit(130)
