"""Category "disk-full": each writing command on a small tmpfs until the disk is full, then
again after the tmpfs grows (needs root)."""

import os
import shutil
import subprocess

from .cases import Case, add, fx
from .checks import generic, outside_problems, run_cmd
from .fixtures import BCT, EXT, with_out


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
