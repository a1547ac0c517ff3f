"""Category "inputs": damaged, forged and oversized input files (positions, records, results,
datasets) for the commands that read them."""

import json
import os

from .cases import G, OPENING, cli, fx, mkd, mkfifo, sym, wr
from .hooks import FifoWriter


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
