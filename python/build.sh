#!/usr/bin/env bash
# Kept for old instructions: installs container_rl into the .venv/ virtual environment (see python/venv.sh).
exec "$(dirname "${BASH_SOURCE[0]}")/venv.sh" "$@"
