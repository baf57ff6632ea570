"""Where a save's rebuild under `mkdocs serve` spends its time: fixed cost or per page.

    .venv/bin/python benchmarks/serve_profile.py            # 5 prose edits, 1 x
    .venv/bin/python benchmarks/serve_profile.py --size 4   # every chapter 4 times

On a temporary copy of the project (chapters multiplied as ``build.py --author
--size`` does), this runs MkDocs' serve builder in-process: one first build,
then a prose edit of attention-pooling.md per run, each rebuild timed by
phase with wall-clock timers around MkDocs's and the plugins' steps. It
prints the median of each phase, split into what every rebuild pays whatever
it renders (fixed) and what it pays per rendered page. The wait before a
rebuild starts (serve's polling, 0.1 s, and its build delay, 0.1 s) is not
in these figures: `build.py --author` measures from the save.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import gc
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

from build import copy_project
from multiply import multiply_chapters
from serve import figure_edit, prose_edit

ROOT = Path(__file__).resolve().parents[1]
SPENT: dict[str, float] = defaultdict(float)
COUNTS: dict[str, int] = defaultdict(int)


def timed(name: str, function: Callable[..., object]) -> Callable[..., object]:
    """``function``, its time added to ``name``; a page counted when rendered."""
    from attention_docs_site.upstream.mkdocs_dirty import partial

    @functools.wraps(function)
    def wrapper(*args: object, **kwargs: object) -> object:
        page = getattr(args[0], "file", None) if args else None
        if page is not None and (not partial() or page.is_modified()):
            COUNTS[name] += 1
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[name] += time.perf_counter() - start

    return wrapper


@contextlib.contextmanager
def timers() -> Iterator[None]:
    """Wall-clock timers around the steps of a build (nested builds add up)."""
    import mkdocs.commands.build as build
    import mkdocs.config
    from material.plugins.search.plugin import SearchIndex
    from mkdocs.structure.files import Files

    import attention_docs_site.markdown.code_names as code_names
    import attention_docs_site.plugin as plugin
    import attention_docs_site.site.finish as finish
    import attention_docs_site.site.links as links
    from attention_docs_site.execute.cache import ExecCache
    from attention_docs_site.execute.fence import CachedFence

    wrapped = [
        (mkdocs.config, "load_config", "load mkdocs.yml"),
        (ExecCache, "start_build", "execution cache: library re-read"),
        (build, "get_files", "list docs/"),
        (Files, "add_files_from_theme", "list the theme's files"),
        (build, "_populate_page", "read and render pages"),
        (CachedFence, "_run", "  of which: blocks run"),
        (build, "_build_page", "template and write pages"),
        (plugin, "finish_site", "whole-site steps"),
        (links, "check_site", "  of which: link check"),
        (finish, "write_logos", "  of which: logos"),
        (finish, "write_wheel", "  of which: wheel"),
        (code_names, "_index", "library's names read (griffe)"),
        (SearchIndex, "add_entry_from_context", "search entries"),
    ]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in wrapped]
    for owner, name, label in wrapped:
        setattr(owner, name, timed(label, getattr(owner, name)))
    try:
        yield
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


def _time_collections() -> Callable[[str, dict[str, int]], None]:
    """A ``gc`` callback that adds each collection's time to its generation's phase."""
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            name = f"garbage collection (gen {info['generation']})"
            SPENT[name] += time.perf_counter() - started.pop()

    return callback


PER_PAGE = ("read and render pages", "template and write pages")  # blocks in the first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1, help="chapters times N")
    parser.add_argument("--runs", type=int, default=5, help="saves timed")
    parser.add_argument(
        "--edit",
        choices=("prose", "figure"),
        default="prose",
        help="a prose edit of attention-pooling.md, or of kernel_shapes",
    )
    parser.add_argument(
        "--cprofile", type=Path, help="also write cProfile's stats of the timed saves"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        copy_project(project)
        if args.size > 1:
            multiply_chapters(project, args.size)
        cache = ROOT / ".cache" / "attention_docs"
        if cache.is_dir():  # the checkout's entries serve the originals
            shutil.copytree(cache, project / ".cache" / "attention_docs")
        sys.path.insert(0, str(project / "src"))
        os.environ["NO_MKDOCS_2_WARNING"] = "1"
        os.chdir(project)
        profile(project, args.runs, args.size, args.edit, args.cprofile)


def profile(
    project: Path, runs: int, size: int, edit: str, stats: Path | None = None
) -> None:
    from mkdocs.commands import serve
    from mkdocs.config import load_config
    from mkdocs.livereload import _serve_url

    logging.basicConfig(level=logging.ERROR)
    site = tempfile.mkdtemp(prefix="mkdocs_")
    config = load_config(config_file="mkdocs.yml", site_dir=site)
    config.plugins.on_startup(command="serve", dirty=False)
    url = _serve_url(*config.dev_addr, "/attention_docs/")
    config.site_url = url
    serve.build(config, serve_url=url)  # the first build, every page

    def rebuild() -> None:
        again = load_config(config_file="mkdocs.yml", site_dir=site)
        again.site_url = url
        serve.build(again, serve_url=url)

    page = project / "docs" / "attention-pooling.md"
    if edit == "figure":
        page = next(
            path
            for path in (project / "src" / "attention_docs").rglob("*.py")
            if "def kernel_shapes(" in path.read_text("utf-8")
        )
    change = prose_edit if edit == "prose" else figure_edit
    rebuild()  # a first rebuild loads what later ones reuse
    phases: dict[str, list[float]] = defaultdict(list)
    pages: list[int] = []
    gc.callbacks.append(_time_collections())
    profiler = cProfile.Profile() if stats else None
    with timers():
        for run in range(runs):
            page.write_text(change(page.read_text("utf-8"), run), "utf-8")
            SPENT.clear()
            COUNTS.clear()
            start = time.perf_counter()
            with profiler or contextlib.nullcontext():
                rebuild()
            phases["rebuild, in all"].append(time.perf_counter() - start)
            for name, seconds in SPENT.items():
                phases[name].append(seconds)
            pages.append(COUNTS["template and write pages"])
    report(phases, statistics.median(pages), size, edit)
    if profiler and stats:
        profiler.dump_stats(stats)
    shutil.rmtree(site)


def report(phases: dict[str, list[float]], pages: float, size: int, edit: str) -> None:
    total = statistics.median(phases["rebuild, in all"])
    print(f"\nA {edit} edit's rebuild at {size} x, in-process (median seconds)\n")
    print(f"{'phase':<34} {'median':>7}   runs")
    for name, values in phases.items():
        runs = ", ".join(f"{v:.3f}" for v in values)
        print(f"{name:<34} {statistics.median(values):7.3f}   {runs}")
    per_page = sum(
        statistics.median(phases[name]) for name in PER_PAGE if name in phases
    )
    print(
        f"\npages rendered per rebuild (both editions): {pages:.0f}; per page "
        f"{per_page / max(pages, 1):.3f} s; fixed (the rest): {total - per_page:.3f} s"
    )


if __name__ == "__main__":
    main()
