#!/usr/bin/env bash
# (Re)make requirements/constraints.txt, the lock scripts/setup.sh installs from:
#
#     bash scripts/lock.sh
#
# In a throwaway virtual environment, with Python 3.11 (what CI runs), it
# installs what setup.sh installs for the `dev` group, which includes the
# `test` and `docs` groups: torch==2.13.0 first, then the groups, the library
# with its `model` extra and the site's plugin, every package at the newest
# version pyproject.toml allows. It then pins every installed package with `==`,
# except torch (setup.sh names its version and build itself), the two editable
# in-repository packages, and anything not from PyPI (a direct reference or a
# local version such as 2.13.0+cpu). To upgrade the toolchain, run it, run the
# tests, and commit the diff of the constraints file.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
  echo "lock.sh: the lock is made with Python 3.11 (what CI runs); set PYTHON=" >&2
  exit 2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$python" -m venv "$scratch/venv"
pip=("$scratch/venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet --upgrade "pip>=25.1"  # --group needs pip 25.1
"${pip[@]}" install --quiet "torch==2.13.0"
"${pip[@]}" install --quiet --group dev --editable ".[model]" --editable ./site-plugin
"${pip[@]}" check

"${pip[@]}" freeze --exclude-editable >"$scratch/freeze.txt"
"$scratch/venv/bin/python" - "$scratch/freeze.txt" requirements/constraints.txt <<'EOF'
"""Write the pins of pip freeze, sorted by name, under the file's header."""

import re
import sys
from pathlib import Path

HEADER = """\
# Exact versions of every package the `dev` dependency group of pyproject.toml
# resolves to, with the library's `model` extra (the `docs` and `test` groups
# are parts of `dev`); torch's own dependencies included, torch itself not
# (scripts/setup.sh installs torch==2.13.0, CPU build, first).
# Made by `bash scripts/lock.sh` with Python 3.11; do not edit by hand.
# scripts/setup.sh installs with `--constraint requirements/constraints.txt`.
# To upgrade: run `bash scripts/lock.sh` again (it takes the newest versions
# pyproject.toml allows), run the tests, commit the diff.
"""
freeze, target = (Path(arg) for arg in sys.argv[1:])
pins = {}
for line in freeze.read_text().splitlines():
    if not line.strip() or line.startswith("#"):
        continue
    match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", line.strip())
    name = re.sub(r"[-_.]+", "-", match[1]).lower() if match else ""  # PEP 503
    if name == "torch":
        continue
    if match is None or "+" in match[2]:  # a direct reference, a local version
        print(f"lock.sh: not from PyPI, not pinned: {line}", file=sys.stderr)
        continue
    pins[name] = f"{match[1]}=={match[2]}"
target.parent.mkdir(exist_ok=True)
target.write_text(HEADER + "".join(pins[name] + "\n" for name in sorted(pins)))
print(f"lock.sh: {len(pins)} pins written to {target}")
EOF
echo "lock.sh: finished in $((SECONDS - start)) s"
