#!/usr/bin/env bash
# Measures behaviour-cloning training and inference on an NVIDIA GPU through the XLA backend
# and prints one line of JSON.
#
#     scripts/gpu-bench.sh [BATCH ...]        (default: 1024 4096 16384)
#
# 1. Installs the JAX team's CUDA 12 PJRT plugin (jax-cuda12-pjrt, Apache-2.0) and the NVIDIA
#    libraries it loads (the nvidia-* wheels that jax-cuda12-plugin[with-cuda] pins) with pip
#    into ${XDG_DATA_HOME:-~/.local/share}/container/pjrt/cuda-<version> (several GB, once),
#    and links the plugin there as pjrt_c_api_cuda_plugin.so, where container finds it.
# 2. Builds container with -tags xla (out/xla/container).
# 3. For each BATCH runs `container bench --train --backend xla:cuda --batch BATCH --json` and,
#    once, the same on the CPU (`--backend go`) for scale, and prints
#    {"gpu": ..., "commit": ..., "runs": [bench results...]}: BC samples/s
#    (bc_samples_per_s), the network's forward pass on the GPU (forward_rows_per_s) and bot
#    decisions/s (decisions_per_s: bots run the Go forward pass on the CPU).
#
# Everything but the JSON line goes to stderr. Needs Linux on x86-64 with an NVIDIA driver for
# CUDA 12, Go, gcc and python3 with pip. See docs/TRAINING.md, "XLA and GPUs".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAX_VERSION="${JAX_VERSION:-0.10.2}"
DIR="${XDG_DATA_HOME:-$HOME/.local/share}/container/pjrt"
SITE="$DIR/cuda-$JAX_VERSION"
BIN="$ROOT/out/xla/container"
BATCHES=("$@")
[[ ${#BATCHES[@]} -gt 0 ]] || BATCHES=(1024 4096 16384)

die() { echo "gpu-bench.sh: $*" >&2; exit 1; }
for b in "${BATCHES[@]}"; do [[ "$b" =~ ^[1-9][0-9]*$ ]] || die "batch $b is not a positive number"; done
command -v nvidia-smi >/dev/null || die "no NVIDIA GPU here (nvidia-smi is not installed)"
gpu="$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)" ||
	die "no NVIDIA GPU here (nvidia-smi found none)"
[[ -n "$gpu" ]] || die "no NVIDIA GPU here (nvidia-smi found none)"
command -v go >/dev/null || die "go is not installed"
python3 -m pip --version >/dev/null 2>&1 || die "python3 with pip is needed to fetch the CUDA plugin"

if [[ ! -f "$SITE/.complete" ]]; then
	echo "installing jax-cuda12-pjrt $JAX_VERSION and the NVIDIA libraries into $SITE" >&2
	rm -rf "$SITE.partial"
	python3 -m pip install --quiet --no-compile --target "$SITE.partial" \
		"jax-cuda12-pjrt==$JAX_VERSION" "jax-cuda12-plugin[with-cuda]==$JAX_VERSION" >&2
	rm -rf "$SITE"
	mv "$SITE.partial" "$SITE"
	touch "$SITE/.complete"
fi
plugin="$(find "$SITE/jax_plugins" -name xla_cuda_plugin.so -print -quit)"
[[ -n "$plugin" ]] || die "no xla_cuda_plugin.so under $SITE/jax_plugins"
ln -sfn "$plugin" "$DIR/pjrt_c_api_cuda_plugin.so"
libs=""
for d in "$SITE"/nvidia/*/lib; do libs="$libs${libs:+:}$d"; done
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$SITE/nvidia/cuda_nvcc/bin:$PATH" # ptxas
export GOPJRT_CUDA_CHECKS=0                    # the libraries are found through LD_LIBRARY_PATH
unset PJRT_PLUGIN_LIBRARY_PATH

echo "building $BIN" >&2
(cd "$ROOT" && CGO_ENABLED=1 go build -tags xla -o "$BIN" ./cmd/container) >&2

runs="$(mktemp)"
trap 'rm -f "$runs"' EXIT
for b in "${BATCHES[@]}"; do
	echo "bench --train --backend xla:cuda --batch $b" >&2
	"$BIN" bench --train --backend xla:cuda --batch "$b" --steps 200 --json >>"$runs"
done
echo "bench --train --backend go --batch ${BATCHES[0]} (the CPU, for scale)" >&2
"$BIN" bench --train --backend go --batch "${BATCHES[0]}" --steps 20 --json >>"$runs"

commit="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
python3 - "$gpu" "$commit" "$JAX_VERSION" "$runs" <<'PY'
import json, sys
gpu, commit, jax, path = sys.argv[1:5]
runs = [json.loads(line) for line in open(path) if line.strip()]
print(json.dumps({"gpu": gpu, "commit": commit, "jax_cuda12_pjrt": jax, "runs": runs}, separators=(",", ":")))
PY
