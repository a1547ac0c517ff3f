#!/usr/bin/env bash
# Installs XLA's CPU PJRT plugin and builds the container command with the XLA backend.
#
#     scripts/xla-cpu.sh [OUTPUT]
#
# 1. Fetches the plugin from its PyPI wheel with pip (lammps-jax-pjrt-cpu 0.11.2, pinned by
#    version and sha256; Apache-2.0, OpenXLA's pjrt_c_api_cpu_plugin.so built from jaxlib
#    0.11.2's XLA; a 63 MB download, 202 MB unpacked) and unpacks the .so with its LICENSE and
#    THIRD_PARTY_NOTICES into ${XDG_DATA_HOME:-~/.local/share}/container/pjrt, where container
#    looks for it when PJRT_PLUGIN_LIBRARY_PATH is unset. A plugin already there with the
#    recorded checksum is kept (nothing is downloaded again).
# 2. Builds container with -tags xla (cgo: needs gcc) to OUTPUT (default out/xla/container).
#
# The last line printed is the binary's path. Select the backend with --backend xla (or
# GOMLX_BACKEND=xla); container itself never downloads anything. Needs Linux on x86-64, Go,
# gcc and python3 with pip. See docs/TRAINING.md, "XLA and GPUs".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PKG=lammps-jax-pjrt-cpu
VERSION=0.11.2
WHEEL_SHA256=1319390d948b39f69f7dade496b7c385149d9ca6097a6b62114da113216d9ad1
SO=pjrt_c_api_cpu_plugin.so
DIR="${XDG_DATA_HOME:-$HOME/.local/share}/container/pjrt"
OUTPUT="${1:-$ROOT/out/xla/container}"

die() { echo "xla-cpu.sh: $*" >&2; exit 1; }

[[ "$(uname -s)/$(uname -m)" == Linux/x86_64 ]] || die "the plugin wheel is for Linux on x86-64, not $(uname -s)/$(uname -m)"
command -v go >/dev/null || die "go is not installed"
command -v gcc >/dev/null || die "gcc is not installed (the xla build uses cgo)"
[[ "$OUTPUT" == /* ]] || OUTPUT="$PWD/$OUTPUT"
[[ ! -d "$OUTPUT" ]] || OUTPUT="$OUTPUT/container" # go build -o DIR writes DIR/container

# The plugin: kept when the recorded version and checksum match what is on disk.
stamp="$DIR/$SO.installed"
installed() {
	[[ -f "$DIR/$SO" && -f "$stamp" ]] || return 1
	local want have
	want="$(sed -n 's/^sha256 //p' "$stamp")"
	have="$(sha256sum "$DIR/$SO" | cut -d' ' -f1)"
	grep -qx "package $PKG==$VERSION" "$stamp" && [[ -n "$want" && "$want" == "$have" ]]
}
if installed; then
	echo "plugin: $DIR/$SO ($PKG $VERSION, already installed)"
else
	python3 -m pip --version >/dev/null 2>&1 || die "python3 with pip is needed to fetch the plugin wheel"
	mkdir -p "$DIR"
	tmp="$(mktemp -d "$DIR/.install-XXXXXX")"
	trap 'rm -rf "$tmp"' EXIT
	echo "$PKG==$VERSION --hash=sha256:$WHEEL_SHA256" >"$tmp/requirements.txt"
	echo "plugin: downloading $PKG $VERSION from PyPI (63 MB)"
	t0=$SECONDS
	python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
		-r "$tmp/requirements.txt" -d "$tmp/wheel" || die "pip could not download $PKG==$VERSION"
	wheel=("$tmp"/wheel/*.whl)
	[[ -f "${wheel[0]}" ]] || die "pip left no wheel in $tmp/wheel"
	python3 - "${wheel[0]}" "$tmp/unpacked" <<'PY'
import os, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        base = os.path.basename(info.filename)
        if base in ("pjrt_c_api_cpu_plugin.so", "LICENSE", "THIRD_PARTY_NOTICES"):
            with z.open(info) as src, open(os.path.join(out, base), "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
PY
	[[ -s "$tmp/unpacked/$SO" ]] || die "the wheel holds no $SO"
	chmod 755 "$tmp/unpacked/$SO"
	mv -f "$tmp/unpacked/LICENSE" "$DIR/LICENSE.$PKG"
	mv -f "$tmp/unpacked/THIRD_PARTY_NOTICES" "$DIR/THIRD_PARTY_NOTICES.$PKG"
	mv -f "$tmp/unpacked/$SO" "$DIR/$SO" # same folder: an atomic rename
	printf 'package %s==%s\nwheel-sha256 %s\nsha256 %s\n' "$PKG" "$VERSION" "$WHEEL_SHA256" \
		"$(sha256sum "$DIR/$SO" | cut -d' ' -f1)" >"$stamp"
	echo "plugin: $DIR/$SO ($PKG $VERSION, Apache-2.0: $DIR/LICENSE.$PKG; $((SECONDS - t0)) s)"
fi

echo "build: go build -tags xla -o $OUTPUT ./cmd/container"
t0=$SECONDS
mkdir -p "$(dirname "$OUTPUT")"
(cd "$ROOT" && CGO_ENABLED=1 go build -tags xla -o "$OUTPUT" ./cmd/container)
echo "build: $((SECONDS - t0)) s"
echo "use: $OUTPUT train bc --backend xla ... (or GOMLX_BACKEND=xla; the plugin is found in $DIR)"
echo "$OUTPUT"
