"""The shared fixtures, built once per sweep with the binary under test, damaged copies of the
bot file, and the short command lines the cases start from."""

import json
import os
import shutil
import struct
import zlib

from .cases import G, OPENING
from .checks import run_cmd
from .results import results_sum


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


# --------------------------------------------------------------------------------------------
# The command-line cases


R0 = "ev/results-shard-00000-of-00002.json"
R1 = "ev/results-shard-00001-of-00002.json"


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
