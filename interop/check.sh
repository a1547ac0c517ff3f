#!/usr/bin/env bash
# Checks container datasets with independent readers: DuckDB reads the Parquet dataset and
# the apache-arrow JavaScript library reads the Arrow IPC datasets (zstd, lz4 or
# uncompressed); all must agree with `container dataset stats --json` on games, steps and
# wins, and datasets played from the same plan with each other.
#
# Usage: interop/check.sh DATASET_DIR_PARQUET DATASET_DIR_ARROW [MORE_ARROW_DIRS...]
# Needs: npm ci --prefix interop. Uses $CONTAINER as the container binary if set, otherwise
# builds ./cmd/container with go.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 DATASET_DIR_PARQUET DATASET_DIR_ARROW [MORE_ARROW_DIRS...]" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
pq="$(cd "$1" && pwd)"
shift
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ ! -d "$here/node_modules/@duckdb/node-api" ] || [ ! -d "$here/node_modules/apache-arrow" ] || [ ! -d "$here/node_modules/lz4js" ]; then
  echo "interop: run 'npm ci --prefix interop' first" >&2
  exit 2
fi
bin="${CONTAINER:-}"
if [ -z "$bin" ]; then
  bin="$tmp/container"
  (cd "$root" && go build -o "$bin" ./cmd/container)
fi
"$bin" dataset stats "$pq" --json > "$tmp/parquet-stats.json"
node "$here/duckdb_check.mjs" "$pq" "$tmp/parquet-stats.json"
i=0
for dir in "$@"; do
  ar="$(cd "$dir" && pwd)"
  i=$((i + 1))
  echo "interop: Arrow dataset $ar"
  "$bin" dataset stats "$ar" --json > "$tmp/arrow-stats-$i.json"
  node "$here/arrow_check.mjs" "$ar" "$tmp/arrow-stats-$i.json"
  node "$here/same_games_check.mjs" "$pq" "$ar" "$tmp/parquet-stats.json" "$tmp/arrow-stats-$i.json"
done
echo "interop: DuckDB and apache-arrow agree with container dataset stats"
