"""Category "rundir": run directories that hold something else (foreign files, another
command's run) for the commands that create or resume one."""

from .cases import cli, edit, fx, fx_as, rm, sym, wr
from .hooks import Flock
from .fixtures import BCT, EXT, PPT, with_out


FOREIGN = [("notes", wr("D/notes.txt", "mine")), ("train-py", wr("D/train.py", "print('mine')\n")),
           ("hidden", wr("D/.hidden", "mine")), ("subdir", wr("D/sub/keep.txt", "mine")),
           ("garbage-manifest", wr("D/manifest.json", "{garbage")),
           ("garbage-marker", wr("D/.container-run", "{garbage")),
           ("forged-marker", wr("D/.container-run", '{"format":"container-run/1","kind":"nosuch","command":"x"}')),
           ("foreign-shard", wr("D/steps-00000.arrow", "not arrow")),
           ("garbage-checkpoint", wr("D/checkpoint.ckpt", "CNTRCKP1garbage")),
           ("user-game-file", wr("D/game-00000.json", '{"mine":true}')),
           ("empty-marker", wr("D/.container-run", "")),
           ("lock-only", wr("D/.container.lock", "")),
           ("link-in-dir", sym("D/escape", "/etc")),
           ("results-only", wr("D/results-shard-00000-of-00001.json", "{}"))]

WRITERS = [("selfplay", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", "D"]),
           ("eval-save", ["eval", "--agents", "random", "--games", "2", "--save", "D"]),
           ("train-bc", with_out(BCT, "D")),
           ("train-ppo", with_out(PPT, "D")),
           ("train-exit", with_out(EXT, "D")),
           ("demo", ["demo", "--out", "D", "--games", "2", "--eval-games", "1", "--train-steps", "1"]),
           ("merge", ["dataset", "merge", "--copy", "D", "shards/shard-00000-of-00002", "shards/shard-00001-of-00002"])]


def cases_rundir():
    cat = "rundir"
    for wname, argv in WRITERS:
        for fname, f in FOREIGN:
            # an empty directory apart from the lock is fine to take; dataset merge takes no
            # directory of its own (docs/FILES.md): it may write beside other files, keeping them
            expect = "any" if fname == "lock-only" or wname == "merge" else "fail"
            cli(cat, f"{wname}-{fname}", argv, expect=expect, setup=[fx("sp", "shards"), f], timeout=30,
                outputs=["D/*"] if expect == "any" else [])
    # directories of another kind
    for wname, argv in WRITERS:
        for other in ("sp", "bc", "ppo", "ex", "saved"):
            if (wname, other) in (("selfplay", "sp"), ("train-bc", "bc"), ("train-ppo", "ppo"), ("train-exit", "ex"),
                                  ("eval-save", "saved")):
                continue
            cli(cat, f"{wname}-onto-{other}", argv, setup=[fx("sp", "shards"), fx_as(other, "D")], timeout=30,
                expect="any" if wname == "merge" and other != "sp" else "fail")
    # resume refusing a changed setting; the data is kept
    sp = ["selfplay", "--agents", "random", "--games", "2", "--out", "sp", "-q"]
    cli(cat, "selfplay-rerun-without-resume", sp, setup=fx("sp"), mention="resume")
    for name, extra in [("seed", ["--seed", "2"]), ("agents", ["--agents", "valuer"]), ("games", ["--games", "3"]),
                        ("format", ["--format", "parquet"]), ("players", ["--players", "3"]),
                        ("reward", ["--reward", "rank"]), ("hidden-cash", ["--hide-opponent-cash"]),
                        ("compression", ["--compression", "lz4"]), ("shard-games", ["--shard-games", "1"])]:
        cli(cat, f"selfplay-resume-changed-{name}", sp + ["--resume"] + extra, setup=fx("sp"))
    cli(cat, "selfplay-resume-same", sp + ["--resume"], expect="ok", setup=fx("sp"), outputs=["sp/.container*"])
    cli(cat, "selfplay-resume-altered-shard", sp + ["--resume"], setup=[fx("sp"), edit("sp/steps-00000.arrow",
                                                                                       lambda b: b[:-10] + b"0123456789")])
    cli(cat, "selfplay-resume-forged-manifest", sp + ["--resume"],
        setup=[fx("sp"), edit("sp/manifest.json", lambda b: b.replace(b'"seed": 1', b'"seed": 7', 1)
                              .replace(b'"seed":1', b'"seed":7', 1))])
    cli(cat, "selfplay-resume-deleted-shard", sp + ["--resume"], expect="ok",
        setup=[fx("sp"), rm("sp/steps-00000.arrow"), rm("sp/games-00000.arrow")], outputs=["sp/*"])
    cli(cat, "selfplay-locked", sp + ["--resume"], setup=fx("sp"), hooks=[Flock("sp/.container.lock")],
        mention="another run")
    bc = ["train", "bc", "--data", "sp", "--out", "bc", "--steps", "2", "--log-every", "1", "--checkpoint-every", "1",
          "--width", "8", "--depth", "1", "--batch", "16"]
    for name, extra in [("width", ["--width", "16"]), ("lr", ["--lr", "0.01"]), ("batch", ["--batch", "32"]),
                        ("seed", ["--seed", "3"]), ("checkpoint-every", ["--checkpoint-every", "2"]),
                        ("norm", ["--norm", "none"])]:
        cli(cat, f"train-bc-resume-changed-{name}", bc + extra, setup=fx("sp", "bc"))
    cli(cat, "train-bc-resume-other-data", bc, setup=[fx("bc"), fx_as("shards2/shard-00000-of-00002", "sp")])
    cli(cat, "train-bc-resume-more-steps", bc + ["--steps", "3"], expect="ok", setup=fx("sp", "bc"), outputs=["bc/*"])
    cli(cat, "train-bc-truncated-checkpoint", bc, setup=[fx("sp", "bc"), edit("bc/checkpoint.ckpt", lambda b: b[:100])])
    cli(cat, "train-bc-locked", bc, setup=fx("sp", "bc"), hooks=[Flock("bc/.container.lock")], mention="another run")
    cli(cat, "export-truncated-checkpoint", ["export", "--run", "bc", "--out", "o.bot"],
        setup=[fx("bc"), edit("bc/checkpoint.ckpt", lambda b: b[:len(b) // 2])])
    cli(cat, "export-run-is-dataset", ["export", "--run", "sp", "--out", "o.bot"], setup=fx("sp"))
    cli(cat, "export-run-missing", ["export", "--run", "nosuch", "--out", "o.bot"])
    cli(cat, "export-run-user-dir", ["export", "--run", "mine", "--out", "o.bot"], setup=wr("mine/a.txt", "a"))
    ppo = with_out(PPT, "ppo") + ["--minibatch", "8", "--pool-every", "0"]
    for name, extra in [("players", ["--players", "3"]), ("lr", ["--lr", "0.1"]), ("opponents", ["--opponents", "valuer"]),
                        ("width", ["--width", "16"]), ("max-steps", ["--max-steps", "5"]),
                        ("hide-opponent-cash", ["--hide-opponent-cash"])]:
        cli(cat, f"train-ppo-resume-changed-{name}", ppo + extra, setup=fx("ppo"))
    cli(cat, "train-ppo-init-other-players", PPT + ["--init", "x.bot", "--players", "3"],
        setup=fx("x.bot"))
    cli(cat, "demo-onto-user-train-dir", ["demo", "--out", "D", "--games", "2", "--eval-games", "1", "--train-steps", "1"],
        setup=[wr("D/train/model.py", "mine"), wr("D/.container-run", "")])
