#!/usr/bin/env bash
# Regenerates the committed outputs of the notebooks: a seeded demo run (container demo with
# its defaults, seed 1, into runs/demo), then every notebook executed in place with the GoNB
# kernel, so the charts are visible on a code host without running anything.
#
#     notebooks/render.sh
#
# Needs Debian's jupyter-nbconvert and python3-ipykernel, and the GoNB kernel installed
# (notebooks/README.md: go build -o ~/bin/ github.com/janpfeifer/gonb
# golang.org/x/tools/cmd/goimports, then ~/bin/gonb --install) with ~/bin on PATH.
# Takes a few minutes on two cores (the demo, then one Go build per cell).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
go run ./cmd/container demo --seed 1 --out runs/demo
for nb in notebooks/*.ipynb; do
	echo "--- executing $nb"
	CONTAINER_DEMO="$repo/runs/demo" CONTAINER_DATASET="$repo/runs/demo/dataset" CONTAINER_RUN="$repo/runs/demo/train" \
		jupyter nbconvert --to notebook --execute --inplace \
		--ExecutePreprocessor.kernel_name=gonb --ExecutePreprocessor.timeout=900 "$nb"
	# Paths in the outputs are shown relative to the repository, not to this machine.
	sed -i "s#${repo}/#./#g; s#${repo}#.#g" "$nb"
done
