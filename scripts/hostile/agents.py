"""Category "agents": bad agent lists and bot specs."""

from .cases import cli, fx
from .fixtures import PPT, botfiles


AGENT_SPECS = [("empty", ""), ("comma", ","), ("trailing-comma", "random,"), ("leading-comma", ",random"),
               ("unknown", "nosuchbot"), ("one-unknown", "random,nosuchbot"), ("capitals", "RANDOM"),
               ("space", "random, valuer"), ("temp-negative", "default@-1"), ("temp-text", "default@abc"),
               ("temp-nan", "default@nan"), ("temp-inf", "default@inf"), ("temp-empty", "default@"),
               ("temp-twice", "default@1@2"), ("temp-on-scripted", "valuer@0.5"), ("ismcts-negative", "ismcts:sims=-1"),
               ("ismcts-text", "ismcts:sims=abc"), ("ismcts-unknown-key", "ismcts:nosuch=1"),
               ("ismcts-huge", "ismcts:sims=99999999999"), ("ismcts-empty", "ismcts:"), ("ismcts-no-value", "ismcts:sims"),
               ("ismcts-bad-rollout", "ismcts:rollout=nosuch"), ("ismcts-bad-net", "ismcts:net=missing.bot"),
               ("ismcts-key-twice", "ismcts:sims=2:sims=3"), ("missing-bot", "missing.bot"), ("dir-bot", "dir.bot"),
               ("garbage-bot", "garbage.bot"), ("trunc-bot", "trunc.bot"), ("dup-header-bot", "dup.bot"),
               ("dev-null", "/dev/null"), ("long-name", "r" * 5000), ("control-char", "rand\x1bom"),
               ("newline", "random\nvaluer"), ("unicode", "vålüer"), ("six-agents", ",".join(["random"] * 6))]


def cases_agents():
    cat = "agents"
    # a short turn limit keeps a spec that turns out valid (ismcts at its default budget) quick
    lenient = ("trailing-comma", "leading-comma", "space", "ismcts-empty")  # empty items and spaces are dropped
    for cmd, base in (("selfplay", ["selfplay", "--games", "2", "--turn-limit", "3", "--out", "o", "-q"]),
                      ("eval", ["eval", "--games", "2", "--turn-limit", "3"]),
                      ("rate", ["rate", "--games", "2", "--turn-limit", "3"])):
        for name, spec in AGENT_SPECS:
            if cmd == "rate" and name == "six-agents":
                spec = ",".join(["random"] * 17)
            cli(cat, f"{cmd}-{name}", base + ["--agents", spec], expect="any" if name in lenient else "fail",
                setup=botfiles, timeout=20)
        cli(cat, f"{cmd}-good-bot", base + ["--agents", "x.bot,random"], setup=botfiles, expect="ok")
    for name, spec in [("unknown", "nosuchbot"), ("bad-count", "random,random,random,random,random"),
                       ("garbage-bot", "garbage.bot"), ("trunc-bot", "trunc.bot"), ("empty", ""),
                       ("temp-text", "default@abc")]:
        cli(cat, f"play-opponents-{name}", ["play", "--players", "3", "--opponents", spec], setup=botfiles)
        cli(cat, f"ppo-opponents-{name}", PPT + ["--opponents", spec], setup=[botfiles, fx("sp")],
            expect="any" if name == "bad-count" else "fail")  # a pool of five is fine
        cli(cat, f"bc-teachers-{name}", ["train", "bc", "--teachers", spec, "--games", "1", "--out", "o",
                                         "--steps", "1"], setup=botfiles)
    cli(cat, "ppo-eval-opponent-unknown", PPT + ["--eval-opponent", "nosuch", "--eval-every", "1"], setup=botfiles)
    # a bot file that cannot be read, or is made for other games, is refused before the run directory is made
    cli(cat, "ppo-eval-opponent-garbage-bot", PPT + ["--eval-opponent", "garbage.bot", "--eval-every", "1"],
        setup=botfiles)
    cli(cat, "ppo-opponents-other-players-bot", PPT + ["--opponents", "x.bot", "--players", "3"], setup=botfiles)
    cli(cat, "bc-record-not-a-teacher", ["train", "bc", "--teachers", "random", "--record", "valuer", "--games", "1",
                                         "--out", "o", "--steps", "1"])
