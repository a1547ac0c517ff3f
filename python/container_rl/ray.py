"""Self-play datasets and tournaments as Ray jobs.

A run of ``container selfplay``, ``eval`` or ``rate`` is split into N shards with the CLI's own
``--shard I/N`` semantics (docs/SCALE.md); each shard is one Ray task that runs the
``container`` binary on whichever node Ray picks, writing into a directory every node sees
(shared storage). When every task has finished, the parts are joined by the CLI's merge
(``container dataset merge`` / ``eval --merge`` / ``rate --merge``), which checks everything it
joins, so the result is what one run on one machine gives. Nothing here plays or merges games:
the Go binary does, and this module only schedules it.

Faults:

- a worker process (or the node it runs on) that dies mid-shard is a system failure that Ray
  retries (``retries`` times, default 3); the retried self-play shard continues with
  ``--resume``, a retried tournament shard plays its games again and replaces its own file;
- a ``container`` process killed by a signal is retried the same way;
- a shard that fails for a real reason (bad options, an unknown bot, a full disk) exits
  non-zero with a one-line message: the job stops, the other shards are stopped, and
  :class:`ShardError` carries that line. The job stops its shards through a stop file it
  writes in the output directory (``.ray-stop-<job>``, removed when they have stopped), not
  through ``ray.cancel``, which can crash the driver when a task ends at the same moment.

From the shell::

    python -m container_rl.ray selfplay --shards 8 --out /shared/runs/sp -- \\
        --agents valuer,shipper,manufacturer,random --games 100000 --seed 1
    python -m container_rl.ray eval --shards 8 --out /shared/eval/t1 -- \\
        --agents default,valuer,valuer,valuer --games 4000

``--address`` (or ``RAY_ADDRESS``) names the cluster; without it a local Ray instance starts.
"""

import argparse
import ctypes
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

COMMANDS = ("selfplay", "eval", "rate")
# Flags the job sets itself for every shard; passing them among the command's flags is refused.
_RESERVED = ("--out", "--shard", "--merge", "--resume")
_DEFAULT_GAMES = 100  # selfplay, eval and rate: the CLI's --games default


class ShardError(RuntimeError):
    """A shard failed for a reason a retry cannot fix (the ``container`` message in one line)."""


class ShardKilled(RuntimeError):
    """The shard's ``container`` process was killed by a signal: Ray retries the task."""


class ShardStopped(RuntimeError):
    """The shard stopped because the job's stop file appeared (another shard failed)."""


def find_binary(binary=None):
    """The ``container`` binary: ``binary``, else ``$CONTAINER``, else one shipped inside the
    package (``container_rl/bin/container``), else ``container`` on ``PATH``."""
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (binary, os.environ.get("CONTAINER"), os.path.join(here, "bin", "container")):
        if cand:
            path = shutil.which(cand) if os.sep not in cand else cand
            if path and os.path.isfile(path) and os.access(path, os.X_OK):
                return os.path.abspath(path)
            if cand in (binary, os.environ.get("CONTAINER")):
                raise ShardError(f"container_rl.ray: the container binary {cand!r} is not an executable file")
    path = shutil.which("container")
    if path is None:
        raise ShardError("container_rl.ray: no container binary: install the package's wheel, put container "
                         "on PATH or set CONTAINER=/path/to/container (go build -o container ./cmd/container)")
    return path


def _check_args(command, args, shards, out):
    if command not in COMMANDS:
        raise ValueError(f"container_rl.ray: unknown command {command!r}; want one of {', '.join(COMMANDS)}")
    if isinstance(shards, bool) or not isinstance(shards, int) or not 1 <= shards <= 1_000_000:
        raise ValueError(f"container_rl.ray: shards must be an integer from 1 to 1000000, not {shards!r}")
    if not isinstance(out, (str, os.PathLike)) or not str(out):
        raise ValueError("container_rl.ray: out must name a directory on storage every node sees")
    args = list(args)
    for a in args:
        if not isinstance(a, str):
            raise ValueError(f"container_rl.ray: command flags must be strings, not {a!r}")
        name = a.split("=", 1)[0]
        if name in _RESERVED:
            raise ValueError(f"container_rl.ray: {name} is set by the job for every shard; leave it out of the flags")
    return args


def _flag(args, name, default=None):
    """The value of --name in args (``--name V`` or ``--name=V``), else default."""
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1:]
    return default


