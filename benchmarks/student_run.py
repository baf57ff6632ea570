"""The student's scenario of the build benchmark: a notebook zip run from scratch.

For each edition, in a brand-new virtual environment that has only pip,
nbclient and ipykernel (a student's Jupyter, set up beforehand and timed
apart): download the edition's notebook zip from the built site served on
127.0.0.1, unpack it and run every notebook in a Jupyter kernel, the setup
cell installing the library from the wheel in the zip (and PyTorch, held to
the machine's local CPU wheel, for the notebooks that import it).
"""

from __future__ import annotations

import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"


def student_runs(site: Path) -> list[tuple[str, float, float, int]]:
    """Per edition: (zip, s to set up Jupyter, s from zip to all run, notebooks)."""
    sys.path.insert(0, str(TESTS))  # the e2e test's student, shared
    from student import JUPYTER, execute, make_venv, student_env, torch_constraints

    from attention_docs_site.site.book.static_server import serve_folder

    rows = []
    zips = sorted(site.glob("**/exercises/notebooks.zip"))
    with serve_folder(site) as address, tempfile.TemporaryDirectory() as scratch:
        for archive in zips:
            name = archive.relative_to(site).as_posix()
            folder = Path(scratch) / name.replace("/", "-")
            start = time.perf_counter()
            python = make_venv(folder / "venv", *JUPYTER)
            ready = time.perf_counter()
            download = folder / "notebooks.zip"
            with urllib.request.urlopen(f"{address}/{name}", timeout=60) as response:
                download.write_bytes(response.read())
            with zipfile.ZipFile(download) as unpacked:
                unpacked.extractall(folder)
            env = student_env(torch_constraints(folder))
            notebooks = sorted(folder.glob("attention_docs-exercises-*/*.ipynb"))
            for notebook in notebooks:
                execute(python, notebook, env)
            done = time.perf_counter()
            rows.append((name, ready - start, done - ready, len(notebooks)))
    return rows


def wheel_sizes(site: Path) -> list[tuple[str, int]]:
    """The wheels the site publishes: (path in the site, bytes)."""
    return [
        (wheel.relative_to(site).as_posix(), wheel.stat().st_size)
        for wheel in sorted(site.glob("dist/*.whl"))
    ]


def report_student(
    wheels: list[tuple[str, int]], rows: list[tuple[str, float, float, int]]
) -> None:
    """Print the wheel's size and each edition's run from its zip."""
    print("\nRun it yourself: the library's wheel, and each notebook zip from scratch")
    for name, size in wheels:
        print(f"{name:<48} {size:9d} bytes")
    head = f"{'zip':<28} {'fresh venv + Jupyter':>21} {'zip -> every notebook run':>26}"
    print(f"\n{head}")
    for name, setup, run, count in rows:
        print(f"{name:<28} {setup:19.1f} s {run:17.1f} s ({count} notebooks)")
