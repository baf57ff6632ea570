"""A/B of each speed reach: what it buys against the run's noise.

Run from the repository root after `bash scripts/setup.sh test`:

    .venv/bin/python benchmarks/reaches.py serve --size 4 --runs 5
    .venv/bin/python benchmarks/reaches.py floor --runs 5
    .venv/bin/python benchmarks/reaches.py reader --runs 5
    .venv/bin/python benchmarks/reaches.py serve --size 1 --only "<reach name>"

Each ``speed`` reach of ``src/attention_docs_site/upstream/`` is turned off
alone through the benchmarks' switch,
``ATTENTION_DOCS_BENCHMARK_OFF`` (not a reader's option), and measured against
the figure it exists for:

- ``serve``: on a copy of the project with every chapter ``--size`` times, one
  ``mkdocs serve`` per variant; each run saves a prose edit, an edit of one
  figure's function and the same bytes (``benchmarks/serve.py``), and times
  each until the page is served rebuilt.
- ``floor``: warm builds without code or PDFs (``benchmarks/build.py``'s
  floor), MkDocs's own count of seconds, the variants interleaved.
- ``reader``: one build per variant (no PDFs), all served at once with gzip;
  Lighthouse 12's mobile preset on each page, the rounds interleaving the
  variants, so a slow spell of the machine touches every variant alike.

The variant with everything on runs twice, first and last: the difference of
its two medians is the run's noise. A reach is kept when its gain (its
variant's median minus the mean of the two "all on" medians, on the figure it
exists for) is larger than twice that noise.
"""

from __future__ import annotations

import argparse
import contextlib
import filecmp
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from build import copy_project  # noqa: E402
from build_times import FLOOR_SETTINGS, LOGS, build  # noqa: E402
from helpers import SITE_PATH  # noqa: E402
from multiply import multiply_chapters  # noqa: E402
from reader import build_site, lighthouse  # noqa: E402
from serve import Server, edits, save_and_wait  # noqa: E402

from attention_docs_site.site.book.static_server import serve_site  # noqa: E402
from attention_docs_site.upstream import guard, registry  # noqa: E402

ALL_ON = "all on"
BUILT = re.compile(r"Documentation built in ([\d.]+) seconds")
PROSE, FUNCTION, SAME = (
    "prose edit",
    "one figure's function (kernel_shapes)",
    "no change (file saved as it is)",
)
# Each speed reach, and the figure it exists for.
SERVE = {
    "material: search entries from the cache": PROSE,
    "material: the search index's entries": PROSE,
    "mkdocs-jupyter: which files are notebooks, remembered": PROSE,
    "mkdocs: a page skipped by a partial build": PROSE,
    "mkdocs: serve's build delay, 0.03 s": PROSE,
    "mkdocs: serve's rebuilds are partial": PROSE,
    "mkdocs: the theme's files listed once per serve": PROSE,
    "mkdocstrings-python: a cached entry's aliases": PROSE,
    "mkdocstrings: API entries from the cache": PROSE,
    "watchdog: serve polls every 0.1 s": PROSE,
}
# Measured on the floor: warm builds without code or PDFs, MkDocs's own count.
FLOOR_FIGURE = "floor (MkDocs's count)"
FLOOR = {
    "mkdocs-jupyter: notebook tables of contents from the cache": FLOOR_FIGURE,
}
READER = {
    "material: bundle's staggered start": "tbt",
    "material: scripts deferred": "fcp",
    "mkdocs: explorables fetched late": "fcp",
    "mkdocstrings: style sheet on API pages only": "fcp",
}
READER_PAGES = ["attention-pooling/", "zh/attention-pooling/"]
UNITS = {FLOOR_FIGURE: "s", PROSE: "s", FUNCTION: "s", SAME: "s"}
UNITS |= {"tbt": "ms", "fcp": "s", "lcp": "s", "cls": ""}