def _games(args):
    try:
        return int(_flag(args, "--games", _DEFAULT_GAMES))
    except ValueError:
        return None  # the CLI itself names the bad value


def _die_with_parent():
    # Linux: the container process gets SIGKILL when the Ray worker that started it dies, so a
    # killed worker leaves no orphan holding the shard directory's lock for the retry.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_shard(binary, command, args, out, index, count, stop=None, poll=0.2):
    """Runs shard index of count in this process (a Ray task calls it) and returns
    ``{"index", "node", "seconds"}``. Raises :class:`ShardError` for a failure,
    :class:`ShardKilled` when the process was killed by a signal and :class:`ShardStopped`
    when the file ``stop`` appeared (checked every ``poll`` seconds; the ``container``
    process is then ended)."""
    argv = [binary, command, *args, "--out", str(out), "--shard", f"{index}/{count}"]
    if command == "selfplay":
        argv += ["--resume", "--quiet"]
        if _flag(args, "--workers") is None:
            argv += ["--workers", "1"]
    elif _flag(args, "--workers") is None:
        argv += ["--workers", "1"]
    t0 = time.monotonic()
    if stop is not None and os.path.exists(stop):
        raise ShardStopped(f"shard {index}/{count}: stopped before it started")
    # Standard error goes to a file, not a pipe: nothing reads a pipe while the task polls.
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=_die_with_parent)
        try:
            while True:
                try:
                    proc.wait(timeout=poll)
                    break
                except subprocess.TimeoutExpired:
                    if stop is not None and os.path.exists(stop):
                        raise ShardStopped(f"shard {index}/{count}: stopped") from None
        except BaseException:  # stopped, interrupted or cancelled: the process ends with the task
            _end(proc)
            raise
        err.seek(0)
        stderr = err.read()
    if proc.returncode < 0:
        raise ShardKilled(f"shard {index}/{count}: container was killed by signal {-proc.returncode}")
    if proc.returncode != 0:
        lines = [ln for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
        raise ShardError(f"shard {index}/{count}: {lines[-1] if lines else f'container exited with status {proc.returncode}'}")
    node = os.environ.get("CONTAINER_RL_NODE", "")
    try:
        import ray
        node = ray.get_runtime_context().get_node_id()
    except Exception:  # not inside Ray
        pass
    return {"index": index, "node": node, "seconds": time.monotonic() - t0}


def _end(proc, grace=10.0):
    """Ends a running container process: SIGINT (the CLI stops cleanly, as on Ctrl-C), SIGKILL
    after grace seconds."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _games_done(command, out, count):
    """Games finished so far, read from what the shards have written: the part manifests'
    complete dataset shards (selfplay) or the shards' results files (eval, rate)."""
    done = 0
    if command == "selfplay":
        for path in glob.glob(os.path.join(out, f"shard-*-of-{count:05d}", "manifest.json")):
            try:
                with open(path, encoding="utf-8") as f:
                    done += sum(s.get("games", 0) for s in json.load(f).get("shards") or [])
            except (OSError, ValueError, AttributeError, TypeError):
                pass  # being replaced right now, or no shard yet: counted at the next poll
    else:
        for path in glob.glob(os.path.join(out, f"results-shard-*-of-{count:05d}.json")):
            try:
                with open(path, encoding="utf-8") as f:
                    done += len(json.load(f).get("results") or [])
            except (OSError, ValueError, AttributeError, TypeError):
                pass
    return done


class _Progress:
    """One line on stderr for the whole job: games done of total, shards done. On a terminal
    the line is redrawn in place; in a log, a new line every ``every`` seconds when it changed."""

    def __init__(self, stream, label, total, count, every=10.0):
        self.stream, self.label, self.total, self.count = stream, label, total, count
        self.last = None
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.every, self.shown = every, None

    def clear(self):
        if self.tty and self.last is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def show(self, games, shards, final=False):
        total = self.total if self.total is not None else "?"
        if isinstance(total, int):
            games = min(games, total)
            width = 30
            filled = width * games // total if total else width
            bar = "[" + "#" * filled + "." * (width - filled) + "] "
        else:
            bar = ""
        line = f"{self.label}: {bar}{games}/{total} games, {shards}/{self.count} shards"
        if line == self.last and not final:
            return
        now = time.monotonic()
        if self.tty:
            self.stream.write("\r" + line + ("\n" if final else ""))
        elif final or self.shown is None or now - self.shown >= self.every:
            self.stream.write(line + "\n")
            self.shown = now
        else:
            return
        self.stream.flush()
        self.last = line


def _strategy(scheduling, index):
    """Where shard index runs. "round-robin": on the cluster's live nodes with CPUs in turn
    (soft: a shard whose node is gone or busy runs elsewhere, and a retry after a node's death
    goes to another node); any other value is a Ray scheduling strategy ("SPREAD", "DEFAULT")."""
    if scheduling != "round-robin":
        return scheduling
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
    nodes = sorted(n["NodeID"] for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0)
    if not nodes:
        return "DEFAULT"
    return NodeAffinitySchedulingStrategy(node_id=nodes[index % len(nodes)], soft=True)


def run(command, args, out, shards, *, address=None, binary=None, retries=3, progress=True, json_output=False,
        scheduling="round-robin", num_cpus=1, poll=0.5, node_ip_address=None):
    """Runs ``container COMMAND ARGS`` as ``shards`` Ray tasks writing under ``out``, then
    merges. Returns a dict: ``shards`` (index, node and seconds per shard), ``seconds`` (wall),
    ``output`` (the merge's standard output: the dataset summary, the table or its JSON with
    ``json_output``), ``out``. ``scheduling``: "round-robin" (default: shard i on the i-th live
    node in turn, soft) or a Ray strategy ("SPREAD", "DEFAULT"). Raises :class:`ShardError` (one line) when a shard or the merge
    fails."""
    import ray

    args = _check_args(command, args, shards, out)
    binary = find_binary(binary)
    out = os.path.abspath(os.fspath(out))
    if not ray.is_initialized():
        kw = {"_node_ip_address": node_ip_address} if node_ip_address else {}
        # "local" starts a fresh instance rather than joining whatever cluster an earlier
        # `ray start` recorded in /tmp/ray/ray_current_cluster (possibly long gone).
        ray.init(address=address or os.environ.get("RAY_ADDRESS") or "local", log_to_driver=False,
                 include_dashboard=False, configure_logging=False, **kw)
    task = ray.remote(run_shard)
    t0 = time.monotonic()
    stop = os.path.join(out, f".ray-stop-{uuid.uuid4().hex}")  # this job's own: no other job reads it
    pending = {task.options(num_cpus=num_cpus, max_retries=retries, retry_exceptions=[ShardKilled],
                            scheduling_strategy=_strategy(scheduling, i)).remote(binary, command, args, out, i, shards, stop): i
               for i in range(shards)}
    bar = _Progress(sys.stderr, f"{command} on ray", _games(args), shards) if progress else None
    results = []
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=poll)
            for ref in ready:
                pending.pop(ref)
                try:
                    results.append(ray.get(ref))
                except ray.exceptions.RayTaskError as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, (ShardError, ShardKilled)):
                        raise ShardError(f"container_rl.ray: {command} {cause}") from None
                    lines = [ln for ln in str(cause if cause is not None else e).splitlines() if ln.strip()]
                    raise ShardError(f"container_rl.ray: {command}: a shard failed: {lines[-1] if lines else type(e).__name__}") from None
            if bar:
                bar.show(_games_done(command, out, shards), len(results))
    except BaseException:
        _stop_shards(ray, pending, out, stop)
        if bar:
            bar.clear()
        raise
    if bar:
        bar.show(_games_done(command, out, shards), len(results), final=True)
    if command == "selfplay":
        parts = [os.path.join(out, f"shard-{i:05d}-of-{shards:05d}") for i in range(shards)]
        merge = [binary, "dataset", "merge", out, *parts]
    else:
        merge = [binary, command, "--merge", out] + (["--json"] if json_output else [])
    proc = subprocess.run(merge, stdin=subprocess.DEVNULL, capture_output=True, check=False)
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
        raise ShardError(f"container_rl.ray: merge: {lines[-1] if lines else f'exit status {proc.returncode}'}")
    results.sort(key=lambda r: r["index"])
    return {"out": out, "shards": results, "seconds": time.monotonic() - t0,
            "output": proc.stdout.decode("utf-8", "replace")}


