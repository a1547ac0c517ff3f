"""`python -m container_rl ARGS` (and the `container` console script) run the container
command shipped in the wheel (container_rl/bin/container), the same CLI as `go build
./cmd/container`: datasets, tournaments, training, replay, ..."""

import os
import sys


def cli_path():
    """Path of the bundled container command (None when the package was built without it)."""
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "container")
    return p if os.path.exists(p) else None


def main():
    p = cli_path()
    if p is None:
        sys.stderr.write("container_rl: this install has no container command (it was built with "
                         "CONTAINER_RL_CLI=0); reinstall without it or go build ./cmd/container\n")
        return 2
    if not os.access(p, os.X_OK):
        sys.stderr.write(f"container_rl: {p} is not executable\n")
        return 2
    os.execv(p, [p, *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
