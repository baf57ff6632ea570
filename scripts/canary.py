"""The canary for upgrades: the newest allowed versions against our reaches.

    .venv/bin/python scripts/canary.py [--keep DIR] [--python PY] [--root DIR]

In a throwaway virtual environment it installs torch 2.13.0, then the `test`
group, the library and the plugin at the newest versions ``pyproject.toml``
allows, ignoring the lock (``--python`` runs the same checks in an existing
environment instead, e.g. today's lock in ``.venv``). Every build and server
of the run records, in one report, whether each declared reach applied
(``ATTENTION_DOCS_UPSTREAM_REPORT``, ``upstream/guard.py``):

1. the guard tests;
2. a cold strict build with the execution cache, then a warm one from that
   cache, compared with it byte for byte (every path that reads the cache);
3. the ``mkdocs serve`` tests (a broken page, partial rebuilds);
4. a build with the speed reaches off.

It prints two tables: each dependency with its locked and its newest version,
and each reach with the version it was written for beside the installed one
(a column, not a verdict) and its result. It exits 1 if a step failed, a
reach failed, or a reach that was on was applied by none of the steps (its
anchor is no longer where the code looks). The GitHub workflow runs it every
week (``.github/workflows/canary.yml``); nothing here changes the lock.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from attention_docs_site.upstream.guard import REPORT_VARIABLE as REPORT  # noqa: E402
from attention_docs_site.upstream.guard import verdict  # noqa: E402

SERVE_TESTS = "tests/e2e/test_serve.py"
GUARD_TESTS = [
    "tests/site/test_upstream.py",
    "tests/site/test_site.py",
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
    kwargs.setdefault("cwd", ROOT)
    return subprocess.run(  # noqa: PLW1510 (the caller reads the code)
        command, capture_output=True, text=True, **kwargs
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
    """Each declared reach: versions, upstream report, and its result."""
    rows = [("reach", "package", "written for", "installed", "need", "report",
             "result")]  # fmt: skip
    for name, row in report.items():
        report_state = row["reported"] or ("to file" if row["report"] else "")
        result = verdict(row)
        if not result:
            result = f"applies ({row['applied']}x)" if row["applied"] else "off"
        rows.append((name, row["package"], row["written_for"], row["installed"],
                     row["need"], report_state, result[:160]))  # fmt: skip
    return table(rows)


def steps(python: Path, root: Path, scratch: Path) -> dict[str, bool]:
    """Run every step with the report variable set; whether each passed."""
    environment = {
        **os.environ,
        REPORT: str(scratch / "reaches.json"),
        "NO_MKDOCS_2_WARNING": "1",
        "SOURCE_DATE_EPOCH": "1763769600",  # both builds date their files alike
        "PYTHONPATH": str(root / "src"),
    }

    def build(name: str, **variables: str) -> bool:
        site = scratch / name
        shutil.rmtree(site, ignore_errors=True)
        done = run(
            [str(python), "-m", "mkdocs", "build", "--strict", "-d", str(site)],
            cwd=root,
            env={**environment, **variables},
        )
        if done.returncode:
            print(done.stderr[-3000:])
        return done.returncode == 0

    cache = {"ATTENTION_DOCS_CACHE_DIR": str(scratch / "cache")}
    shutil.rmtree(scratch / "cache", ignore_errors=True)
    passed = {}
    pytest = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", ""]
    # The guard tests break reaches on purpose, and expect them to raise.
    quiet = {k: v for k, v in environment.items() if k != REPORT}
    tests = run([*pytest, *GUARD_TESTS], cwd=root, env=quiet)
    passed["guard tests"] = tests.returncode == 0
    passed["cold build"] = build("cold", **cache)
    passed["warm build"] = build("warm", **cache)
    differ = different(scratch / "cold", scratch / "warm")
    passed["warm build byte for byte"] = passed["warm build"] and not differ
    if differ:
        print("warm build differs:", differ[:10])
    serve = run([*pytest, SERVE_TESTS], cwd=root, env=environment)
    passed["serve tests"] = serve.returncode == 0
    if serve.returncode:
        print(serve.stdout[-3000:])
    passed["build, speed reaches off"] = build(
        "speed-off", ATTENTION_DOCS_SPEED_EDITS="off", **cache
    )
    return passed


def different(one: Path, other: Path) -> list[str]:
    """The files two sites do not share, or whose bytes differ."""
    files = [
        {p.relative_to(site) for p in site.rglob("*") if p.is_file()}
        for site in (one, other)
    ]
    unshared = sorted(str(name) for name in files[0] ^ files[1])
    return unshared + sorted(
        str(name)
        for name in files[0] & files[1]
        if (one / name).read_bytes() != (other / name).read_bytes()
    )


def main() -> int:
    """Build the canary's environment, run every step, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="keep the environment here")
    parser.add_argument("--python", type=Path, help="an existing environment's")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project")
    options = parser.parse_args()
    scratch = Path(options.keep or tempfile.mkdtemp(prefix="canary-"))
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "reaches.json").unlink(missing_ok=True)
    # absolute, not resolved: a venv's python is a link to the base one
    python = options.python.absolute() if options.python else None
    python = python or make_environment(scratch / "venv")
    print(versions_table(python), "\n", flush=True)
    passed = steps(python, options.root.resolve(), scratch)
    for step, ok in passed.items():
        print(f"{step}: {'passed' if ok else 'FAILED'}")
    report_file = scratch / "reaches.json"
    report = json.loads(report_file.read_text("utf-8")) if report_file.exists() else {}
    print(reaches_table(report))
    bad = [name for name, row in report.items() if verdict(row)]
    print(f"reaches failing or not exercised: {bad or 'none'}")
    return 1 if bad or not report or not all(passed.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
