#!/usr/bin/env bash
# Checks container datasets with independent readers: DuckDB reads the Parquet dataset and
# the apache-arrow JavaScript library reads the Arrow IPC dataset; both must agree with
# `container dataset stats --json` on games, steps and wins.
#
# Usage: interop/check.sh DATASET_DIR_PARQUET DATASET_DIR_ARROW
# Needs: npm ci --prefix interop. Uses $CONTAINER as the container binary if set, otherwise
# builds ./cmd/container with go.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 DATASET_DIR_PARQUET DATASET_DIR_ARROW" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
pq="$(cd "$1" && pwd)"
ar="$(cd "$2" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ ! -d "$here/node_modules/@duckdb/node-api" ] || [ ! -d "$here/node_modules/apache-arrow" ]; then
  echo "interop: run 'npm ci --prefix interop' first" >&2
  exit 2
fi
bin="${CONTAINER:-}"
if [ -z "$bin" ]; then
  bin="$tmp/container"
  (cd "$root" && go build -o "$bin" ./cmd/container)
fi
"$bin" dataset stats "$pq" --json > "$tmp/parquet-stats.json"
"$bin" dataset stats "$ar" --json > "$tmp/arrow-stats.json"
node "$here/duckdb_check.mjs" "$pq" "$tmp/parquet-stats.json"
node "$here/arrow_check.mjs" "$ar" "$tmp/arrow-stats.json"
node "$here/same_games_check.mjs" "$pq" "$ar" "$tmp/parquet-stats.json" "$tmp/arrow-stats.json"
echo "interop: DuckDB and apache-arrow agree with container dataset stats"