def check_lists() -> None:
    """Every speed reach is measured by exactly one of the parts."""
    speed = {reach.name for reach in registry.reaches() if reach.need == "speed"}
    listed = SERVE.keys() | FLOOR.keys() | READER.keys()
    if listed != speed:
        missing, gone = sorted(speed - listed), sorted(listed - speed)
        raise SystemExit(
            f"reaches.py's lists are stale: unlisted {missing}, gone {gone}"
        )


def variants(names: dict[str, str], only: list[str] | None) -> list[str]:
    """The variants: all on, each name off alone, all on again."""
    chosen = only or list(names)
    if unknown := sorted(set(chosen) - names.keys()):
        raise SystemExit(f"not measured by this part: {unknown}")
    return [ALL_ON, *chosen, ALL_ON]


def labelled(chosen: list[str]) -> list[str]:
    """Each variant's label: the two "all on" runs told apart by their place."""
    return [f"{v} ({i})" if v == ALL_ON else v for i, v in enumerate(chosen)]


def switch(variant: str) -> dict[str, str]:
    return {guard.BENCHMARK_VARIABLE: "" if variant == ALL_ON else variant}


def serve_variant(
    project: Path, variant: str, runs: int, counter: list[int]
) -> dict[str, list[float]]:
    """One `mkdocs serve` with ``variant`` off: each scenario's seconds, per run."""
    scenarios = edits(project)
    start = time.perf_counter()
    server = Server(project, switch(variant))
    times: dict[str, list[float]] = {"first build": [time.perf_counter() - start]}
    try:
        page = scenarios[SAME].path
        after = len(server.lines)
        page.write_text(page.read_text("utf-8") + "\n", "utf-8")  # the warm-up
        server.wait_for_rebuild(after)
        for _ in range(runs):
            counter[0] += 1  # each edit is new to the cache, in every variant
            for name in (PROSE, FUNCTION, SAME):
                seconds, _ = save_and_wait(server, scenarios[name], counter[0])
                times.setdefault(name, []).append(seconds)
    finally:
        server.stop()
    return times


