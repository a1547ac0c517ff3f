#!/usr/bin/env bash
# Creates a virtual environment and installs container_rl into it from this checkout with the
# pinned versions of python/constraints.txt (the build backend included), so a new release on
# PyPI cannot change what CI or a developer gets. pip builds the Go library (and the
# container command) through python/setup.py; Go and a C compiler must be on PATH.
#
#     python/venv.sh                    # .venv/ at the repo root, extras pettingzoo,gymnasium,openspiel,test
#     VENV=/tmp/v python/venv.sh -e     # elsewhere, editable install
#     EXTRAS=gymnasium,test python/venv.sh
#
# VENV_SYSTEM_SITE=1 creates the venv with --system-site-packages: Debian's python3-torch
# (which CI installs with apt for python/examples/train_masked_policy.py) is then importable
# from it, while every pinned package is installed in the venv itself. PYTHON picks the
# interpreter (default /usr/bin/python3); CONSTRAINTS another pin file (the RLlib venv uses
# python/constraints-rllib.txt). Prints how long the install took.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-/usr/bin/python3}"
VENV="${VENV:-$ROOT/.venv}"
EXTRAS="${EXTRAS:-pettingzoo,gymnasium,openspiel,test}"
EDITABLE=()
if [[ "${1:-}" == -e ]]; then
	EDITABLE=(-e)
fi
args=()
[[ "${VENV_SYSTEM_SITE:-}" == 1 ]] && args+=(--system-site-packages)
t0=$SECONDS
if [[ ! -x "$VENV/bin/python" ]]; then
	"$PYTHON" -m venv "${args[@]}" "$VENV"
fi
# PIP_CONSTRAINT (not -c) so the pins also hold in pip's isolated build environment.
export PIP_CONSTRAINT="${CONSTRAINTS:-$ROOT/python/constraints.txt}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
"$VENV/bin/python" -m pip install -q "${EDITABLE[@]}" "$ROOT/python[$EXTRAS]"
"$VENV/bin/python" -c 'import container_rl, numpy; print("container_rl ok:", len(container_rl.list_bots()), "bots, numpy", numpy.__version__)'
echo "venv.sh: $VENV ready in $((SECONDS - t0)) s ($PIP_CONSTRAINT)"
