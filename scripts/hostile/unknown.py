"""Category "unknown": unknown commands and flags, stray and missing arguments, flags that
exclude each other."""

import re

from .cases import cli, fx


COMMAND_PATHS = [["selfplay"], ["eval"], ["rate"], ["bench"], ["spec"], ["bots"], ["dataset"], ["dataset", "stats"],
                 ["dataset", "head"], ["dataset", "merge"], ["train"], ["train", "bc"], ["train", "ppo"],
                 ["train", "exit"], ["export"], ["replay"], ["legal"], ["score"], ["apply"], ["serve"], ["play"],
                 ["demo"], ["completion"]]


def cases_unknown():
    cat = "unknown"
    for i, name in enumerate(["evall", "selfpaly", "Eval", "EVAL", "x" * 300, "évaluer", "eval\x1b[31m", "-x",
                              "--nosuch", "---", "train bcc", "train BC", "dataset mrege", "dataset Stats",
                              "help nosuch", "help train nosuch", "help eval extra", "completion nosuch",
                              "completion bash extra"]):
        argv = name.split(" ") if " " in name and "\x1b" not in name else [name]
        slug = re.sub(r"[^a-zA-Z0-9]+", "-", name).strip("-")[:24] or "dashes"
        cli(cat, f"command-{slug}", argv, mention=None)
    for path in COMMAND_PATHS:
        p = "-".join(path)
        cli(cat, f"{p}-long-flag", path + ["--no-such-flag"], mention="no-such-flag")
        cli(cat, f"{p}-short-flag", path + ["-Z"], mention="Z")
        cli(cat, f"{p}-flag-typo-value", path + ["--gmaes=2"], mention="gmaes")
    for path in [["selfplay", "--agents", "random", "--games", "2", "--out", "o", "-q"],
                 ["eval", "--agents", "random", "--games", "2"], ["rate", "--agents", "random", "--games", "2"],
                 ["bench", "--games", "2"], ["spec"], ["bots"], ["serve", "--addr", "127.0.0.1:0"],
                 ["demo", "--out", "o", "--games", "2", "--eval-games", "1", "--train-steps", "1"],
                 ["play", "--players", "3"], ["export", "--run", "bc", "--out", "o.bot"],
                 ["train", "bc", "--data", "sp", "--out", "o"], ["train", "ppo", "--out", "o"],
                 ["train", "exit", "--out", "o"]]:
        cli(cat, f"{path[0]}{'-' + path[1] if path[0] == 'train' else ''}-stray-argument", path + ["stray"],
            setup=fx("sp", "bc"), timeout=20)
    for argv, name in [(["legal", "a.json", "b.json"], "legal-two-files"), (["score", "a", "b"], "score-two-files"),
                       (["replay", "a", "b"], "replay-two-files"), (["dataset", "stats", "a", "b"], "stats-two-dirs"),
                       (["dataset", "head", "a", "b"], "head-two-dirs"), (["legal"], "legal-no-file"),
                       (["score"], "score-no-file"), (["replay"], "replay-no-file"), (["apply"], "apply-nothing"),
                       (["apply", "opening.json"], "apply-no-move"), (["dataset", "stats"], "stats-no-dir"),
                       (["dataset", "head"], "head-no-dir"), (["dataset", "merge"], "merge-nothing"),
                       (["dataset", "merge", "out"], "merge-no-parts"), (["selfplay", "--out", "o"], "selfplay-no-agents"),
                       (["selfplay", "--agents", "random"], "selfplay-no-out"), (["eval"], "eval-no-agents"),
                       (["rate"], "rate-no-agents"), (["export"], "export-nothing"),
                       (["export", "--run", "bc"], "export-no-out"), (["export", "--out", "o.bot"], "export-no-run"),
                       (["train", "bc"], "train-bc-nothing"), (["train", "bc", "--out", "o"], "train-bc-no-data"),
                       (["train", "ppo"], "train-ppo-no-out"), (["train", "exit"], "train-exit-no-out"),
                       (["eval", "--agents", "random", "--bots", "random"], "eval-agents-and-bots"),
                       (["rate", "--agents", "random", "--bots", "random"], "rate-agents-and-bots"),
                       (["selfplay", "--agents", "random", "--bots", "random", "--out", "o"], "selfplay-agents-and-bots"),
                       (["export", "--run", "bc", "--upgrade", "x.bot", "--out", "o.bot"], "export-run-and-upgrade"),
                       (["train", "bc", "--data", "sp", "--teachers", "random", "--out", "o"], "bc-data-and-teachers"),
                       (["train", "bc", "--data", "sp", "--record", "random", "--out", "o"], "bc-record-with-data"),
                       (["eval", "--merge"], "eval-merge-nothing"), (["rate", "--merge"], "rate-merge-nothing"),
                       (["eval", "--upgrade-results", "--agents", "random"], "upgrade-without-merge"),
                       (["eval", "--agents", "random", "--games", "2", "--force"], "force-without-csv"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--format", "csv"], "bad-format"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--compression", "brotli"], "bad-compression"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--compression", "snappy"], "snappy-for-arrow"),
                       (["selfplay", "--agents", "random", "--games", "2", "--out", "o", "--reward", "money"], "bad-reward"),
                       (["eval", "--agents", "random", "--games", "2", "--rules", "modern"], "bad-rules"),
                       (["eval", "--agents", "random", "--games", "2", "--length", "long"], "bad-length"),
                       (["eval", "--agents", "random", "--games", "2", "--modules", "trucks,nosuch"], "bad-module"),
                       (["eval", "--agents", "random", "--games", "2", "--modules", "trucks,trucks"], "module-twice"),
                       (["eval", "--agents", "random", "--games", "2", "--schedule", "random"], "bad-schedule"),
                       (["train", "bc", "--data", "sp", "--out", "o", "--norm", "batch"], "bad-norm"),
                       (["spec", "--players", "4", "--rules", ""], "empty-rules")]:
        # harmless: --force alone, a module named twice, --rules "" (the default)
        expect = "any" if name in ("force-without-csv", "module-twice", "empty-rules") else "fail"
        # the line names the command once, and rate as rate (it shares eval's code)
        mention = {"eval-agents-and-bots": "container: eval: give", "rate-agents-and-bots": "container: rate: give",
                   "selfplay-agents-and-bots": "container: selfplay: give", "rate-no-agents": "container: rate: ",
                   "rate-merge-nothing": "container: rate: "}.get(name)
        cli(cat, name, argv, expect=expect, setup=fx("sp", "bc", "x.bot", "opening.json"), timeout=20, mention=mention)
    cli(cat, "completion-bash", ["completion", "bash"], expect="ok")
    cli(cat, "version", ["--version"], expect="ok")
