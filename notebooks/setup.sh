#!/usr/bin/env bash
# Links a GoNB kernel's temporary module to this repository so notebook cells can import the
# project's packages (github.com/container-rl/container/...). Run it from the first cell of
# every notebook with:  !*bash "${GONB_DIR}/setup.sh"
# GoNB runs "!*" lines in its temporary module directory and sets GONB_DIR to the directory the
# notebook was opened from (this folder).
set -euo pipefail
repo="$(cd "${GONB_DIR:?GONB_DIR is not set: run this from a GoNB cell}/.." && pwd)"
gonb_version="$(cd "$repo" && go list -m -f '{{.Version}}' github.com/janpfeifer/gonb)"
rm -f go.work go.work.sum
go work init
go work use . "$repo"
# gonbui (SVG/HTML display) comes from the same GoNB version the repository pins.
go mod edit -require="github.com/janpfeifer/gonb@${gonb_version}"
go mod download github.com/janpfeifer/gonb