def _stop_shards(ray, pending, out, stop, wait=120.0):
    """Stops the shards still pending: writes the stop file they watch, waits for every one to
    end (a queued shard ends as soon as it starts), then removes the stop file (and ``out``
    when the job made it only for that file). Shards that have not ended after ``wait``
    seconds are cancelled through Ray as a last resort."""
    if not pending:
        return
    made = not os.path.isdir(out)
    written = False
    try:
        os.makedirs(out, exist_ok=True)
        with open(stop, "x", encoding="utf-8") as f:
            written = True
            f.write("stop\n")
    except OSError:
        pass  # cannot write there: only Ray can stop them
    try:
        refs = list(pending)
        deadline = time.monotonic() + (wait if written else 0)
        while refs and time.monotonic() < deadline:
            ready, refs = ray.wait(refs, num_returns=len(refs), timeout=min(1.0, max(0.0, deadline - time.monotonic())))
            for ref in ready:  # collect their errors, so Ray reports none as unhandled
                try:
                    ray.get(ref)
                except Exception:  # stopped, or failed the same way: the first failure is the one reported
                    pass
        for ref in refs:
            ray.cancel(ref)
    finally:  # also when a second Ctrl-C ends the wait: nothing of the job's stop is left behind
        try:
            if written:
                os.remove(stop)
            if made:
                os.rmdir(out)  # only if still empty: the job made it for its stop file alone
        except OSError:
            pass


