"""The canary for upgrades: the newest allowed versions against our reaches.

    .venv/bin/python scripts/canary.py [--keep DIR]

In a throwaway virtual environment it installs torch 2.13.0, then the `test`
group, the library and the plugin at the newest versions ``pyproject.toml``
allows, ignoring the lock. It then runs the guard tests (the tests of every
reach into a dependency) and one strict build of the site, in which each
declared reach records whether it applied (``ATTENTION_DOCS_UPSTREAM_REPORT``,
``upstream/guard.py``). It prints two tables: each dependency with its locked
and its newest version, and each reach: applies, or fails and why. It exits 1
if a guard test, the build or a reach failed. The GitHub workflow runs it every
week (``.github/workflows/canary.yml``); nothing here changes the lock.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUARD_TESTS = [
    "tests/site/test_upstream.py",
    "tests/site/test_site.py",
    "tests/site/test_theme_css.py",
    "tests/site/test_theme_js.py",
    "tests/site/test_render_cache.py",
]


def direct_dependencies() -> list[str]:
    """The distributions pyproject.toml names (library and every group)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    specs = list(project["project"]["dependencies"])
    for extra in project["project"].get("optional-dependencies", {}).values():
        specs += extra
    for group in project["dependency-groups"].values():
        specs += [spec for spec in group if isinstance(spec, str)]
    names = {re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0] for spec in specs}
    return sorted(names, key=str.lower)


def locked() -> dict[str, str]:
    """The lock's pins, by lower-case name."""
    pins = {}
    for line in (ROOT / "requirements/constraints.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==", 1)
            pins[name.strip().lower()] = version.split(";")[0].strip()
    return pins


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a command from the project's root, its output captured."""
    print("canary:", " ".join(command[:6]), "...", flush=True)
    return subprocess.run(  # noqa: PLW1510 (the caller reads the code)
        command, cwd=ROOT, capture_output=True, text=True, **kwargs
    )


def make_environment(venv: Path) -> Path:
    """A venv with the newest allowed versions; returns its python."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", "--upgrade", "pip>=25.1"], check=True)
    subprocess.run([*pip, "install", "torch==2.13.0"], check=True)
    # torch stays the CPU build on this disk (any other is several GB).
    pinned = venv / "torch.txt"
    pinned.write_text("torch==2.13.0\n", encoding="utf-8")
    subprocess.run(
        [*pip, "install", "--upgrade", "--constraint", str(pinned), "--group",
         "test", "--editable", ".[model]", "--editable", "./site-plugin"],
        cwd=ROOT, check=True,
    )  # fmt: skip
    return python


def installed(python: Path) -> dict[str, str]:
    """What the venv has, by lower-case name."""
    listing = run([str(python), "-m", "pip", "list", "--format", "json"])
    return {row["name"].lower(): row["version"] for row in json.loads(listing.stdout)}


def table(rows: list[tuple[str, ...]]) -> str:
    """Rows as aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(width) for cell, width in zip(row, widths, strict=True)
        ).rstrip()
        for row in rows
    )


def versions_table(python: Path) -> str:
    """Each direct dependency: locked, newest allowed, and whether they differ."""
    pins, have = locked(), installed(python)
    pins["torch"] = "2.13.0"  # named by scripts/setup.sh, not by the lock
    rows = [("dependency", "locked", "newest allowed", "")]
    for name in direct_dependencies():
        key = name.lower()
        old, new = pins.get(key, "-"), have.get(key, "not in the test group")
        same = old == new.split("+")[0] or key not in have  # 2.13.0+cpu is 2.13.0
        rows.append((name, old, new, "" if same else "newer"))
    return table(rows)


def reaches_table(report: dict[str, dict]) -> str:
    """Each declared reach: applies, or fails and why."""
    rows = [("reach", "package", "written for", "newest", "need", "result")]
    for name, row in report.items():
        if row["failures"]:
            result = "FAILS: " + "; ".join(row["failures"])[:160]
        elif row["applied"]:
            result = f"applies ({row['applied']}x)"
        else:
            result = "not exercised" if row["active"] else "off (speed switch)"
        rows.append((name, row["package"], row["written_for"], row["installed"],
                     row["need"], result))  # fmt: skip
    return table(rows)


def main() -> int:
    """Build the canary's environment, run the guards and a build, print tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="keep the environment here")
    options = parser.parse_args()
    scratch = Path(options.keep or tempfile.mkdtemp(prefix="canary-"))
    python = make_environment(scratch / "venv")
    print(versions_table(python), "\n", flush=True)
    tests = run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 "-n", "2", *GUARD_TESTS])  # fmt: skip
    print("guard tests:", tests.stdout.strip().splitlines()[-1], flush=True)
    report_file = scratch / "reaches.json"
    environment = {
        **os.environ,
        "ATTENTION_DOCS_UPSTREAM_REPORT": str(report_file),
        "ATTENTION_DOCS_CACHE": "off",
        "NO_MKDOCS_2_WARNING": "1",
    }
    build = run(
        [str(python), "-m", "mkdocs", "build", "--strict", "-d", str(scratch / "site")],
        env=environment,
    )
    print("strict build:", "passed" if build.returncode == 0 else "FAILED")
    if build.returncode and not report_file.exists():
        print(build.stderr[-3000:])
    if report_file.exists():
        print(reaches_table(json.loads(report_file.read_text("utf-8"))))
    return 1 if tests.returncode or build.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
