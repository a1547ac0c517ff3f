"""Category "train-exit": train exit runs stopped, resumed with changed settings, and given
damaged checkpoints."""

from .cases import cli, edit, fx, rm, wr
from .hooks import Flock
from .fixtures import EXIT, EXT, EXT_NOSIMS, botfiles, with_out


def cases_exit():
    cat = "train-exit"
    cli(cat, "out-with-comma", with_out(EXT, "a,b"), mention="comma")
    for name, flag, v in [("expert-unknown", "--expert", "nosuch"), ("expert-not-ismcts", "--expert", "valuer"),
                          ("expert-bad-sims", "--expert", "ismcts:sims=abc"), ("expert-value-no-net", "--expert", "ismcts:value=value-4p"),
                          ("expert-value-unknown", "--expert", "ismcts:net=default,value=nothere"),
                          ("expert-negative", "--expert", "ismcts:sims=-5"),
                          ("rollout-unknown", "--rollout", "nosuch"), ("rollout-bot-file", "--rollout", "x.bot"),
                          ("gate-opponent-unknown", "--gate-opponent", "nosuch"),
                          ("gate-opponent-bad", "--gate-opponent", "ismcts:sims=-1"),
                          ("gate-opponent-garbage-bot", "--gate-opponent", "garbage.bot"),
                          ("init-missing", "--init", "missing.bot"), ("init-dataset", "--init", "sp"),
                          ("init-user-dir", "--init", "mine"), ("init-other-players", "--init", "x.bot"),
                          ("rules-bad", "--rules", "nosuch"), ("modules-bad", "--modules", "nosuch"),
                          ("length-bad", "--length", "forever"), ("norm-bad", "--norm", "batch"),
                          ("workers-zero", "--workers", "0"), ("window-zero", "--window", "0"),
                          ("batch-zero", "--batch", "0"), ("shard-games-zero", "--shard-games", "0"),
                          ("gate-games-zero", "--gate-games", "0"), ("lr-zero", "--lr", "0")]:
        extra = [flag, v] + (["--players", "3"] if name == "init-other-players" else [])
        if name.startswith("gate-opponent"):
            extra += ["--gate-every", "1", "--gate-games", "3"]
        base = EXT_NOSIMS if name.startswith("expert") else EXT  # --expert sets its own simulations
        cli(cat, name, base + extra, setup=[botfiles, fx("sp"), wr("mine/a.txt", "a")])
    ex = EXIT + ["--out", "ex"]  # the fixture's own command
    for name, extra in [("sims", ["--sims", "3"]), ("width", ["--width", "16"]), ("seed", ["--seed", "5"]),
                        ("games", ["--games", "2"]), ("players", ["--players", "3"]),
                        ("rollout", ["--rollout", "valuer"]), ("window", ["--window", "2"])]:
        # the refusal names the setting and the flags that may change, as they are spelt
        cli(cat, f"resume-changed-{name}", ex + extra, setup=fx("ex"),
            mention=["--keep-buffer"] + (["--" + name] if name != "players" else []))
    cli(cat, "resume-changed-expert", [a for a in ex if a not in ("--sims", "2")] + ["--expert", "ismcts:sims=2"],
        setup=fx("ex"))
    cli(cat, "resume-more-generations", ex + ["--generations", "2"], expect="ok", setup=fx("ex"), outputs=["ex/*"],
        timeout=60)
    # a user's file in a buffer generation that leaves the window: refused, or the generation kept
    cli(cat, "resume-keeps-user-file-in-buffer", ex + ["--generations", "6"], expect="any",
        setup=[fx("ex"), wr("ex/buffer/gen-000001/notes.txt", "mine"), wr("ex/notes.txt", "mine")],
        outputs=["ex/*", "!ex/notes.txt", "!ex/buffer/gen-000001/notes.txt"], timeout=90)
    cli(cat, "resume-truncated-checkpoint", ex + ["--generations", "2"], setup=[fx("ex"), edit(
        "ex/checkpoint.ckpt", lambda b: b[:len(b) // 3])])
    # run.json is the run's own summary (the settings live in the checkpoint): it may be rewritten
    cli(cat, "resume-garbage-run-json", ex + ["--generations", "2"], expect="any",
        setup=[fx("ex"), wr("ex/run.json", "{garbage")], outputs=["ex/*"], timeout=60)
    cli(cat, "resume-missing-net", ex + ["--generations", "2"], expect="any", setup=[fx("ex"), rm("ex/nets/gen-000001.bot")],
        outputs=["ex/*"], timeout=60)
    cli(cat, "resume-garbage-net", ex + ["--generations", "2"], setup=[fx("ex"), wr("ex/nets/gen-000001.bot", "garbage")],
        outputs=["ex/run.json"])
    # a file named like a buffer shard is the run's by its name (docs/FILES.md: files are removed
    # by the names the kind declares), so pruning the generation may remove it
    cli(cat, "resume-foreign-buffer-shard", ex + ["--generations", "6"], expect="any",
        setup=[fx("ex"), wr("ex/buffer/gen-000001/steps-00099.arrow", "mine")], outputs=["ex/*"], timeout=90)
    cli(cat, "resume-locked", ex + ["--generations", "2"], setup=fx("ex"), hooks=[Flock("ex/.container.lock")],
        mention="another run")
    cli(cat, "out-is-file", with_out(EXT, "notes.txt"), setup=wr("notes.txt", "mine"))
    cli(cat, "good-fresh", EXT, expect="ok", timeout=60)
