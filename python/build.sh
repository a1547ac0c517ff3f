#!/usr/bin/env bash
# Builds the Go library (capi/, -buildmode=c-shared) into python/container_rl/ and installs
# the package in development mode: a .pth file in the site-packages of $PYTHON (default
# Debian's /usr/bin/python3) points at python/, so edits take effect without reinstalling.
# Needs Go, gcc (cgo) and NumPy; PyTorch only for the example. Run from anywhere:
#
#     python/build.sh            # build + install
#     python/build.sh --no-install
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-/usr/bin/python3}"
cd "$ROOT"
CGO_ENABLED=1 go build -buildmode=c-shared -o python/container_rl/libcontainer.so ./capi
rm -f python/container_rl/libcontainer.h
echo "built python/container_rl/libcontainer.so"
if [[ "${1:-}" == --no-install ]]; then
	exit 0
fi
SITE="$("$PYTHON" - <<'PY'
import os, site, sys
for d in site.getsitepackages() + [site.getusersitepackages()]:
    try:
        os.makedirs(d, exist_ok=True)
    except OSError:
        continue
    if os.access(d, os.W_OK):
        print(d)
        sys.exit(0)
sys.exit("no writable site-packages directory for " + sys.executable)
PY
)"
echo "$ROOT/python" > "$SITE/container_rl.pth"
echo "installed container_rl (development mode) for $PYTHON: $SITE/container_rl.pth -> $ROOT/python"
"$PYTHON" -c 'import container_rl, numpy; print("container_rl ok:", len(container_rl.list_bots()), "bots")'
