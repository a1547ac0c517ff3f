"""Category "paths": file names with control characters, bidirectional overrides, spaces and
leading dashes, named back escaped as Go's strconv.Quote writes them."""

from .cases import CONTROL, OPENING, cli, fx, wr
from .fixtures import BCT, with_out


def go_escape(s):
    """s with its control characters and bidirectional controls escaped as Go's strconv.Quote
    writes them (the rest as it is): what an error line shows of a file name."""
    named = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    out = []
    for ch in s:
        if ch in named:
            out.append(named[ch])
        elif CONTROL.match(ch) or ch == "\t":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x80 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def cases_paths():
    cat = "paths"
    long_comp = "x" * 300
    deep = "/".join(["d"] * 2500)
    cli(cat, "legal-non-utf8-missing", ["legal", b"\xff\xfe.json"])
    cli(cat, "legal-non-utf8-existing", ["legal", b"\xff\xfe.json"], expect="ok",
        setup=wr(b"\xff\xfe.json", OPENING))
    cli(cat, "selfplay-out-non-utf8", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", b"sp\xff"],
        expect="ok")
    cli(cat, "eval-csv-non-utf8", ["eval", "--agents", "random", "--games", "2", "--csv", b"r\xff.csv"], expect="ok")
    cli(cat, "export-out-non-utf8", ["export", "--run", "bc", "--out", b"b\xff.bot"], expect="ok", setup=fx("bc"))
    cli(cat, "eval-save-non-utf8", ["eval", "--agents", "random", "--games", "2", "--save", b"s\xff"], expect="ok")
    cli(cat, "merge-non-utf8-part", ["dataset", "merge", "shards", b"shards/\xff"], setup=fx("shards"))
    cli(cat, "stats-non-utf8-missing", ["dataset", "stats", b"\xff"])
    for i, weird in zip(["newline", "carriage-return", "escape", "tab", "bell", "delete", "bidi-override", "quote"],
                        ["a\nb.json", "a\rb.json", "\x1b[31mred.json", "tab\there.json", "bell\x07.json",
                         "del\x7f.json", "\u202eevil.json", "quote\".json"]):
        # the error line names the file with its control characters escaped as Go's strconv.Quote
        # writes them (a newline as \n, not as the "; " between two errors)
        shown = go_escape(weird) if go_escape(weird) != weird else None
        cli(cat, f"legal-weird-missing-{i}", ["legal", weird], mention=shown)
        cli(cat, f"score-weird-garbage-{i}", ["score", weird], setup=wr(weird, "{garbage"), mention=shown)
        cli(cat, f"selfplay-weird-agent-{i}", ["selfplay", "--agents", weird, "--games", "2", "--out", "o", "-q"],
            mention=shown)
        cli(cat, f"stats-weird-missing-{i}", ["dataset", "stats", weird], mention=shown)
        cli(cat, f"eval-merge-weird-missing-{i}", ["eval", "--merge", weird], mention=shown)
        cli(cat, f"export-run-weird-missing-{i}", ["export", "--run", weird, "--out", "o.bot"], mention=shown)
        cli(cat, f"train-bc-data-weird-missing-{i}", ["train", "bc", "--data", weird, "--out", "o"], mention=shown)
    cli(cat, "legal-long-name", ["legal", long_comp + ".json"])
    cli(cat, "legal-very-long-name", ["legal", "y" * 20000])
    cli(cat, "legal-deep-path", ["legal", deep + ".json"])
    cli(cat, "selfplay-long-out", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", long_comp])
    cli(cat, "selfplay-deep-out", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", deep])
    cli(cat, "eval-csv-long", ["eval", "--agents", "random", "--games", "2", "--csv", long_comp + ".csv"])
    cli(cat, "eval-save-long", ["eval", "--agents", "random", "--games", "2", "--save", long_comp])
    cli(cat, "eval-out-long", ["eval", "--agents", "random", "--games", "2", "--shard", "0/1", "--out", long_comp])
    cli(cat, "export-out-long", ["export", "--run", "bc", "--out", long_comp + ".bot"], setup=fx("bc"))
    cli(cat, "train-bc-out-long", with_out(BCT, long_comp), setup=fx("sp"))
    cli(cat, "stats-long", ["dataset", "stats", long_comp])
    cli(cat, "merge-long-out", ["dataset", "merge", long_comp, "shards/shard-00000-of-00002"], setup=fx("shards"))
    cli(cat, "eval-merge-long", ["eval", "--merge", long_comp])
    cli(cat, "bot-long-name", ["eval", "--agents", long_comp + ".bot", "--games", "2"])
    cli(cat, "export-out-dot-bot-only", ["export", "--run", "bc", "--out", ".bot"], setup=fx("bc"), expect="any",
        outputs=[".bot"])
    cli(cat, "export-out-newline", ["export", "--run", "bc", "--out", "a\nb.bot"], setup=fx("bc"), expect="any",
        outputs=["a\nb.bot"])
    cli(cat, "selfplay-out-with-comma", ["selfplay", "--agents", "random", "--games", "2", "-q", "--out", "a,b"],
        expect="any")
