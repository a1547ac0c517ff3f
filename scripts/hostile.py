#!/usr/bin/env python3
"""Hostile-input sweep of the container command line (docs/TESTING.md, "Hostile-input sweep").

    python3 scripts/hostile.py --container ./container [--out DIR] [--only REGEX] [--list]

The cases live in scripts/hostile/, one file per category; this file only runs them.
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the working tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hostile.runner import run  # noqa: E402

if __name__ == "__main__":
    run()
