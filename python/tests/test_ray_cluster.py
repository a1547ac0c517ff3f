"""Sharded self-play and tournaments on a real local Ray cluster.

The cluster is a head and a worker node started as separate ``ray start`` processes, each on
its own loopback address (127.0.0.2, 127.0.0.3) with one CPU, so shards run on both nodes.
The merged dataset and tables must be what one ``container`` run writes, also when a worker
process is killed mid-shard and when a node is removed mid-run.

Needs the ``ray`` package (the ``[ray]`` extra) and the container binary (built here with Go
when ``CONTAINER`` is not set). Without ray the module is skipped, unless
``CONTAINER_RL_REQUIRE_RAY=1`` or ``CONTAINER_RL_REQUIRE_EXTRAS=1`` (CI sets it), which turns the
skip into a failure.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest

if "1" in (os.environ.get("CONTAINER_RL_REQUIRE_RAY"), os.environ.get("CONTAINER_RL_REQUIRE_EXTRAS")):
    import ray  # noqa: F401  (a missing ray fails the run in CI)
else:
    ray = pytest.importorskip("ray")

from container_rl import ray as crl_ray  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HEAD_IP, WORKER_IP, EXTRA_IP = "127.0.0.2", "127.0.0.3", "127.0.0.4"
AGENTS = "valuer,shipper,manufacturer,random"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    if os.environ.get("CONTAINER"):
        return os.path.abspath(os.environ["CONTAINER"])
    shipped = os.path.join(os.path.dirname(os.path.abspath(crl_ray.__file__)), "bin", "container")
    if os.access(shipped, os.X_OK):
        return shipped
    path = str(tmp_path_factory.mktemp("bin") / "container")
    subprocess.run(["go", "build", "-o", path, "./cmd/container"], cwd=ROOT, check=True)
    return path


def _ray_bin():
    return os.path.join(os.path.dirname(sys.executable), "ray")


@pytest.fixture(scope="module")
def cluster(binary):
    """A head and one worker node, each its own `ray start` process tree; torn down at the end."""
    env = dict(os.environ)
    # The workers import container_rl from where this process did (installed, or the checkout).
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(crl_ray.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([pkg_parent] + [p for p in [env.get("PYTHONPATH")] if p])
    env["CONTAINER"] = binary
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    # A test cluster on loopback without tokens, whatever ~/.ray/auth_token an earlier local
    # ray.init left behind (head, nodes and this driver must agree).
    env["RAY_AUTH_MODE"] = "disabled"
    # A removed node is noticed within a few seconds, not the default half minute.
    env["RAY_health_check_period_ms"] = "500"
    env["RAY_health_check_failure_threshold"] = "4"
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    port = _free_port()
    address = f"{HEAD_IP}:{port}"
    common = ["--num-cpus=1", "--include-dashboard=false", "--disable-usage-stats"]
    # Every node is a `ray start --block` process in a session of its own, so teardown stops
    # exactly this cluster (never `ray stop`, which would stop every Ray on the machine).
    procs = [subprocess.Popen([_ray_bin(), "start", "--head", "--block", f"--node-ip-address={HEAD_IP}",
                               f"--port={port}", f"--temp-dir={temp}", '--resources={"head_node": 1}', *common],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]

    def add_node(ip, resource):
        # Its own --temp-dir too: a worker node otherwise records the head's address in
        # /tmp/ray/ray_current_cluster, where a later plain ray.init() would look for a live cluster.
        p = subprocess.Popen([_ray_bin(), "start", f"--address={address}", f"--node-ip-address={ip}",
                              f"--temp-dir={temp}", f'--resources={{"{resource}": 1}}', "--block", "--num-cpus=1",
                              "--disable-usage-stats"],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        procs.append(p)
        return p

    add_node(WORKER_IP, "worker_node")
    old_env = {k: os.environ.get(k) for k in ("CONTAINER", "PYTHONPATH", "RAY_AUTH_MODE")}
    os.environ.update(CONTAINER=binary, PYTHONPATH=env["PYTHONPATH"], RAY_AUTH_MODE="disabled")
    deadline = time.monotonic() + 90
    while True:
        try:
            ray.init(address=address, _node_ip_address=HEAD_IP, log_to_driver=False, configure_logging=False)
            break
        except (ConnectionError, RuntimeError):
            if time.monotonic() > deadline or procs[0].poll() is not None:
                raise
            time.sleep(0.5)
    _wait_nodes(2)
    try:
        yield {"address": address, "add_node": add_node, "env": env}
    finally:
        ray.shutdown()
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        for ip in (HEAD_IP, WORKER_IP, EXTRA_IP):  # whatever of this cluster outlived its group
            for pid in _processes_of_node(ip):
                _kill(pid)
        shutil.rmtree(temp, ignore_errors=True)
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _wait_nodes(n, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [x for x in ray.nodes() if x["Alive"]]
        if len(alive) >= n:
            return alive
        time.sleep(0.2)
    raise AssertionError(f"the cluster has {len(alive)} live nodes, want {n}")


def _single(binary, command, args, out=None):
    argv = [binary, command, *args]
    if out:
        argv += ["--out", str(out)]
    if command == "selfplay":
        argv += ["--quiet"]
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout


def _stats(binary, path):
    return json.loads(subprocess.run([binary, "dataset", "stats", str(path), "--json"], check=True,
                                     capture_output=True, text=True).stdout)


def _steps_hashes(path):
    """Every dataset shard's steps file hash, by shard index, from a (merged) manifest. The
    steps files hold no wall-clock column, so one run and the merged parts have equal bytes."""
    with open(os.path.join(path, "manifest.json"), encoding="utf-8") as f:
        m = json.load(f)
    return {s["index"]: (s["first_game"], s["games"], s["steps"], s["steps_sha256"]) for s in m["shards"]}


def _games_without_duration(path):
    """The games table as rows without games.duration_us (the one wall-clock column)."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc  # noqa: F401
    with open(os.path.join(path, "manifest.json"), encoding="utf-8") as f:
        m = json.load(f)
    rows = []
    for s in m["shards"]:
        with pa.memory_map(os.path.join(path, s["games_file"])) as src:
            t = pa.ipc.open_file(src).read_all()
        rows += t.drop_columns(["duration_us"]).to_pylist()
    return rows


