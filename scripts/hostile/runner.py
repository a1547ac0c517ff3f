"""The sweep's command line: collect the cases, build the fixtures, run every case, report."""

import argparse
import os
import re
import shutil
import socket
import sys
import tempfile
import time

from . import __doc__ as SWEEP_DOC
from .cases import CASES, G
from .checks import quick_snapshot, run_cli_case, snapshot
from .fixtures import build_fixtures
from .unknown import cases_unknown
from .numbers import cases_numbers
from .shard import cases_shard
from .agents import cases_agents
from .output import cases_output
from .rundir import cases_rundir
from .merge import cases_merge
from .inputs import cases_inputs
from .bots import cases_bots
from .paths import cases_paths
from .train_exit import cases_exit
from .disk import can_mount, cases_disk
from .web import cases_http, run_http
from .python_package import cases_python, find_python


ALL_CATEGORIES = [cases_unknown, cases_numbers, cases_shard, cases_agents, cases_output, cases_rundir, cases_merge,
                  cases_inputs, cases_bots, cases_paths, cases_exit]


def main():
    ap = argparse.ArgumentParser(description=SWEEP_DOC.split("\n\n")[0])
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
        G.update(container=container, fix="", root="")
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


def run():
    """main, exiting with its status; Ctrl-C removes the scratch directory the sweep made."""
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
