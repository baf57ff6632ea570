"""Build benchmark: timings of the site build, page weights and library scale.

Run from the repository root after `bash scripts/setup.sh test`:

    .venv/bin/python benchmarks/build.py            # 3 runs of each build scenario
    .venv/bin/python benchmarks/build.py --runs 5 --scale 100000
    .venv/bin/python benchmarks/build.py --author   # only the builds and serve
    .venv/bin/python benchmarks/build.py --author --source ../old-clone
    .venv/bin/python benchmarks/build.py --author --size 4   # at 1 x and 4 x

It works on a temporary copy of docs/, overrides/, mkdocs.yml and src/ (imported
first through PYTHONPATH) of this checkout, or of ``--source``, so the library
and prose edits it makes never touch the repository. Every figure printed is
measured in this one run.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from build_times import FLOOR_SETTINGS, build, code_once, report_builds, scenarios
from library_scale import report_library
from multiply import chapters, multiply_chapters, report_sizes
from serve import report_serve, serve_scenarios
from site_weights import (
    download_sizes,
    explorable_sizes,
    page_weights,
    report_downloads,
    report_explorables,
    report_search,
    report_weights,
    script_sizes,
    search_sizes,
)
from student_run import report_student, student_runs, wheel_sizes
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("mkdocs.yml", "pyproject.toml", "LICENSE", "docs", "overrides", "src")


class Progress:
    """A progress bar on stderr over the benchmark's steps (tqdm)."""

    def __init__(self, total: int) -> None:
        self._bar = tqdm(total=total, file=sys.stderr, unit="step", leave=False)
        self._started = False

    def step(self, message: str) -> None:
        """Mark the previous step done and show the one starting now."""
        if self._started:
            self._bar.update()
        self._started = True
        self._bar.set_description(message)

    def close(self) -> None:
        """Complete the bar and remove it."""
        self._bar.update()
        self._bar.close()


PROGRESS: Progress | None = None


def step(message: str) -> None:
    if PROGRESS is not None:
        PROGRESS.step(message)


def copy_project(target: Path, root: Path = ROOT) -> None:
    for name in SOURCES:
        source = root / name
        if source.is_dir():
            shutil.copytree(
                source,
                target / name,
                ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
            )
        else:
            shutil.copy2(source, target / name)
    pyodide = root / "tools" / "pyodide"  # what the build publishes, linked
    if pyodide.is_dir():
        (target / "tools").mkdir(exist_ok=True)
        (target / "tools" / "pyodide").symlink_to(pyodide, target_is_directory=True)


def commit(checkout: Path) -> str:
    """The checkout's commit, and whether it has uncommitted changes."""
    git = ["git", "-C", str(checkout)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True)
    dirty = subprocess.run([*git, "status", "--porcelain"], capture_output=True)
    name = head.stdout.decode().strip() or "not a git checkout"
    return name + (" with uncommitted changes" if dirty.stdout.strip() else "")


def arguments() -> argparse.Namespace:
    """The command line's arguments."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each scenario")
    parser.add_argument(
        "--scale",
        type=int,
        default=100_000,
        help="queries and keys for the large nadaraya_watson run",
    )
    parser.add_argument(
        "--weights",
        type=Path,
        metavar="SITE",
        help="only weigh an already built site (pages, explorables) and stop",
    )
    parser.add_argument(
        "--author",
        action="store_true",
        help="only the author's loop: the build and serve scenarios",
    )
    parser.add_argument(
        "--size",
        type=int,
        default=1,
        metavar="N",
        help="with --author: the floor and serve scenarios at 1 x and on a copy "
        "with every chapter N times (both editions), side by side",
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=ROOT,
        metavar="CHECKOUT",
        help="benchmark another checkout of the project (e.g. the commit before)",
    )
    parser.add_argument(
        "--student",
        type=Path,
        metavar="SITE",
        help="only run an already built site's notebook zips from scratch and stop",
    )
    return parser.parse_args()


def timed_builds(
    project: Path, args: argparse.Namespace
) -> tuple[float, dict[str, list[float]]]:
    """Copy the project, then time every page's code once and the build scenarios."""
    copy_project(project, args.source.resolve())
    print(f"benchmarking {args.source.resolve()} ({commit(args.source)})")
    step("every page's code once")
    once = code_once(project)
    return once, scenarios(project, args.runs, step)


def author_loop(args: argparse.Namespace) -> None:
    """``--author``: the build and serve scenarios, and their report."""
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        once, times = timed_builds(project, args)
        served = serve_scenarios(project, args.runs, step)
        report_builds(times, once)
        report_serve(served, once)


def author_loop_at_sizes(args: argparse.Namespace) -> None:
    """``--author --size N``: the floor and serve scenarios at 1 x and N x."""
    served, floors = {}, {}
    for size in (1, args.size):
        with tempfile.TemporaryDirectory() as folder:
            project = Path(folder)
            copy_project(project, args.source.resolve())
            count = len(chapters(project))
            if size > 1:
                multiply_chapters(project, size)
            floor = {**FLOOR_SETTINGS, "ATTENTION_DOCS_CACHE_DIR": str(project / "f")}
            floors[size] = []
            for run in range(args.runs):
                step(f"{size} x, run {run + 1}/{args.runs}: floor, twice")
                build(project, **floor)  # fills the floor's render caches
                floors[size].append(build(project, **floor))
            served[size] = serve_scenarios(project, args.runs, step)
    print(f"benchmarking {args.source.resolve()} ({commit(args.source)})")
    report_sizes(args.size, count, served, floors)


def everything(args: argparse.Namespace) -> None:
    """The build and serve scenarios, the site's weights, the student, the library."""
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        once, times = timed_builds(project, args)
        step("cold build to weigh the pages")
        shutil.rmtree(project / ".cache", ignore_errors=True)
        build(project, ATTENTION_DOCS_PDF="on")
        weights = page_weights(project / "site")
        explorables = script_sizes(project / "site"), explorable_sizes(project / "site")
        searches = search_sizes(project / "site")
        downloads = download_sizes(project / "site")
        step("each notebook zip run in a fresh environment")
        student = wheel_sizes(project / "site"), student_runs(project / "site")
        served = serve_scenarios(project, args.runs, step)
    report_builds(times, once)
    report_serve(served, once)
    report_weights(weights)
    report_explorables(*explorables)
    report_search(searches)
    report_downloads(downloads)
    report_student(*student)
    report_library(args.scale, step)


def main() -> None:
    args = arguments()
    if args.weights:
        report_weights(page_weights(args.weights))
        report_explorables(script_sizes(args.weights), explorable_sizes(args.weights))
        report_search(search_sizes(args.weights))
        report_downloads(download_sizes(args.weights))
        return
    if args.student:
        report_student(wheel_sizes(args.student), student_runs(args.student))
        return

    global PROGRESS
    # code once, seven builds and four saves under serve per run, the weighed
    # build, the serve's first build, the student's zips, scale, statsmodels
    if args.author and args.size > 1:
        PROGRESS = Progress(total=2 * (1 + 5 * args.runs))
        author_loop_at_sizes(args)
        PROGRESS.close()
        return
    PROGRESS = Progress(total=1 + 11 * args.runs + (1 if args.author else 5))
    if args.author:
        author_loop(args)
    else:
        everything(args)
    PROGRESS.close()


if __name__ == "__main__":
    main()