def _assert_same_dataset(binary, single, merged):
    assert _stats(binary, merged) == _stats(binary, single)
    assert _steps_hashes(merged) == _steps_hashes(single)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return
    assert _games_without_duration(merged) == _games_without_duration(single)


def _nodes_used(res):
    return {r["node"] for r in res["shards"]}


SP_ARGS = ["--agents", AGENTS, "--games", "48", "--seed", "11", "--shard-games", "6"]


def test_selfplay_shards_on_both_nodes_merge_to_one_run(cluster, binary, tmp_path):
    single = tmp_path / "single"
    _single(binary, "selfplay", SP_ARGS, single)
    res = crl_ray.selfplay(SP_ARGS, tmp_path / "ray", 4, progress=False)
    assert len(_nodes_used(res)) == 2, res["shards"]
    _assert_same_dataset(binary, single, tmp_path / "ray")


@pytest.mark.parametrize("command", ["eval", "rate"])
def test_tournament_shards_merge_to_one_run(cluster, binary, tmp_path, command):
    args = ["--agents", AGENTS, "--games", "40", "--seed", "5"]
    want = _single(binary, command, args + ["--json"])
    res = crl_ray.run(command, args, tmp_path / command, 4, progress=False, json_output=True)
    assert len(_nodes_used(res)) == 2, res["shards"]
    assert json.loads(res["output"]) == json.loads(want)
    # The printed table too, byte for byte.
    table = subprocess.run([binary, command, "--merge", str(tmp_path / command)], check=True,
                           capture_output=True, text=True).stdout
    assert table == _single(binary, command, args)


