"""Self-play datasets open in Python's data tools (pyarrow, Polars, DuckDB) and give the same
counts as `container dataset stats --json`: games, steps, wins by seat, wins and seat-games by
agent, and actions by phase.

Four datasets of the same plan (12 games, seed 7, 4 games a shard, agents
random,shipper,manufacturer,random, so wins fall on two seats held by two different agents):
one Arrow IPC run and one Parquet run, and each format again played as 3 parts
(`selfplay --shard i/3`) joined by `container dataset merge`. A merged dataset is
manifest-only: its manifest names the parts' files (`shard-00000-of-00003/steps-00000.parquet`),
so every reader here takes its file list from manifest.json, as docs/DATASETS.md tells users to.
"""
import json
import os
from collections import Counter

import pytest

from conftest import dataset_stats, require, selfplay, sharded_selfplay

FORMATS = ("arrow", "parquet")
LAYOUTS = ("one-run", "merged")
READERS = ("pyarrow", "polars", "duckdb")


@pytest.fixture(scope="module")
def datasets(container_bin, tmp_path_factory):
    base = tmp_path_factory.mktemp("datasets")
    out = {}
    for fmt in FORMATS:
        out[fmt, "one-run"] = selfplay(container_bin, base / f"{fmt}-one-run", fmt=fmt)
        out[fmt, "merged"] = sharded_selfplay(container_bin, base / f"{fmt}-merged", fmt=fmt)
    return out


@pytest.fixture(scope="module")
def stats(container_bin, datasets):
    return {k: dataset_stats(container_bin, d) for k, d in datasets.items()}


def manifest_files(path, table):
    """The recipe of docs/DATASETS.md: the files of `table` ("steps" or "games") that the
    manifest lists, in shard order (a merged dataset's names include the part's directory)."""
    with open(os.path.join(path, "manifest.json")) as f:
        m = json.load(f)
    return m, [os.path.join(path, s[table + "_file"]) for s in m["shards"]]


# --- one function per reader: (steps, games) -> the counters dataset stats reports --------------

def counts_pyarrow(path):
    pa = require("pyarrow")
    pc = require("pyarrow.compute")
    require("pyarrow.parquet")
    import pyarrow.ipc
    import pyarrow.parquet as pq

    m, steps_files = manifest_files(path, "steps")
    _, games_files = manifest_files(path, "games")

    def read(files, columns):
        if m["format"] == "arrow":
            return pa.concat_tables(pyarrow.ipc.open_file(f).read_all().select(columns) for f in files)
        return pq.read_table(files, columns=columns)

    steps = read(steps_files, ["phase", "action"])
    games = read(games_files, ["agents", "winners"])
    assert pa.types.is_dictionary(steps.schema.field("phase").type)
    names = m["meta"]["action_names"]
    by_phase = pa.table({"phase": steps["phase"].cast(pa.string()), "action": steps["action"]}) \
        .group_by(["phase", "action"]).aggregate([("action", "count")])
    actions = {}
    for ph, a, n in zip(*(by_phase[c].to_pylist() for c in ("phase", "action", "action_count"))):
        actions.setdefault(ph, {})[names[a]] = n
    winners = games["winners"].combine_chunks()
    agents = games["agents"].combine_chunks()
    seats = agents.type.list_size
    win_seats = pc.list_flatten(winners)
    # agents of the winners: the flattened agents at game*seats + seat
    idx = pc.add(pc.multiply(pc.list_parent_indices(winners), seats), pc.cast(win_seats, pa.int64()))
    win_agents = pc.take(pc.list_flatten(agents), idx)
    return {
        "games": games.num_rows,
        "steps": steps.num_rows,
        "wins_by_seat": Counter(win_seats.to_pylist()),
        "agent_wins": Counter(win_agents.to_pylist()),
        "agent_seats": Counter(pc.list_flatten(agents).to_pylist()),
        "actions_by_phase": actions,
    }


