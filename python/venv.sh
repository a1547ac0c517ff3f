#!/usr/bin/env bash
# Creates a virtual environment and installs container_rl into it from this checkout with the
# pinned versions of python/constraints.txt (the build backend included), so a new release on
# PyPI cannot change what CI or a developer gets. pip builds the Go library (and the
# container command) through python/setup.py; Go and a C compiler must be on PATH.
#
#     python/venv.sh                    # .venv/ at the repo root, extras pettingzoo,gymnasium,test
#     VENV=/tmp/v python/venv.sh -e     # elsewhere, editable install
#     EXTRAS=pettingzoo,gymnasium,test,openspiel,data python/venv.sh   # + OpenSpiel, pyarrow/Polars/DuckDB/pandas
#
# pip's own progress is shown; the step "Building wheel for container_rl" compiles the Go
# library and the container command (a few minutes with an empty Go build cache on 2 cores,
# seconds with a warm one) and prints nothing until it is done.
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
EXTRAS="${EXTRAS:-pettingzoo,gymnasium,test}"
EDITABLE=()
if [[ "${1:-}" == -e ]]; then
	EDITABLE=(-e)
fi
args=()
[[ "${VENV_SYSTEM_SITE:-}" == 1 ]] && args+=(--system-site-packages)
t0=$SECONDS
if [[ ! -x "$VENV/bin/python" ]]; then
	echo "venv.sh: creating $VENV"
	"$PYTHON" -m venv "${args[@]}" "$VENV"
fi
# PIP_CONSTRAINT (not -c) so the pins also hold in pip's isolated build environment.
export PIP_CONSTRAINT="${CONSTRAINTS:-$ROOT/python/constraints.txt}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
echo "venv.sh: pip install ${EDITABLE[*]:+${EDITABLE[*]} }./python[$EXTRAS] (pinned by $PIP_CONSTRAINT; building the Go library takes a few minutes on a cold Go build cache)"
progress=()
[[ -t 1 ]] || progress=(--progress-bar off)
"$VENV/bin/python" -m pip install "${progress[@]}" "${EDITABLE[@]}" "$ROOT/python[$EXTRAS]"
"$VENV/bin/python" -c 'import container_rl, numpy; print("container_rl ok:", len(container_rl.list_bots()), "bots, numpy", numpy.__version__)'
echo "venv.sh: $VENV ready in $((SECONDS - t0)) s ($PIP_CONSTRAINT)"
