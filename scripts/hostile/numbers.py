"""Category "numbers": every numeric flag with a value outside its range, the ranges read from
the program (container help flags --json); serve's address, expiry and data directory."""

import json
import os
import signal
import subprocess

from .cases import Case, G, PANIC_MARKERS, add, cli, fx, wr
from .checks import Result, base_env, generic, outside_problems
from .fixtures import BCT, BE, EV, EXT, PPT, RT, SP


# The command line each command's numeric flags are tried on (a short run on the fixtures), and
# the few flags a command checks only in one mode. A command with a ranged flag and no command
# line here is a harness error: add one when a command gains a range.
BASES = {
    "selfplay": SP, "eval": EV, "rate": RT, "bench": BE, "spec": ["spec"], "play": ["play", "--opponents", "random"],
    "dataset stats": ["dataset", "stats", "sp"], "dataset head": ["dataset", "head", "sp"],
    "demo": ["demo", "--out", "o", "--games", "2", "--eval-games", "1", "--train-steps", "1"],
    "serve": ["serve", "--addr", "127.0.0.1:0"], "train bc": BCT, "train ppo": PPT, "train exit": EXT,
}
MODE_BASES = {
    ("train bc", "games"): ["train", "bc", "--teachers", "random", "--out", "o", "--steps", "1"],  # with --teachers
    ("bench", "batch"): BE + ["--train"], ("bench", "steps"): BE + ["--train"], ("bench", "width"): BE + ["--train"],
}


def program_flags():
    """The flags of every command, from container help flags --json: {command: [flag, ...]},
    and the player counts a game of Container has."""
    try:
        p = subprocess.run([G["container"], "help", "flags", "--json"], capture_output=True, timeout=60)
        doc = json.loads(p.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError) as e:
        raise SystemExit(f"hostile.py: container help flags --json: {e}")
    if p.returncode != 0:
        raise SystemExit(f"hostile.py: container help flags --json: exit {p.returncode}: "
                         f"{p.stderr.decode(errors='replace').strip()}")
    return {c["command"]: c["flags"] for c in doc["commands"]}, doc["players"]


def numeric_flags():
    """(base argv, flag, min, max, kind) for every flag with a range and every uint64 flag of the
    commands in BASES; kind is "int", "uint", "float", "float+" (the minimum itself refused) or
    "players" (0 means "from the agents", and the rules refuse fewer players than a game has)."""
    commands, players = program_flags()
    out = []
    for cmd, flags in commands.items():
        ranged = [f for f in flags if f.get("range") or f["kind"] == "uint64"]
        if any(f.get("range") for f in ranged) and cmd not in BASES:
            raise SystemExit(f"hostile.py: {cmd} has ranged flags and no command line in numbers.BASES")
        if cmd not in BASES:
            continue
        for f in ranged:
            base = MODE_BASES.get((cmd, f["name"]), BASES[cmd])
            if f["kind"] == "uint64":
                out.append((base, f["name"], 0, None, "uint"))
                continue
            r = f["range"]
            lo, hi = r["min"], r["max"]
            if f["kind"] == "float64":
                out.append((base, f["name"], lo, float(hi), "float+" if r.get("min_exclusive") else "float"))
            elif f["name"] == "players" and lo == 0:
                out.append((base, f["name"], players["min"], hi, "players"))
            elif f["kind"] == "int":
                out.append((base, f["name"], lo, hi, "int"))
            else:
                raise SystemExit(f"hostile.py: {cmd} --{f['name']}: a range on a {f['kind']} flag")
    return out


def bad_values(lo, hi, kind):
    if kind == "uint":
        return ["-1", "abc", "1.5", "", "18446744073709551616", "1e9"]
    if kind.startswith("float"):
        return ["nan", "inf", "abc", "", str(hi * 10), "0" if kind == "float+" else str(lo - 1)]
    if kind == "players":  # 0 means "from the agents"; fewer than lo or more than hi players is no game
        return ["-1", str(lo - 1), str(hi + 1), "abc", "", "1e9"]
    vals = [str(lo - 1), str(hi + 1), "abc", "", "99999999999999999999", "1e9"]
    if lo - 1 != -1:
        vals.append("-1")
    return vals


def cases_numbers():
    cat = "numbers"
    for base, flag, lo, hi, kind in numeric_flags():
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
