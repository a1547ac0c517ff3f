"""Running a command and the checks every command-line case gets (docs/TESTING.md,
"Hostile-input sweep")."""

import fnmatch
import hashlib
import os
import re
import shutil
import signal
import stat
import subprocess
import time

from .cases import CONTROL, G, PANIC_MARKERS, PROGRESS


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
