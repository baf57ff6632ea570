"""The build scenarios of the build benchmark: strict builds of a copy, timed.

Used by benchmarks/build.py. Each run builds the copy of the project from the
floor (no code executed, no PDFs) to a rebuild with the PDFs, after a prose
edit and a label-table edit in between; the report compares each with the
floor and with the time every page's code takes once.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from serve import prose_edit
from targets import met

PDF_TIME = re.compile(r"attention_docs pdf: .*, printed in ([\d.]+) s")
LOGS: list[str] = []  # the last build's log


def build(project: Path, **env: str) -> float:
    """Seconds of one strict build of the project, without PDFs unless ``env`` asks."""
    environment = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONPATH": str(project / "src"),
        "ATTENTION_DOCS_CACHE_DIR": str(project / ".cache"),
        "ATTENTION_DOCS_PDF": "off",
        **env,
    }
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stdout}\n{result.stderr}")
    LOGS[:] = [result.stdout + result.stderr]
    return elapsed


def code_once(project: Path) -> float:
    """Seconds to run every page's code blocks and notebook cells in one process."""
    script = r"""
import sys, textwrap, time, jupytext
from pathlib import Path
from attention_docs_site.blocks import blocks
start = time.perf_counter()
for page in sorted(Path("docs").rglob("*.md")):
    text = page.read_text(encoding="utf-8")
    if "kernelspec" in text:
        code = [c.source for c in jupytext.read(page).cells if c.cell_type == "code"]
        namespace = {}
        for cell in code:
            exec(cell.replace("HTML(", "str("), namespace)
        continue
    sessions = {}
    for block in blocks(text):
        if block.executed:
            code = textwrap.dedent(block.code).replace("print(", "str(")
            exec(code, sessions.setdefault(block.session, {}))
print(time.perf_counter() - start)
"""
    env = {**os.environ, "PYTHONPATH": str(project / "src")}
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(result.stdout.strip().splitlines()[-1])


# The build's floor: no code executed, no notebooks run, no PDFs.
FLOOR_SETTINGS = {
    "ATTENTION_DOCS_EXECUTE": "off",
    "ATTENTION_DOCS_EXECUTE_NOTEBOOKS": "false",
    "ATTENTION_DOCS_PDF": "off",
}
FLOOR_COLD = "floor, empty caches"
FLOOR = "floor: no code, no PDFs"
PDFS = "printing both PDFs"


def scenarios(
    project: Path, runs: int, step: Callable[[str], None]
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    cache = project / ".cache"
    page = project / "docs" / "attention-pooling.md"
    labels = project / "src" / "attention_docs" / "labels" / "en" / "figures.py"
    # The floor: no code executed, no PDFs; its own cache folder, emptied
    # before the first of its two builds (the render caches', see
    # attention_docs_site.execute.render_cache).
    floor_cache = project / ".cache-floor"
    floor = {**FLOOR_SETTINGS, "ATTENTION_DOCS_CACHE_DIR": str(floor_cache)}
    for run in range(runs):
        shutil.rmtree(floor_cache, ignore_errors=True)
        step(f"run {run + 1}/{runs}: floor, empty caches")
        times.setdefault(FLOOR_COLD, []).append(build(project, **floor))
        step(f"run {run + 1}/{runs}: floor (no code executed, no PDFs)")
        times.setdefault(FLOOR, []).append(build(project, **floor))
        shutil.rmtree(cache, ignore_errors=True)
        step(f"run {run + 1}/{runs}: cold build, empty cache")
        times.setdefault("cold build, empty cache", []).append(build(project))
        step(f"run {run + 1}/{runs}: rebuild, no change")
        times.setdefault("rebuild, no change", []).append(build(project))
        page.write_text(prose_edit(page.read_text("utf-8"), run), "utf-8")
        step(f"run {run + 1}/{runs}: rebuild after a prose edit")
        times.setdefault("rebuild after a prose edit", []).append(build(project))
        labels.write_text(labels.read_text("utf-8") + f"\n# benchmark edit {run}\n")
        step(f"run {run + 1}/{runs}: rebuild after a label-table edit")
        times.setdefault("rebuild, label-table edit", []).append(build(project))
        step(f"run {run + 1}/{runs}: rebuild with the PDFs")
        times.setdefault("rebuild with the PDFs", []).append(
            build(project, ATTENTION_DOCS_PDF="on")
        )
        printed = PDF_TIME.search(LOGS[0])
        # A checkout from before the plugin timed its printing: the difference.
        printing = times["rebuild with the PDFs"][-1] - times["rebuild, no change"][-1]
        times.setdefault(PDFS, []).append(float(printed[1]) if printed else printing)
    return times


def report_builds(times: dict[str, list[float]], once: float) -> float:
    """Print the build scenarios and their targets; return the floor's median."""
    floor = statistics.median(times[FLOOR])
    print(f"\nBuild times, median of {len(times[next(iter(times))])} runs (seconds)\n")
    print("(no PDFs but in the last; the floor executes no code)\n")
    print(f"{'scenario':<32} {'median':>8} {'/ floor':>8}   runs")
    for name, values in times.items():
        median = statistics.median(values)
        runs = ", ".join(f"{v:.1f}" for v in values)
        print(f"{name:<32} {median:8.2f} {median / floor:8.2f}   {runs}")
    cold = statistics.median(times["cold build, empty cache"])
    prose = statistics.median(times["rebuild after a prose edit"])
    # The earlier targets compare with a floor that caches nothing, as then.
    empty = statistics.median(times[FLOOR_COLD])
    print(f"\nevery page's code once, one process: {once:.2f} s")
    print(f"target: mkdocs build floor <= 6 s: {floor:.2f} s ({met(floor <= 6)})")
    print(f"printing both PDFs: {statistics.median(times[PDFS]):.1f} s (reported)")
    print(
        f"target: prose-edit rebuild <= 1.5 x floor with empty caches: "
        f"{prose / empty:.2f} x ({met(prose <= 1.5 * empty)})"
    )
    limit = empty + 1.3 * once
    print(
        f"target: cold build <= floor with empty caches + 1.3 x code once = "
        f"{limit:.1f} s: {cold:.1f} s ({met(cold <= limit)})"
    )
    return floor
