"""Category "shard": bad --shard values for selfplay, eval and rate."""

from .cases import cli
from .fixtures import EV, RT


def cases_shard():
    cat = "shard"
    forms = ["0/0", "1/0", "2/2", "3/2", "-1/2", "0/-2", "a/b", "0/a", "a/2", "1", "/", "0/", "/2", "", "0/2/3",
             "0/1000001", "0/99999999999999999999", "99999999999999999999/2", "auto/2", "auto/0", "auto/x",
             "auto/", " 0/2", "0/2 ", "0x0/2", "1/2junk", "0/2\n"]
    envs = [("job-out-of-range", {"JOB_COMPLETION_INDEX": "5"}), ("job-and-slurm-differ",
            {"JOB_COMPLETION_INDEX": "0", "SLURM_ARRAY_TASK_ID": "1"}), ("job-garbage", {"JOB_COMPLETION_INDEX": "abc"}),
            ("slurm-negative", {"SLURM_ARRAY_TASK_ID": "-1"}), ("job-empty", {"JOB_COMPLETION_INDEX": ""})]
    for cmd, base in (("selfplay", ["selfplay", "--agents", "random", "--games", "4", "--out", "o", "-q"]),
                      ("eval", ["eval", "--agents", "random", "--games", "4", "--out", "o"]),
                      ("rate", ["rate", "--agents", "random", "--games", "4", "--out", "o"])):
        for f in forms:
            name = f.replace("/", "of").replace(" ", "_").replace("\n", "NL") or "empty"
            # "" is the default (no sharding); white space around I/N is trimmed
            expect = "any" if f.strip() in ("", "0/2") else "fail"
            cli(cat, f"{cmd}-{name}", base + [f"--shard={f}"], expect=expect, mention="shard")
        for name, env in envs:
            cli(cat, f"{cmd}-auto-{name}", base + ["--shard=auto/2"], env=env, mention="shard")
        cli(cat, f"{cmd}-1of2-ok", base + ["--shard=1/2"], expect="ok")
        cli(cat, f"{cmd}-auto-slurm-ok", base + ["--shard=auto/2"], env={"SLURM_ARRAY_TASK_ID": "1"}, expect="ok")
    cli(cat, "eval-shard-without-out", EV + ["--shard", "0/2"], mention="--out")
    cli(cat, "rate-shard-without-out", RT + ["--shard", "0/2"], mention="--out")
    cli(cat, "selfplay-shard-more-parts-than-games", ["selfplay", "--agents", "random", "--games", "2", "--out", "o",
                                                      "-q", "--shard", "5/8"], expect="any")
