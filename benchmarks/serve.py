"""The author's loop under `mkdocs serve`: from saving a file to the rebuilt page.

Used by benchmarks/build.py. A real `mkdocs serve` (cache on, notebooks run)
serves a copy of the project; each scenario saves one file and times the wait
until the server has rebuilt the site and serves the changed page.
"""

from __future__ import annotations

import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from targets import SERVE_TARGETS, met

WAIT = 600  # seconds, for any one rebuild
CACHE_LINE = re.compile(r"attention_docs cache \(on\): (\d+) hits, (\d+) misses")


class Server:
    """A `mkdocs serve` process on a free port, its log read as it comes."""

    def __init__(self, project: Path, env: dict[str, str] | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {
            **os.environ,
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONPATH": str(project / "src"),
            "ATTENTION_DOCS_CACHE_DIR": str(project / ".cache"),
            **(env or {}),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{self.port}"],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for_rebuild(0)

    def _read(self) -> None:
        for line in self.process.stdout or ():
            self.lines.append(line)

    def wait_for_rebuild(self, after: int) -> str:
        """The log of the first build that completes after line ``after``."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            log = "".join(self.lines[after:])
            if "Reloading browsers" in log or "Serving on" in log:
                return log
            if self.process.poll() is not None or "ERROR" in log:
                raise SystemExit(f"mkdocs serve failed:\n{''.join(self.lines)}")
            time.sleep(0.05)
        raise SystemExit(f"no rebuild within {WAIT} s:\n{''.join(self.lines)}")

    def page(self, path: str) -> str:
        url = f"http://127.0.0.1:{self.port}/attention_docs/{path}"
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


@dataclass
class Edit:
    """One save: the file, how its text changes, and what the page then shows."""

    path: Path
    change: Callable[[str, int], str]
    page: str
    shows: Callable[[int], str | None]
    reruns: bool  # whether blocks must re-run (else none may)


def _edit_once(pattern: str, replacement: str, text: str, what: str) -> str:
    """``text`` with its one match of ``pattern`` replaced (else stop, naming it)."""
    edited, count = re.subn(pattern, replacement, text)
    if count != 1:
        raise SystemExit(f"the {what} no longer matches")
    return edited


def prose_edit(text: str, run: int) -> str:
    """The attention-pooling page with a few words of its first paragraph changed."""
    return _edit_once(
        r"small enough( \(edit -?\d+\))?(\s+)to",
        rf"small enough (edit {run})\2to",
        text,
        "prose edit of attention-pooling.md",
    )


def figure_edit(text: str, run: int) -> str:
    """kernel_shapes drawn from one more sample point than in the last run."""
    return _edit_once(
        r"u = np\.linspace\(-2\.5, 2\.5, \d+\)",
        f"u = np.linspace(-2.5, 2.5, {502 + run})",
        text,
        "edit of kernel_shapes",
    )


def edits(project: Path) -> dict[str, Edit]:
    """The four scenarios: the same bytes saved, prose, one function, a label."""
    page = project / "docs" / "attention-pooling.md"
    library = project / "src" / "attention_docs"
    figures = next(
        path
        for path in library.rglob("*.py")
        if "def kernel_shapes(" in path.read_text()
    )
    labels = project / "src" / "attention_docs" / "labels" / "en" / "figures.py"
    return {
        "no change (file saved as it is)": Edit(
            page, lambda text, run: text, "attention-pooling/", lambda run: None, False
        ),
        "prose edit": Edit(
            page,
            prose_edit,
            "attention-pooling/",
            lambda run: f"small enough (edit {run})",
            reruns=False,
        ),
        "one figure's function (kernel_shapes)": Edit(
            figures,
            figure_edit,
            "attention-pooling/",
            lambda run: None,
            reruns=True,
        ),
        "a label table entry": Edit(
            labels,
            lambda text, run: re.sub(
                r'"keys": "Keys[^"]*"', f'"keys": "Keys {run}"', text
            ),
            "queries-keys-values/",
            lambda run: f">Keys {run}</text>",
            reruns=True,
        ),
    }


def save_and_wait(server: Server, edit: Edit, run: int) -> tuple[float, int]:
    """Seconds from saving the edit to the rebuilt page, and the blocks re-run."""
    text = edit.change(edit.path.read_text("utf-8"), run)
    after = len(server.lines)
    start = time.perf_counter()
    edit.path.write_text(text, "utf-8")
    log = server.wait_for_rebuild(after)
    elapsed = time.perf_counter() - start
    expected = edit.shows(run)
    if expected is not None and expected not in server.page(edit.page):
        raise SystemExit(f"the rebuilt page does not show {expected!r}")
    misses = sum(int(m) for _, m in CACHE_LINE.findall(log))
    if bool(misses) != edit.reruns:
        raise SystemExit(f"{edit.path.name}: {misses} blocks re-run:\n{log}")
    return elapsed, misses


def serve_scenarios(
    project: Path, runs: int, step: Callable[[str], None]
) -> dict[str, list[tuple[float, int]]]:
    """Each scenario ``runs`` times, in turn, on one server after a warm-up."""
    step("serve: first build")
    server = Server(project)
    scenarios = edits(project)
    times: dict[str, list[tuple[float, int]]] = {name: [] for name in scenarios}
    try:
        warm = scenarios["no change (file saved as it is)"].path
        after = len(server.lines)
        # The first rebuild of a serve is slower; one that changes nothing
        # builds nothing, so the warm-up adds a blank line to the page.
        warm.write_text(warm.read_text("utf-8") + "\n", "utf-8")
        server.wait_for_rebuild(after)
        for run in range(runs):
            for name, edit in scenarios.items():
                step(f"serve run {run + 1}/{runs}: {name}")
                times[name].append(save_and_wait(server, edit, run))
    finally:
        server.stop()
    return times


def report_serve(times: dict[str, list[tuple[float, int]]], once: float) -> None:
    """Print the serve scenarios against the no-change rebuild, with targets."""
    print("\nmkdocs serve: from saving a file to the rebuilt page (seconds)\n")
    print(f"{'scenario':<40} {'median':>7} {'/ none':>7} {'re-run':>7}   runs")
    base = statistics.median(t for t, _ in times["no change (file saved as it is)"])
    medians = {}
    for name, values in times.items():
        medians[name] = statistics.median(t for t, _ in values)
        runs = ", ".join(f"{t:.1f}" for t, _ in values)
        reruns = statistics.median(m for _, m in values)
        print(
            f"{name:<40} {medians[name]:7.2f} {medians[name] / base:7.2f} "
            f"{reruns:7.0f}   {runs}"
        )
    label = medians["a label table entry"]
    for name, limit in SERVE_TARGETS.items():
        value = medians[name]
        print(f"target: {name} <= {limit} s: {value:.2f} s ({met(value <= limit)})")
    limit = 1.2 * (base + once)
    print(
        f"target: label-table edit <= 1.2 x (no change + every block's code once) "
        f"= 1.2 x ({base:.2f} + {once:.2f}) = {limit:.2f} s: {label:.2f} s "
        f"({met(label <= limit)})"
    )
