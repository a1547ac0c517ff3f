"""Hostile-input sweep of the container command line, its merges, `train exit`, a full disk,
the Python package and the web server (docs/TESTING.md, "Hostile-input sweep").

    python3 scripts/hostile.py --container ./container [--out DIR] [--only REGEX] [--list]

Every case runs a command line (or sends an HTTP request to a `container serve` started here on
127.0.0.1 with a free port, or runs a snippet of the Python package in a fresh interpreter) on
files made for it in a scratch directory, and prints one line: OK or BAD, the case's name and
why. The last line is "N cases, B BAD"; the exit status is 1 when any case is BAD.

What every command-line case checks, beyond its own expectation (accepted, refused or either):
it exits within the time limit; standard error holds no "panic", "goroutine ", "runtime error"
or "fatal error"; a refused command (non-zero exit) prints exactly one non-empty line on
standard error (progress bars aside), starting "container: " (and not "container: container"),
with no control characters; every file that existed before and that the case does not name as
an intended output is byte for byte the same after (links stay links, pipes stay pipes); a
refused command leaves no new file behind unless the case allows it; the shared fixtures, the
other cases' directories, HOME and TMPDIR (all inside the scratch directory) are left alone.
HTTP: no request gets a 5xx or a dropped connection, bad requests get the 4xx the docs name, API
errors are {"error": "one line"}, and the server stops cleanly on SIGINT having changed nothing
under --data. Python: a bad call raises a Python exception (never InternalError, which is a Go
panic caught at the boundary) and the interpreter is never killed by a signal.

The numeric flags and their ranges are read from the binary (container help flags --json).

One file per category (unknown.py, numbers.py, shard.py, agents.py, output.py, rundir.py,
merge.py, inputs.py, bots.py, paths.py, train_exit.py, disk.py, web.py, python_package.py), each
with a cases_* function that adds its cases; cases.py holds the Case type and the setup
helpers, checks.py the generic checks, fixtures.py and results.py the shared fixtures and
forgeries, runner.py the command line (scripts/hostile.py calls it).

Python 3.11 standard library only. Disk-full cases need root (they mount a small tmpfs) and are
skipped with a note otherwise; Python cases need .venv/bin/python with container_rl importable
(python/venv.sh) or --python PY, and are skipped with a note otherwise.
"""
