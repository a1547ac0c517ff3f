#!/usr/bin/env python3
"""Apply one mutant, as gremlins names it, run tests against it, and restore the file.

    scripts/mutant.py FILE:LINE:COL KIND -- TEST COMMAND...

KIND is a gremlins mutant kind (CONDITIONALS_BOUNDARY, CONDITIONALS_NEGATION,
ARITHMETIC_BASE, INCREMENT_DECREMENT, INVERT_NEGATIVES); LINE:COL are gremlins' 1-based
position of the operator. Prints "KILLED" (the command failed), "LIVED" (it passed) or "NOT VIABLE"
(the mutant does not compile) and the mutated line. The file is restored whatever happens. Use it to check survivors of a gremlins
run against tests of other packages (gremlins runs only the mutated package's own tests), or
against a test written for a survivor.
"""
import os
import subprocess
import sys

SWAPS = {
    "CONDITIONALS_BOUNDARY": {"<": "<=", "<=": "<", ">": ">=", ">=": ">"},
    "CONDITIONALS_NEGATION": {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"},
    "ARITHMETIC_BASE": {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"},
    "INCREMENT_DECREMENT": {"++": "--", "--": "++"},
}


def mutate(line, col, kind):
    i = col - 1
    if kind == "INVERT_NEGATIVES":
        if line[i:i + 1] != "-":
            raise SystemExit(f"mutant.py: no '-' at column {col}: {line.strip()}")
        return line[:i] + line[i + 1:]
    table = SWAPS.get(kind)
    if table is None:
        raise SystemExit(f"mutant.py: unknown kind {kind}")
    for op in sorted(table, key=len, reverse=True):
        if line.startswith(op, i):
            return line[:i] + table[op] + line[i + len(op):]
    raise SystemExit(f"mutant.py: no {kind} operator at column {col}: {line.strip()}")


def main(argv):
    if len(argv) < 4 or argv[2] != "--":
        raise SystemExit(__doc__.strip().splitlines()[2].strip())
    path, line_no, col = argv[0].rsplit(":", 2)
    line_no, col = int(line_no), int(col)
    with open(path, encoding="utf-8") as f:
        src = f.read()
    lines = src.split("\n")
    mutated = mutate(lines[line_no - 1], col, argv[1])
    lines[line_no - 1] = mutated
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        pkg = "./" + (os.path.dirname(path) or ".")
        if subprocess.run(["go", "vet", pkg], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
            status = "NOT VIABLE"  # the mutant does not compile (or vet refuses it)
        else:
            rc = subprocess.run(argv[3:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            status = "KILLED" if rc else "LIVED"
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(src)
    print(f"{status} {argv[1]} {argv[0]}: {mutated.strip()}")


if __name__ == "__main__":
    main(sys.argv[1:])
