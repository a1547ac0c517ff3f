"""Categories "merge-dataset" and "merge-results": dataset merge and eval/rate --merge on
missing, damaged, foreign and forged parts."""

import os
import re
import shutil

from .cases import cli, edit, fx, fx_as, mkd, mkfifo, rm, sym, wr
from .hooks import FifoWriter
from .checks import run_cmd
from .results import as_v1, bump, first_scores, forge, move_winner, set_score


def cases_merge():
    cat = "merge-dataset"
    P0, P1 = "shards/shard-00000-of-00002", "shards/shard-00001-of-00002"
    Q0, Q1 = "shards2/shard-00000-of-00002", "shards2/shard-00001-of-00002"
    M = ["dataset", "merge"]
    s = fx("shards", "shards2", "sp")
    cli(cat, "good", M + ["shards", P0, P1], expect="ok", setup=s, outputs=["shards/manifest.json"])
    cli(cat, "good-rerun", M + ["shards", P0, P1], expect="ok",
        setup=[s, lambda d: run_cmd(M + ["shards", P0, P1], d)], outputs=["shards/manifest.json"])
    cli(cat, "good-copy", M + ["--copy", "merged", P0, P1], expect="ok", setup=s)
    cli(cat, "missing-part", M + ["shards", P0], setup=s, mention="games [2,4)")
    cli(cat, "missing-part-first", M + ["shards", P1], setup=s)
    cli(cat, "duplicated-part", M + ["shards", P0, P0, P1], setup=s)
    cli(cat, "duplicated-part-other-spelling", M + ["shards", P0, P0 + "/", P1], setup=s)
    cli(cat, "duplicated-part-via-link", M + ["shards", P0, "shards/again", P1], setup=[s, sym("shards/again",
                                                                                               "shard-00000-of-00002")])
    cli(cat, "parts-of-two-runs", M + ["shards", P0, "shards/other"], setup=[s, lambda d: shutil.copytree(
        os.path.join(d, Q1), os.path.join(d, "shards", "other"))])
    cli(cat, "part-not-inside-out", M + ["shards", P0, Q1], setup=s)
    cli(cat, "out-is-a-part", M + [P0, P0, P1], setup=s)
    cli(cat, "out-is-file", M + ["notes.txt", P0, P1], setup=[s, wr("notes.txt", "mine")])
    cli(cat, "out-with-user-file", M + ["shards", P0, P1], setup=[s, wr("shards/notes.txt", "mine")], expect="any",
        outputs=["shards/manifest.json"])
    cli(cat, "out-with-user-manifest", M + ["shards", P0, P1], setup=[s, wr("shards/manifest.json", '{"mine":1}')])
    cli(cat, "copy-onto-user-shard-name", M + ["--copy", "merged", P0, P1], setup=[s, wr("merged/steps-00000.arrow", "mine")])
    cli(cat, "part-is-file", M + ["shards", P0, "shards/notes.txt"], setup=[s, wr("shards/notes.txt", "mine")])
    cli(cat, "part-missing", M + ["shards", P0, "shards/nosuch"], setup=s)
    cli(cat, "part-is-dev-null", M + ["shards", P0, "/dev/null"], setup=s)
    cli(cat, "part-is-user-dir", M + ["shards", P0, "shards/mine"], setup=[s, wr("shards/mine/a.txt", "a")])
    cli(cat, "part-is-whole-dataset", M + ["shards", P0, "shards/sp"], setup=[s, fx_as("sp", "shards/sp")])
    for what, f in [("steps-altered", edit(P1 + "/steps-00001.arrow", lambda b: b[:100] + bytes([b[100] ^ 1]) + b[101:])),
                    ("steps-truncated", edit(P1 + "/steps-00001.arrow", lambda b: b[:len(b) // 2])),
                    ("steps-missing", rm(P1 + "/steps-00001.arrow")),
                    ("steps-is-dir", lambda d: (os.remove(os.path.join(d, P1, "steps-00001.arrow")),
                                                os.makedirs(os.path.join(d, P1, "steps-00001.arrow")))),
                    ("games-missing", rm(P1 + "/games-00001.arrow")),
                    ("manifest-missing", rm(P1 + "/manifest.json")),
                    ("manifest-truncated", edit(P1 + "/manifest.json", lambda b: b[:len(b) // 2])),
                    ("manifest-garbage", wr(P1 + "/manifest.json", "garbage")),
                    ("manifest-empty", wr(P1 + "/manifest.json", "")),
                    ("manifest-dup-key", edit(P1 + "/manifest.json", lambda b: b.replace(b"{", b'{"seed": 1,', 1))),
                    ("manifest-capital-key", edit(P1 + "/manifest.json", lambda b: b.replace(b'"seed"', b'"Seed"', 1))),
                    ("manifest-misspelt-key", edit(P1 + "/manifest.json", lambda b: b.replace(b'"seed"', b'"sed"', 1))),
                    ("manifest-edited", edit(P1 + "/manifest.json", lambda b: re.sub(rb'"steps": ?(\d)', rb'"steps": 9\1', b, 1))),
                    ("manifest-trailing", edit(P1 + "/manifest.json", lambda b: b + b"{}")),
                    ("manifest-is-dir", lambda d: (os.remove(os.path.join(d, P1, "manifest.json")),
                                                   os.makedirs(os.path.join(d, P1, "manifest.json")))),
                    ("manifest-link-out", lambda d: (os.remove(os.path.join(d, P1, "manifest.json")),
                                                     os.symlink(os.path.join(d, Q1, "manifest.json"),
                                                                os.path.join(d, P1, "manifest.json"))))]:
        cli(cat, what, M + ["shards", P0, P1], setup=[s, f])
        # with --copy each file is checked as it is copied (docs/SCALE.md): exact copies of the
        # parts checked before the bad one may stay, never a manifest or a temporary file
        cli(cat, what + "-copy", M + ["--copy", "merged", P0, P1], setup=[s, f],
            may_create=["merged", "merged/steps-0000?.arrow", "merged/games-0000?.arrow"])
    cli(cat, "copy-non-utf8-out", M + ["--copy", b"m\xff", P0, P1], expect="ok", setup=s)

    cat = "merge-results"
    for cmd in ("eval", "rate"):
        src = "ev" if cmd == "eval" else "rt"
        a, b = f"{src}/results-shard-00000-of-00002.json", f"{src}/results-shard-00001-of-00002.json"
        b_name = os.path.basename(b)
        s = fx(src, "ev2")
        mg = [cmd, "--merge"]
        cli(cat, f"{cmd}-good-dir", mg + [src], expect="ok", setup=s)
        cli(cat, f"{cmd}-good-files", mg + [a, b], expect="ok", setup=s)
        cli(cat, f"{cmd}-good-json", mg + [src, "--json"], expect="ok", setup=s)
        cli(cat, f"{cmd}-missing-shard", mg + [a], setup=s, mention="games [2,4)")
        cli(cat, f"{cmd}-missing-shard-dir", mg + [src], setup=[s, rm(b)])
        cli(cat, f"{cmd}-duplicated-file", mg + [a, a, b], setup=s)
        cli(cat, f"{cmd}-duplicated-via-copy", mg + [a, b, "copy.json"], setup=[s, fx_as(a, "copy.json")])
        cli(cat, f"{cmd}-other-tournament", mg + [a, "ev2/results-shard-00001-of-00002.json"], setup=s)
        cli(cat, f"{cmd}-missing-file", mg + [a, "nosuch.json"], setup=s)
        cli(cat, f"{cmd}-empty-dir", mg + ["empty"], setup=mkd("empty"))
        cli(cat, f"{cmd}-dir-as-file", mg + [a, "d.json"], setup=[s, mkd("d.json")])
        cli(cat, f"{cmd}-dir-named-like-results", mg + [src], setup=[s, rm(b), mkd(b)])
        cli(cat, f"{cmd}-dev-null", mg + [a, "/dev/null"], setup=s)
        cli(cat, f"{cmd}-fifo-with-writer", mg + [a, "p.json"], setup=[s, mkfifo("p.json")],
            hooks=[FifoWriter("p.json", b"{not json")])
        for what, f in [("edited-total", forge(b, lambda o: bump(o, "total"), fix_sum=False)),
                        ("moved-winner", forge(b, move_winner, fix_sum=False)),
                        ("edited-total-resummed", forge(b, lambda o: bump(o, "total"))),
                        ("moved-winner-resummed", forge(b, move_winner)),
                        ("edited-rank-resummed", forge(b, lambda o: set_score(o, "rank", 2 if first_scores(o)[0]["rank"] == 1 else 1))),
                        ("edited-seed-resummed", forge(b, lambda o: o["results"][0].__setitem__("seed", 12345))),
                        ("swapped-games-resummed", forge(b, lambda o: o["results"].reverse())),
                        ("dropped-game-resummed", forge(b, lambda o: o["results"].pop())),
                        ("doubled-game-resummed", forge(b, lambda o: o["results"].append(o["results"][-1]))),
                        ("edited-games-resummed", forge(b, lambda o: o.__setitem__("games", 6))),
                        ("edited-range-resummed", forge(b, lambda o: o.__setitem__("first_game", 0))),
                        ("zero-steps-resummed", forge(b, lambda o: o["results"][0].__setitem__("steps", 0))),
                        ("bad-end-resummed", forge(b, lambda o: o["results"][0].__setitem__("end_reason", 7))),
                        ("bad-agents-resummed", forge(b, lambda o: o["results"][0].__setitem__("agents", [9, 9, 9, 9]))),
                        ("edited-tool-version", forge(b, lambda o: o.__setitem__("tool_version", "9.9.9"), fix_sum=False)),
                        ("truncated", edit(b, lambda x: x[:len(x) // 2])),
                        ("garbage", wr(b, "garbage\n")),
                        ("empty", wr(b, "")),
                        ("null", wr(b, "null")),
                        ("array", wr(b, "[]")),
                        ("nul-bytes", edit(b, lambda x: x[:50] + b"\x00" + x[50:])),
                        ("bom", edit(b, lambda x: b"\xef\xbb\xbf" + x)),
                        ("dup-key", edit(b, lambda x: x.replace(b"{", b'{"seed":1,', 1))),
                        ("capital-key", edit(b, lambda x: x.replace(b'"seed"', b'"Seed"', 1))),
                        ("misspelt-key", edit(b, lambda x: x.replace(b'"seed"', b'"sede"', 1))),
                        ("unknown-key", edit(b, lambda x: x.replace(b"{", b'{"extra":1,', 1))),
                        ("trailing-data", edit(b, lambda x: x + b"{}")),
                        ("deep-nesting", wr(b, "[" * 100000 + "]" * 100000)),
                        ("non-utf8", edit(b, lambda x: x.replace(b'"random"', b'"rand\xffom"', 1))),
                        ("format-v9", forge(b, lambda o: o.__setitem__("format", "container-eval-results/9"))),
                        ("no-checksum-v1", forge(b, lambda o: (o.pop("checksum"), o.__setitem__(
                            "format", "container-eval-results/1")), fix_sum=False))]:
            cli(cat, f"{cmd}-{what}", mg + [a, b], setup=[s, f], mention=b_name)
        cli(cat, f"{cmd}-upgrade-v1", mg + ["--upgrade-results", a, b], expect="ok", outputs=[a, b],
            setup=[s, forge(a, as_v1, fix_sum=False), forge(b, as_v1, fix_sum=False)])
        cli(cat, f"{cmd}-upgrade-v1-one-bad", mg + ["--upgrade-results", a, b],
            setup=[s, forge(a, as_v1, fix_sum=False), forge(b, lambda o: (as_v1(o), bump(o, "total")), fix_sum=False)])
        cli(cat, f"{cmd}-upgrade-v1-through-link", mg + ["--upgrade-results", a, "ln.json"],
            setup=[s, forge(a, as_v1, fix_sum=False), forge(b, as_v1, fix_sum=False),
                   lambda d, b=b: (shutil.move(os.path.join(d, b), os.path.join(d, "real.json")),
                              os.symlink("real.json", os.path.join(d, "ln.json")))])
        cli(cat, f"{cmd}-upgrade-current", mg + ["--upgrade-results", a, b], expect="any", setup=s)
