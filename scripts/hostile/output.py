"""Category "output": --out, --csv, --save and the other written paths pointing at hostile
places (links, pipes, directories, read-only files)."""

import os
import shutil
import socket

from .cases import G, cli, fx, mkd, mkfifo, mksock, sym, wr
from .hooks import FifoReader
from .fixtures import R0


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