def counts_polars(path):
    pl = require("polars")
    m, steps_files = manifest_files(path, "steps")
    _, games_files = manifest_files(path, "games")
    scan = pl.scan_ipc if m["format"] == "arrow" else pl.scan_parquet
    steps = scan(steps_files).select("phase", "action")
    games = scan(games_files).select("agents", "winners").collect()
    names = pl.Series(m["meta"]["action_names"])
    by_phase = (steps.group_by(pl.col("phase").cast(pl.String), "action").agg(pl.len().alias("n"))
                .collect())
    actions = {}
    for ph, a, n in by_phase.iter_rows():
        actions.setdefault(ph, {})[names[a]] = n
    won = games.explode("winners").drop_nulls("winners")
    won = won.with_columns(pl.col("agents").arr.get(pl.col("winners")).alias("agent"))
    return {
        "games": games.height,
        "steps": steps.select(pl.len()).collect().item(),
        "wins_by_seat": Counter(dict(won.group_by("winners").len().iter_rows())),
        "agent_wins": Counter(dict(won.group_by("agent").len().iter_rows())),
        "agent_seats": Counter(games.select(pl.col("agents").arr.explode())["agents"].to_list()),
        "actions_by_phase": actions,
    }


def counts_duckdb(path):
    duckdb = require("duckdb")
    m, steps_files = manifest_files(path, "steps")
    _, games_files = manifest_files(path, "games")
    con = duckdb.connect()
    if m["format"] == "parquet":
        con.read_parquet(steps_files).create_view("steps")
        con.read_parquet(games_files).create_view("games")
    else:
        # DuckDB has no Arrow IPC file reader built in: hand it pyarrow tables (zero-copy scan).
        pa = require("pyarrow")
        import pyarrow.ipc
        con.register("steps", pa.concat_tables(pyarrow.ipc.open_file(f).read_all() for f in steps_files))
        con.register("games", pa.concat_tables(pyarrow.ipc.open_file(f).read_all() for f in games_files))
    names = m["meta"]["action_names"]
    actions = {}
    for ph, a, n in con.sql("SELECT phase::VARCHAR, action, count(*) FROM steps GROUP BY ALL").fetchall():
        actions.setdefault(ph, {})[names[a]] = n
    won = "(SELECT agents, unnest(winners) AS w FROM games)"
    return {
        "games": con.sql("SELECT count(*) FROM games").fetchall()[0][0],
        "steps": con.sql("SELECT count(*) FROM steps").fetchall()[0][0],
        "wins_by_seat": Counter(dict(con.sql(f"SELECT w, count(*) FROM {won} GROUP BY w").fetchall())),
        # DuckDB lists are 1-based
        "agent_wins": Counter(dict(con.sql(f"SELECT agents[w + 1], count(*) FROM {won} GROUP BY ALL").fetchall())),
        "agent_seats": Counter(dict(con.sql(
            "SELECT a, count(*) FROM (SELECT unnest(agents) AS a FROM games) GROUP BY a").fetchall())),
        "actions_by_phase": actions,
    }


COUNTERS = {"pyarrow": counts_pyarrow, "polars": counts_polars, "duckdb": counts_duckdb}


def expected(st):
    return {
        "games": st["games"],
        "steps": st["steps"],
        "wins_by_seat": Counter({s: n for s, n in enumerate(st["wins_by_seat"]) if n}),
        "agent_wins": Counter({a: v["wins"] for a, v in st["by_agent"].items() if v["wins"]}),
        "agent_seats": Counter({a: v["seats"] for a, v in st["by_agent"].items()}),
        "actions_by_phase": st["actions_by_phase"],
    }


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_reader_agrees_with_dataset_stats(fmt, layout, reader, datasets, stats):
    got = COUNTERS[reader](str(datasets[fmt, layout]))
    want = expected(stats[fmt, layout])
    for key in want:
        assert got[key] == want[key], f"{reader} on {fmt} {layout}: {key} differs from container dataset stats"


def test_plan_is_informative_and_identical_across_formats_and_layouts(stats):
    """The comparisons above can catch a seat/agent mix-up only if wins fall on several seats
    held by different agents; and the four datasets hold the same games, so their stats agree."""
    base = expected(stats["arrow", "one-run"])
    assert base["games"] == 12 and base["steps"] > 12
    assert len(base["wins_by_seat"]) >= 2 and len(base["agent_wins"]) >= 2
    assert len(base["actions_by_phase"]) >= 5
    for key, st in stats.items():
        assert expected(st) == base, f"{key} differs from the one Arrow run"


def test_merged_dataset_is_read_through_its_manifest(datasets):
    """A merged dataset keeps its files in the part directories: a glob in the top directory
    finds nothing, the manifest's list finds every shard."""
    import glob
    d = str(datasets["parquet", "merged"])
    assert glob.glob(os.path.join(d, "steps-*.parquet")) == []
    m, files = manifest_files(d, "steps")
    assert len(files) == 3 and all(os.path.isfile(f) for f in files)
    assert all(os.sep in os.path.relpath(f, d) for f in files)
