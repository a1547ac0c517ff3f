#!/usr/bin/env bash
# Mutation testing of one package with gremlins (a Go tool dependency: go tool gremlins).
#
#     scripts/mutation.sh PKG [FILE.go ...]
#
# mutates the non-test files of package PKG (e.g. env/rules; its subpackages are left out),
# or only the FILEs named, runs the package's own tests against each mutant (one worker, so
# it can share a machine) and writes the per-mutant results to out/mutation/<pkg>.json and
# the log to out/mutation/<pkg>.log. Environment: SHORT=1 runs the tests with -short (the
# slow suites: env/rules, env, datasets); RUN=REGEX runs only the tests whose names match
# (go test -run; a mutant those tests kill is killed by the whole suite too, so the score
# can only be lower than the whole suite's); WORKERS=N uses N workers; COEF=K sets the timeout
# coefficient (the per-mutant timeout is K times the coverage run; default 15, generous on
# a loaded machine). See docs/TESTING.md for the scores and what the survivors mean.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ $# -ge 1 ] || { echo "usage: scripts/mutation.sh PKG [FILE.go ...]" >&2; exit 2; }
pkg="${1%/}"
pkg="${pkg#./}"
shift
[ -d "$pkg" ] || { echo "mutation: no package directory $pkg" >&2; exit 2; }
for f in "$@"; do
	[ -f "$pkg/$f" ] || { echo "mutation: no file $pkg/$f" >&2; exit 2; }
done
# Exclusions are regular expressions over paths relative to the package directory:
# subdirectories always, and every file not named when files are named.
args=(-E '^[^/]+/')
if [ $# -gt 0 ]; then
	for f in "$pkg"/*.go; do
		b="$(basename "$f")"
		case "$b" in *_test.go) continue ;; esac
		keep=0
		for k in "$@"; do [ "$b" = "$k" ] && keep=1; done
		[ $keep = 1 ] || args+=(-E "^${b//./\\.}\$")
	done
fi
out="$ROOT/out/mutation"
mkdir -p "$out"
name="${pkg//\//_}"
# -count=1: the coverage run must really run (a cached result takes no time, and the
# per-mutant timeout, a multiple of it, would then time every mutant out).
# -failfast: a killed mutant stops at its first failing test (the results do not change).
# -ldflags=-w: no DWARF in the test binaries, which halves the link of each mutant (training's
# test binary links GoMLX and Arrow: about 4 CPU-seconds with DWARF, 1.5 without).
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1 -failfast -ldflags=-w"
if [ "${SHORT:-0}" = 1 ]; then
	export GOFLAGS="$GOFLAGS -short"
fi
if [ -n "${RUN:-}" ]; then
	case "$RUN" in *" "*) echo "mutation: RUN must not contain spaces" >&2; exit 2 ;; esac
	export GOFLAGS="$GOFLAGS -run=$RUN"
fi
go tool gremlins unleash --workers "${WORKERS:-1}" --timeout-coefficient "${COEF:-15}" \
	-o "$out/$name.json" "${args[@]}" "./$pkg" 2>&1 | tee "$out/$name.log" | { grep -a -v 'RUNNABLE\|NOT COVERED' || true; }