def selfplay(args, out, shards, **kw):
    """``container selfplay ARGS`` as shards; the merged dataset is ``out``."""
    return run("selfplay", args, out, shards, **kw)


def evaluate(args, out, shards, **kw):
    """``container eval ARGS`` as shards; returns the merged table in ``output``."""
    return run("eval", args, out, shards, **kw)


def rate(args, out, shards, **kw):
    """``container rate ARGS`` as shards; returns the merged ratings in ``output``."""
    return run("rate", args, out, shards, **kw)


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m container_rl.ray",
        description="Run container selfplay, eval or rate as Ray tasks (one per shard), then merge.",
        usage="%(prog)s {selfplay,eval,rate} --shards N --out DIR [options] -- FLAGS...",
        epilog="Everything after -- goes to the container command, e.g. "
               "selfplay --shards 8 --out /shared/runs/sp -- --agents valuer,random --games 10000")
    p.add_argument("command", choices=COMMANDS)
    p.add_argument("--shards", type=int, required=True, help="number of shards (Ray tasks)")
    p.add_argument("--out", required=True, help="output directory on storage every node sees")
    p.add_argument("--address", help="Ray cluster address (default: RAY_ADDRESS, else a local instance)")
    p.add_argument("--node-ip-address", help="this machine's Ray node address, when it is not the one Ray guesses")
    p.add_argument("--binary", help="the container binary (default: CONTAINER, the package's, PATH)")
    p.add_argument("--retries", type=int, default=3, help="retries of a shard whose worker or node died")
    p.add_argument("--cpus", type=float, default=1, help="CPUs each shard reserves")
    p.add_argument("--json", action="store_true", help="eval/rate: print the merged table as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    argv = list(sys.argv[1:] if argv is None else argv)
    flags = []
    if "--" in argv:
        cut = argv.index("--")
        argv, flags = argv[:cut], argv[cut + 1:]
    ns = p.parse_args(argv)
    # Standard output carries only the merged result: whatever Ray prints meanwhile (a node
    # marked dead, a worker's message) goes to standard error.
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)  # also what Ray's own threads write to the file descriptor
    stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        res = run(ns.command, flags, ns.out, ns.shards, address=ns.address, binary=ns.binary, retries=ns.retries,
                  progress=not ns.no_progress, json_output=ns.json, num_cpus=ns.cpus,
                  node_ip_address=ns.node_ip_address)
    except (ShardError, ValueError) as e:
        print(str(e).splitlines()[0], file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("container_rl.ray: interrupted; rerun the same command to continue", file=sys.stderr)
        return 130
    finally:
        sys.stderr.flush()
        sys.stdout = stdout
        os.dup2(saved, 1)
        os.close(saved)
    sys.stdout.write(res["output"])
    sys.stdout.flush()
    nodes = len({r["node"] for r in res["shards"]})
    print(f"{ns.shards} shards on {nodes} node(s) in {res['seconds']:.1f}s; merged into {res['out']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