def _container_procs(binary, marker):
    """(pid, ppid) of running container processes (binary) whose command line holds marker."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if cmd and cmd[0] == binary.encode() and marker.encode() in b" ".join(cmd):
            found.append((int(pid), ppid))
    return found


def _run_in_thread(fn):
    box = {}

    def target():
        try:
            box["result"] = fn()
        except BaseException as e:  # reported by the test
            box["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    return t, box


# Longer shards, so that a kill lands while shards are running.
KILL_ARGS = ["--agents", AGENTS, "--games", "96", "--seed", "23", "--shard-games", "8"]


def test_killed_worker_process_is_retried_and_merge_is_unchanged(cluster, binary, tmp_path):
    single = tmp_path / "single"
    _single(binary, "selfplay", KILL_ARGS, single)
    out = tmp_path / "ray"
    t, box = _run_in_thread(lambda: crl_ray.selfplay(KILL_ARGS, out, 4, progress=False))
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline and t.is_alive():
        procs = _container_procs(binary, str(out))
        if procs:
            pid, worker = procs[0]
            os.kill(worker, signal.SIGKILL)  # the Ray worker running the shard's task
            killed = worker
        time.sleep(0.01)
    t.join(240)
    assert killed is not None, "no shard was seen running"
    assert "error" not in box, box.get("error")
    _assert_same_dataset(binary, single, out)


def test_removed_node_mid_run_completes_with_the_same_merge(cluster, binary, tmp_path):
    single = tmp_path / "single"
    _single(binary, "selfplay", KILL_ARGS, single)
    node = cluster["add_node"](EXTRA_IP, "extra_node")
    _wait_nodes(3)
    out = tmp_path / "ray"
    t, box = _run_in_thread(lambda: crl_ray.selfplay(KILL_ARGS, out, 6, progress=False))
    removed = False
    deadline = time.monotonic() + 60
    while not removed and time.monotonic() < deadline and t.is_alive():
        # A shard is running on the extra node once a container process descends from it.
        for pid, _ in _container_procs(binary, str(out)):
            if _descends_from_node(pid, EXTRA_IP):
                os.killpg(node.pid, signal.SIGKILL)  # the node's raylet and workers, all at once
                for p in _processes_of_node(EXTRA_IP):
                    _kill(p)
                removed = True
                break
        time.sleep(0.01)
    t.join(300)
    assert removed, "no shard was seen running on the extra node"
    assert "error" not in box, box.get("error")
    _assert_same_dataset(binary, single, out)


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _parent(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _descends_from_node(pid, ip):
    while pid > 1:
        if f"--node_ip_address={ip}" in _cmdline(pid) or f"--node-ip-address={ip}" in _cmdline(pid):
            return True
        pid = _parent(pid)
    return False


def _processes_of_node(ip):
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and _descends_from_node(int(p), ip)]


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def test_bad_options_fail_the_job_with_one_line(cluster, binary, tmp_path):
    args = ["--agents", "valuer,nosuchbot", "--games", "8"]
    with pytest.raises(crl_ray.ShardError) as e:
        crl_ray.selfplay(args, tmp_path / "bad", 2, progress=False)
    msg = str(e.value)
    assert "\n" not in msg and "nosuchbot" in msg, msg


def test_a_failed_shard_stops_the_running_ones_and_leaves_no_stop_file(cluster, tmp_path):
    """Shard 0 fails once shard 1 is running; the job reports shard 0's line, shard 1's process
    gets SIGINT (as on Ctrl-C) and the job's stop file is gone afterwards."""
    marks = tmp_path / "marks"
    marks.mkdir()
    fake = tmp_path / "container"
    fake.write_text(f"""#!/bin/sh
case "$*" in
*"--shard 0/2"*)
    i=0
    while [ ! -e {marks}/started ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    echo "container: eval: shard zero broke" >&2
    exit 1;;
esac
trap 'echo stopped > {marks}/stopped; kill $! 2>/dev/null; exit 130' INT
touch {marks}/started
sleep 120 &
wait
echo ran to the end > {marks}/stopped
""")
    fake.chmod(0o755)
    out = tmp_path / "job"
    t0 = time.monotonic()
    with pytest.raises(crl_ray.ShardError) as e:
        crl_ray.evaluate(["--agents", AGENTS, "--games", "8"], out, 2, binary=str(fake), progress=False)
    took = time.monotonic() - t0
    assert "shard 0/2: container: eval: shard zero broke" in str(e.value), e.value
    assert (marks / "stopped").read_text() == "stopped\n"
    assert took < 60, took
    assert not out.exists() or not [p for p in os.listdir(out) if p.startswith(".ray-stop-")], os.listdir(out)


def test_a_shard_sees_the_stop_file_and_ends_its_process(tmp_path, binary):
    stop = tmp_path / ".ray-stop-test"
    result = {}

    def go():
        try:
            crl_ray.run_shard(binary, "selfplay", ["--agents", AGENTS, "--games", "100000"], str(tmp_path / "sp"), 0, 1,
                              stop=str(stop))
        except BaseException as e:  # noqa: BLE001  (the test looks at what was raised)
            result["error"] = e

    t = threading.Thread(target=go)
    t.start()
    time.sleep(1.5)
    stop.write_text("stop\n")
    t.join(30)
    assert not t.is_alive()
    assert isinstance(result.get("error"), crl_ray.ShardStopped), result
    # A shard that starts after the stop file appeared runs nothing.
    with pytest.raises(crl_ray.ShardStopped):
        crl_ray.run_shard(binary, "selfplay", ["--agents", AGENTS, "--games", "10"], str(tmp_path / "late"), 0, 1,
                          stop=str(stop))
    assert not (tmp_path / "late").exists()


