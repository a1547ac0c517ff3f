"""Every ```python block (and every ```sql block, run with DuckDB) in README.md,
python/README.md and docs/DATASETS.md runs, so the documentation cannot rot.

Conventions for writers of those files (keep a block runnable under them):

- Only fences that start at the beginning of a line count: ```python or ```sql. A fence
  indented inside a list item is not extracted (it is left to the reader).
- The blocks of one file run in order in one fresh interpreter and share one namespace, like
  a reader following the page: a later block may use a name an earlier block defined
  (`env`, `np`, `crl`). Each file starts from an empty namespace.
- The working directory is an empty temporary directory. A block names datasets and bot files
  as `runs/NAME` (relative paths, as in the CLI examples); before the file runs, the runner
  makes every `runs/NAME` that any block of the file mentions:
    * `runs/NAME.bot`: a copy of models/default.bot (the shipped 4-player model);
    * any other `runs/NAME`: a `container selfplay` dataset of 12 four-player games (agents
      random,shipper,manufacturer,random, seed 7, 4 games a shard); Parquet when NAME
      contains `pq` or `parquet`, else Arrow IPC (zstd); played as 3 parts
      (`--shard i/3`) joined by `container dataset merge` when NAME contains `merged`
      (so the directory is manifest-only and its files sit in the part directories).
  The `container` binary ($CONTAINER, or built from the checkout) is first on PATH.
- A ```sql block is split into statements at a `;` ending a line, and each runs with
  `duckdb.sql`; its result is fetched (so a bad column or path fails).
- A block that imports an optional package that is not installed (pyarrow, polars, duckdb,
  pandas, gymnasium, pettingzoo, torch, stable_baselines3, sb3_contrib) skips the rest of
  its file; with CONTAINER_RL_REQUIRE_EXTRAS=1 (CI) that is a failure instead.
- A file's blocks get 300 seconds in all; keep examples small (a few seconds each).

A failure names the file and line of the block (tracebacks point into the Markdown file).
"""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, selfplay, sharded_selfplay

DOCS = ["README.md", "python/README.md", "docs/DATASETS.md"]
OPTIONAL = ["pyarrow", "polars", "duckdb", "pandas", "gymnasium", "pettingzoo", "torch",
            "stable_baselines3", "sb3_contrib"]
FENCE = re.compile(r"^```(python|sql)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
RUNS = re.compile(r"\bruns/([A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_])")
SKIP_EXIT = 3

# Runs in the child interpreter: argv[1] is a JSON list of blocks.
DRIVER = r"""
import json, re, sys
blocks = json.load(open(sys.argv[1]))
optional = set(json.loads(sys.argv[2]))
ns = {"__name__": "__main__"}
for b in blocks:
    try:
        if b["lang"] == "python":
            # Pad so that tracebacks give the line in the Markdown file.
            exec(compile("\n" * b["line"] + b["code"], b["doc"], "exec"), ns)
        else:
            import duckdb
            for stmt in re.split(r";[ \t]*(?:--[^\n]*)?\n", b["code"] + "\n"):
                if stmt.strip() and not all(l.strip().startswith("--") or not l.strip() for l in stmt.splitlines()):
                    rel = duckdb.sql(stmt)
                    if rel is not None:
                        rel.fetchall()
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] in optional:
            print(f"SKIP {b['doc']}:{b['line'] + 1}: optional package {e.name} is not installed")
            sys.exit(3)
        raise
    print(f"ok {b['doc']}:{b['line'] + 1} ({b['lang']})", flush=True)
print(f"ran {len(blocks)} blocks")
"""


def extract(doc):
    """The (lang, line, code) of every fenced python/sql block of doc (a path relative to the
    repository root); line is the 0-based line of the fence itself, so code starts at line+1."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        text = f.read()
    return [{"doc": doc, "lang": m.group(1), "line": text.count("\n", 0, m.start()) + 1,
             "code": m.group(2)} for m in FENCE.finditer(text)]


def make_runs(container, blocks, where):
    """Makes every runs/NAME the blocks mention under where/runs (see the module doc)."""
    names = sorted({n for b in blocks for n in RUNS.findall(b["code"])})
    for name in names:
        path = where / "runs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".bot"):
            shutil.copyfile(os.path.join(ROOT, "models", "default.bot"), path)
            continue
        fmt = "parquet" if ("pq" in name or "parquet" in name) else "arrow"
        if "merged" in name:
            sharded_selfplay(container, path, fmt=fmt)
        else:
            selfplay(container, path, fmt=fmt)
    return names


def test_extract_finds_the_blocks_of_each_page():
    # A fence pattern that silently stopped matching would make the doc test pass on nothing.
    assert len(extract("python/README.md")) >= 4
    assert {b["lang"] for b in extract("docs/DATASETS.md")} == {"python", "sql"}
    first = extract("python/README.md")[0]
    with open(os.path.join(ROOT, "python/README.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert lines[first["line"]].startswith("```python") is False  # line is the fence's 0-based index + 1
    assert lines[first["line"] - 1].startswith("```python")


def test_runs_names_cover_paths_in_code():
    code = 'open("runs/random/manifest.json"); pl.scan_parquet("runs/random-pq/steps-*.parquet")\n' \
           "SELECT * FROM 'runs/merged-pq/x'; crl.BotPolicy(\"runs/bc.bot\")"
    assert sorted(set(RUNS.findall(code))) == ["bc.bot", "merged-pq", "random", "random-pq"]


@pytest.mark.parametrize("doc", DOCS)
def test_doc_snippets_run(doc, container_bin, tmp_path):
    blocks = extract(doc)
    if not blocks:
        pytest.skip(f"{doc} has no python or sql blocks")
    make_runs(container_bin, blocks, tmp_path)
    spec = tmp_path / "blocks.json"
    spec.write_text(json.dumps(blocks))
    import container_rl
    env = dict(os.environ)
    # The child imports container_rl from where this process did (a checkout or an install).
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(container_rl.__file__)))]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PATH"] = os.path.dirname(os.path.abspath(container_bin)) + os.pathsep + env.get("PATH", "")
    env.setdefault("MPLBACKEND", "Agg")
    r = subprocess.run([sys.executable, "-c", DRIVER, str(spec), json.dumps(OPTIONAL)], cwd=tmp_path,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    out = r.stdout[-6000:]
    if r.returncode == SKIP_EXIT:
        if os.environ.get("CONTAINER_RL_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"{doc}: CONTAINER_RL_REQUIRE_EXTRAS=1 but a block needs a missing package:\n{out}")
        pytest.skip(out.strip().splitlines()[-1])
    assert r.returncode == 0, f"{doc}: a block failed:\n{out}"
    assert f"ran {len(blocks)} blocks" in r.stdout
