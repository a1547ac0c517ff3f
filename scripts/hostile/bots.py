"""Category "bot-files": damaged bot files given to every command that loads one."""

from .cases import cli, fx
from .fixtures import BAD_BOTS, EXT, PPT, botfiles


def cases_bots():
    cat = "bot-files"
    for b in BAD_BOTS:
        n = b.replace(".bot", "")
        cli(cat, f"eval-{n}", ["eval", "--agents", f"{b},random", "--games", "2"], setup=botfiles, mention=b)
        cli(cat, f"selfplay-{n}", ["selfplay", "--agents", f"{b},random", "--games", "2", "--out", "o", "-q"],
            setup=botfiles, mention=b)
        cli(cat, f"export-run-{n}", ["export", "--run", b, "--out", "o.bot"], setup=botfiles, mention=b)
        cli(cat, f"export-upgrade-{n}", ["export", "--upgrade", b, "--out", "o.bot"], setup=botfiles, mention=b)
        cli(cat, f"bc-init-{n}", ["train", "bc", "--init", b, "--data", "sp", "--out", "o", "--steps", "1"],
            setup=[botfiles, fx("sp")], mention=b)
        cli(cat, f"ppo-init-{n}", PPT + ["--init", b], setup=botfiles, mention=b)
        cli(cat, f"exit-init-{n}", EXT + ["--init", b], setup=botfiles, mention=b)
        cli(cat, f"play-{n}", ["play", "--players", "4", "--opponents", b], setup=botfiles, mention=b)
    cli(cat, "eval-good", ["eval", "--agents", "x.bot,random", "--games", "2"], expect="ok", setup=botfiles)
    cli(cat, "export-relabel-good", ["export", "--run", "x.bot", "--out", "y.bot"], expect="ok", setup=botfiles)
    cli(cat, "export-onto-itself", ["export", "--run", "x.bot", "--out", "x.bot"], expect="any", setup=botfiles,
        outputs=["x.bot"])
    cli(cat, "export-onto-bad-bot", ["export", "--run", "x.bot", "--out", "garbage.bot"], setup=botfiles,
        mention="garbage.bot")
