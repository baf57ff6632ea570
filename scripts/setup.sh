#!/usr/bin/env bash
# Create .venv and install the project with one dependency group: docs, test or dev.
# PyTorch 2.13.0 (CPU build) goes in first, so nothing later pulls a multi-GB GPU build.
set -euo pipefail
group=${1:-docs}
case "$group" in docs | test | dev) ;; *) echo "usage: $0 [docs|test|dev]" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
pip=(.venv/bin/python -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet --upgrade "pip>=25.1"  # --group needs pip 25.1
# Not --quiet: on a fresh machine these take minutes, and pip shows progress bars.
"${pip[@]}" install "torch==2.13.0"
"${pip[@]}" install --group "$group" --editable .
echo "setup.sh: .venv is ready with the '$group' dependencies"