def measure_serve(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    results: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        copy_project(project)
        if args.size > 1:
            multiply_chapters(project, args.size)
        counter, failed = [0], []
        print("serve: a first serve fills the cache ...", file=sys.stderr, flush=True)
        serve_variant(project, ALL_ON, 1, counter)
        chosen = variants(SERVE, args.only)
        for label, variant in zip(labelled(chosen), chosen, strict=True):
            print(f"serve: {label} ...", file=sys.stderr, flush=True)
            try:
                results[label] = serve_variant(project, variant, args.runs, counter)
            except SystemExit as failure:  # a variant that cannot serve: say so
                print(f"  FAILED: {str(failure)[-2000:]}", file=sys.stderr)
                failed.append(label)
            save(args, results)
    for label in failed:
        print(f"{label}: its serve FAILED (stderr has its log)")
    return results


def measure_floor(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    """Warm floor builds of the project, the variants interleaved round by round."""
    chosen = variants(FLOOR, args.only)
    labels = labelled(chosen)
    results: dict[str, dict[str, list[float]]] = {label: {} for label in labels}
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        copy_project(project)
        settings = {**FLOOR_SETTINGS, "ATTENTION_DOCS_CACHE_DIR": str(project / "f")}
        for round_ in range(args.runs + 1):  # the first round fills the caches
            for label, variant in zip(labels, chosen, strict=True):
                print(f"floor {round_}/{args.runs}: {label}", file=sys.stderr)
                build(project, **settings, **switch(variant))
                built = float(BUILT.findall(LOGS[0])[-1])
                if round_:
                    results[label].setdefault(FLOOR_FIGURE, []).append(built)
            save(args, results)
    return results


def differing(first: Path, second: Path) -> int:
    """How many files of the two sites differ or are in one only."""
    count = 0
    for folder, _, names in os.walk(first):
        for name in names:
            path = Path(folder) / name
            other = second / path.relative_to(first)
            count += not other.exists() or not filecmp.cmp(path, other, shallow=False)
    return count


def measure_reader(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    chosen = variants(READER, args.only)
    labels = labelled(chosen)
    results: dict[str, dict[str, list[float]]] = {label: {} for label in labels}
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        work = Path(folder)
        urls = {}
        for index, (label, variant) in enumerate(zip(labels, chosen, strict=True)):
            print(f"reader: building {label} ...", file=sys.stderr, flush=True)
            site = work / str(index)
            build_site(ROOT, site, **switch(variant))  # caches shared: site/../cache
            if index:
                print(
                    f"  {differing(work / '0', site)} files differ from all on (0)",
                    file=sys.stderr,
                )
            urls[label] = stack.enter_context(serve_site(site, SITE_PATH))
        for round_ in range(args.runs):
            for label in labels:
                print(f"reader {round_ + 1}/{args.runs}: {label}", file=sys.stderr)
                for page in args.pages:
                    figures = lighthouse(urls[label] + page, work / "report.json")
                    for key in ("tbt", "fcp", "lcp", "cls"):
                        results[label].setdefault(f"{page} {key}", []).append(
                            figures[key]
                        )
            save(args, results)
    return results


def save(args: argparse.Namespace, results: dict[str, dict[str, list[float]]]) -> None:
    """The figures so far, as JSON, when ``--save`` names a file."""
    if args.save:
        args.save.write_text(json.dumps(results, indent=1), encoding="utf-8")


def report(
    results: dict[str, dict[str, list[float]]], figures: dict[str, str], runs: int
) -> None:
    """Each variant's medians, its gain, the noise, and the verdict."""
    first, last = (label for label in results if label.startswith(ALL_ON))
    columns = list(results[first])
    print(f"\nmedians of {runs} runs; 'all on' twice, first and last (noise)\n")
    for column in columns:
        print(f"{column}:")
        a = statistics.median(results[first][column])
        b = statistics.median(results[last][column])
        base, noise = (a + b) / 2, abs(a - b)
        for label, values in results.items():
            if column not in values:
                continue
            median = statistics.median(values[column])
            runs_text = ", ".join(f"{v:.3g}" for v in values[column])
            gain = median - base
            print(f"  {label:<60} {median:8.3f}  gain {gain:+8.3f}  [{runs_text}]")
        print(f"  noise (|all on (first) - all on (last)|): {noise:.3f}\n")
    print("verdicts (gain on the figure each exists for, against 2 x that noise):")
    for label in results:
        if label.startswith(ALL_ON) or label not in figures:
            continue
        figure = figures[label]
        matching = [c for c in columns if c == figure or c.endswith(f" {figure}")]
        for column in matching:
            a = statistics.median(results[first][column])
            b = statistics.median(results[last][column])
            gain = statistics.median(results[label][column]) - (a + b) / 2
            noise = abs(a - b)
            verdict = "KEEP" if gain > 2 * noise else "goes"
            print(
                f"  {verdict:<5} {label:<60} {column}: gain {gain:+.3f} "
                f"{UNITS[figure]}, 2 x noise {2 * noise:.3f}"
            )


PARTS = {
    "serve": (measure_serve, SERVE),
    "floor": (measure_floor, FLOOR),
    "reader": (measure_reader, READER),
}


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=list(PARTS))
    parser.add_argument("--runs", type=int, default=5, help="runs per variant")
    parser.add_argument(
        "--size", type=int, default=4, help="serve: every chapter N times"
    )
    parser.add_argument(
        "--pages", nargs="+", default=READER_PAGES, help="reader: the pages"
    )
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these variants")
    parser.add_argument("--save", type=Path, help="write the figures as JSON here")
    parser.add_argument(
        "--load", type=Path, help="only report the figures a --save wrote"
    )
    return parser.parse_args()


def main() -> None:
    args = arguments()
    check_lists()
    measure, figures = PARTS[args.part]
    if args.load:
        results = json.loads(args.load.read_text("utf-8"))
    else:
        results = measure(args)
    report(results, figures, args.runs)


if __name__ == "__main__":
    main()