def test_reserved_and_bad_arguments_are_refused_before_anything_runs(tmp_path):
    for args, shards in ((["--out", "x"], 2), (["--shard=1/2"], 2), ([], 0), ([], True), ([3], 2)):
        with pytest.raises(ValueError):
            crl_ray.selfplay(args, tmp_path / "x", shards, progress=False)
    assert not (tmp_path / "x").exists()
    with pytest.raises(ValueError):
        crl_ray.run("train", [], tmp_path / "x", 2)


def test_command_line_prints_progress_and_the_merged_table(cluster, binary, tmp_path):
    out = tmp_path / "cli"
    proc = subprocess.run([sys.executable, "-m", "container_rl.ray", "eval", "--shards", "3", "--out", str(out),
                           "--address", cluster["address"], "--node-ip-address", HEAD_IP, "--", "--agents", AGENTS, "--games", "24", "--seed", "2"],
                          capture_output=True, text=True, env={**os.environ, **cluster["env"]}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == _single(binary, "eval", ["--agents", AGENTS, "--games", "24", "--seed", "2"])
    last = proc.stderr.strip().splitlines()
    assert any("24/24 games, 3/3 shards" in ln for ln in proc.stderr.replace("\r", "\n").splitlines()), proc.stderr
    assert "3 shards on" in last[-1]
    bad = subprocess.run([sys.executable, "-m", "container_rl.ray", "eval", "--shards", "2", "--out", str(out / "b"),
                          "--address", cluster["address"], "--node-ip-address", HEAD_IP, "--", "--agents", "nosuchbot"],
                         capture_output=True, text=True, env={**os.environ, **cluster["env"]}, timeout=300)
    last = bad.stderr.strip().splitlines()[-1]
    assert bad.returncode == 2 and last.startswith("container_rl.ray: eval shard") and "nosuchbot" in last, bad.stderr


def test_without_an_address_a_new_local_instance_starts_whatever_an_old_ray_start_recorded(binary, tmp_path):
    """`ray start` records its cluster in <tmp>/ray/ray_current_cluster and leaves it there when the
    cluster is gone; a plain ray.init() then tries to join that dead address. Without --address
    the command line starts its own local instance instead."""
    ray_tmp = tempfile.mkdtemp(prefix="rt-", dir="/tmp")  # short: Ray's socket paths live under it
    try:
        os.makedirs(os.path.join(ray_tmp, "ray"))
        with open(os.path.join(ray_tmp, "ray", "ray_current_cluster"), "w", encoding="utf-8") as f:
            f.write(f"127.0.0.1:{_free_port()}")  # nothing listens there
        pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(crl_ray.__file__)))
        env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
        env.update(RAY_TMPDIR=ray_tmp, CONTAINER=binary, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled",
                   PYTHONPATH=os.pathsep.join([pkg_parent] + [p for p in [env.get("PYTHONPATH")] if p]))
        args = ["--agents", AGENTS, "--games", "8", "--seed", "4"]
        proc = subprocess.run([sys.executable, "-m", "container_rl.ray", "eval", "--shards", "2",
                               "--out", str(tmp_path / "local"), "--node-ip-address", "127.0.0.5", "--", *args],
                              capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert proc.stdout == _single(binary, "eval", args)
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)


def test_progress_reads_parts_that_have_no_shard_yet(tmp_path):
    """A part's manifest holds "shards": null until its first dataset shard is complete; the
    progress count reads it as no games instead of failing the job."""
    part = tmp_path / "shard-00000-of-00002"
    part.mkdir()
    (part / "manifest.json").write_text('{"shards": null}')
    other = tmp_path / "shard-00001-of-00002"
    other.mkdir()
    (other / "manifest.json").write_text('{"shards": [{"games": 7}]}')
    assert crl_ray._games_done("selfplay", str(tmp_path), 2) == 7
    (tmp_path / "results-shard-00000-of-00002.json").write_text('{"results": null}')
    assert crl_ray._games_done("eval", str(tmp_path), 2) == 0
