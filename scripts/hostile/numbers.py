"""Category "numbers": every numeric flag with a value outside its range, the ranges read from
the program (container help flags --json); serve's address, expiry and data directory."""

import os
import signal
import subprocess

from .cases import Case, G, PANIC_MARKERS, add, cli, fx, wr
from .checks import Result, base_env, generic, outside_problems
from .fixtures import BCT, BE, EV, EXT, PPT, RT, SP


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
