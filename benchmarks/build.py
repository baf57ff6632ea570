"""Build benchmark: timings of the site build, page weights and library scale.

Run from the repository root after `bash scripts/setup.sh test`:

    .venv/bin/python benchmarks/build.py            # 3 runs of each build scenario
    .venv/bin/python benchmarks/build.py --runs 5 --scale 100000
    .venv/bin/python benchmarks/build.py --author   # only the builds and serve
    .venv/bin/python benchmarks/build.py --author --source ../old-clone

It works on a temporary copy of docs/, overrides/, mkdocs.yml and src/ (imported
first through PYTHONPATH) of this checkout, or of ``--source``, so the library
and prose edits it makes never touch the repository. Every figure printed is
measured in this one run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from serve import prose_edit, serve_scenarios
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


FLOOR_COLD = "floor, empty caches"
FLOOR = "floor: no code, no PDFs"
PDFS = "printing both PDFs"


def scenarios(project: Path, runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    cache = project / ".cache"
    page = project / "docs" / "attention-pooling.md"
    labels = project / "src" / "attention_docs" / "labels" / "en.py"
    # The floor: no code executed, no PDFs; its own cache folder, emptied
    # before the first of its two builds (the render caches', see
    # attention_docs_site.execute.render_cache).
    floor_cache = project / ".cache-floor"
    floor = {
        "ATTENTION_DOCS_EXECUTE": "off",
        "ATTENTION_DOCS_EXECUTE_NOTEBOOKS": "false",
        "ATTENTION_DOCS_PDF": "off",
        "ATTENTION_DOCS_CACHE_DIR": str(floor_cache),
    }
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


def page_weights(site: Path) -> list[tuple[str, int, int]]:
    rows = []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text("utf-8")
        figures = re.findall(r"<svg[^>]*class=\"ad-figure\".*?</svg>", html, re.S)
        largest = max((len(f.encode()) for f in figures), default=0)
        rows.append(
            (
                page.parent.relative_to(site).as_posix() or ".",
                len(html.encode()),
                largest,
            )
        )
    return rows


# The explorable figures' script, and the data each explorable page carries.
EXPLORABLE_SCRIPTS = ("assets/explorables.js",)
_EXPLORABLE = re.compile(
    r"<figure class=\"ad-explorable\" data-explorable=\"([a-z-]+)\" "
    r"data-explorable-data='([^']*)'>(.*?)</figure>",
    re.S,
)


def script_sizes(site: Path) -> list[tuple[str, int, int]]:
    """Each explorable script's bytes, raw and after gzip -9."""
    return [
        (name, len(raw), len(gzip.compress(raw, 9, mtime=0)))
        for name in EXPLORABLE_SCRIPTS
        for raw in [(site / name).read_bytes()]
    ]


def explorable_sizes(site: Path) -> list[tuple[str, str, int, int]]:
    """For each explorable figure: its page, kind, data bytes, static drawing bytes."""
    rows = []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text("utf-8")
        for kind, data, static in _EXPLORABLE.findall(html):
            name = page.parent.relative_to(site).as_posix()
            rows.append((name, kind, len(data.encode()), len(static.encode())))
    return rows


def report_explorables(
    scripts: list[tuple[str, int, int]], figures: list[tuple[str, str, int, int]]
) -> None:
    """Print the explorables' script sizes and data, and the script target."""
    print("\nExplorable figures: script (bytes)\n")
    print(f"{'file':<28} {'raw':>7} {'gzip -9':>8}")
    for name, raw, packed in scripts:
        print(f"{name:<28} {raw:7d} {packed:8d}")
    total = sum(packed for _, _, packed in scripts)
    within = met(total <= 15_360)
    print(f"target: all explorable scripts <= 15 KB gzip = 15360: {total} ({within})")
    print("\nExplorable figures: what each page carries (bytes)\n")
    print(f"{'page':<36} {'figure':<18} {'data':>7} {'static SVG':>11}")
    for name, kind, data, static in figures:
        print(f"{name:<36} {kind:<18} {data:7d} {static:11d}")


def search_sizes(site: Path) -> dict[str, tuple[int, int]]:
    """Each edition's search index: (entries, bytes)."""
    sizes = {}
    for lang, index in (("en", site / "search"), ("zh", site / "zh" / "search")):
        raw = (index / "search_index.json").read_bytes()
        sizes[lang] = (len(json.loads(raw)["docs"]), len(raw))
    return sizes


def report_search(sizes: dict[str, tuple[int, int]]) -> None:
    """Print each edition's search index size."""
    print("\nSearch: one index per edition\n")
    for lang, (entries, size) in sizes.items():
        print(f"{lang}: {entries} entries, {size} bytes")


def download_sizes(site: Path) -> list[tuple[str, int, int | None]]:
    """Each edition's PDF and offline zip: (file, bytes, PDF pages or None)."""
    from pypdf import PdfReader

    sizes = []
    for path in sorted([*site.glob("pdf/*.pdf"), *site.glob("offline/*.zip")]):
        pages = len(PdfReader(path).pages) if path.suffix == ".pdf" else None
        sizes.append((path.relative_to(site).as_posix(), path.stat().st_size, pages))
    return sizes


def report_downloads(sizes: list[tuple[str, int, int | None]]) -> None:
    """Print the PDFs' and offline copies' sizes."""
    print("\nDownloads: a PDF and an offline copy of each edition\n")
    for name, size, pages in sizes:
        print(f"{name:<36} {size:9d} bytes" + (f", {pages} pages" if pages else ""))


def heatmap_sizes() -> dict[str, int]:
    from attention_docs import figures

    return {lang: len(figures.identity_heatmap(lang).encode()) for lang in ("en", "zh")}


def scale(n: int) -> tuple[float, float, bool]:
    """Time and extra memory of nadaraya_watson with n queries and n keys."""
    import numpy as np

    from attention_docs import nadaraya_watson

    rng = np.random.default_rng(0)
    x, y, q = rng.uniform(0, 5, n), rng.normal(size=n), rng.uniform(0, 5, n)
    small = 3000
    chunked, _ = nadaraya_watson(
        x[:small], y[:small], q[:small], return_weights=False, chunk_size=7
    )
    whole, _ = nadaraya_watson(x[:small], y[:small], q[:small], chunk_size=small)
    same = bool(np.array_equal(chunked, whole))
    tracemalloc.start()
    start = time.perf_counter()
    nadaraya_watson(x, y, q, bandwidth=0.1, return_weights=False)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak / 2**20, same


def against_statsmodels(n: int, runs: int) -> tuple[float, float, float]:
    import numpy as np
    from statsmodels.nonparametric.kernel_regression import KernelReg

    from attention_docs import nadaraya_watson

    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(0, 5, n))
    y = 2 * np.sin(x) + x**0.8 + rng.normal(0, 0.5, n)
    q = np.linspace(0, 5, n)
    ours, theirs = [], []
    nadaraya_watson(x, y, q, bandwidth=0.3, return_weights=False)  # warm-up
    for _ in range(runs):
        start = time.perf_counter()
        pred, _ = nadaraya_watson(x, y, q, bandwidth=0.3, return_weights=False)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        model = KernelReg(y, x, var_type="c", reg_type="lc", bw=[0.3], rng=0)
        expected, _ = model.fit(q)
        theirs.append(time.perf_counter() - start)
    difference = float(np.max(np.abs(pred - expected)))
    return statistics.median(ours), statistics.median(theirs), difference


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
    prose = medians["prose edit"]
    function = medians["one figure's function (kernel_shapes)"]
    label = medians["a label table entry"]
    print(f"target: prose edit <= 1.5 s: {prose:.2f} s ({met(prose <= 1.5)})")
    print(
        f"target: one figure's function <= 3 s: {function:.2f} s ({met(function <= 3)})"
    )
    limit = 1.2 * (base + once)
    print(
        f"target: label-table edit <= 1.2 x (no change + every block's code once) "
        f"= 1.2 x ({base:.2f} + {once:.2f}) = {limit:.2f} s: {label:.2f} s "
        f"({met(label <= limit)})"
    )


def report_weights(weights: list[tuple[str, int, int]]) -> None:
    """Print each page's weight and the page and heatmap targets."""
    print("\nPage weight (HTML bytes incl. inline SVG, excl. theme assets)\n")
    print(f"{'page':<36} {'bytes':>8} {'largest figure':>15}")
    for page, size, largest in weights:
        print(f"{page:<36} {size:8d} {largest:15d}")
    # The targets are for chapter and exercise pages; the API reference is a
    # long generated listing, reported but not held to them.
    targeted = [row for row in weights if not row[0].endswith("api")]
    heaviest = max(targeted, key=lambda row: row[1])
    biggest = max(weights, key=lambda row: row[2])
    print(
        f"heaviest chapter or exercise page: {heaviest[0]} ({heaviest[1]} bytes, "
        f"target <= 150 KB = 153600: {met(heaviest[1] <= 153_600)})"
    )
    print(f"largest figure: {biggest[2]} bytes, on {biggest[0]}")
    for lang, size in heatmap_sizes().items():
        print(
            f"10x10 heatmap ({lang}): {size} bytes (target <= 6 KB = 6144: "
            f"{met(size <= 6144)})"
        )


def report_library(n: int) -> None:
    """Print nadaraya_watson at scale and against statsmodels."""
    step(f"nadaraya_watson with {n} queries and keys")
    elapsed, peak, same = scale(n)
    step("nadaraya_watson against statsmodels at n = 5000")
    ours, theirs, difference = against_statsmodels(5000, 3)
    print(
        f"\nnadaraya_watson, {n} x {n}, predictions only: {elapsed:.1f} s, peak "
        f"extra memory {peak:.0f} MiB; chunked equals unchunked on 3000 x 3000: "
        f"{same}"
    )
    print(
        f"n = 5000: nadaraya_watson {ours:.3f} s, statsmodels KernelReg "
        f"{theirs:.3f} s, ratio {theirs / ours:.1f} x, max |difference| "
        f"{difference:.1e}"
    )


def commit(checkout: Path) -> str:
    """The checkout's commit, and whether it has uncommitted changes."""
    git = ["git", "-C", str(checkout)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True)
    dirty = subprocess.run([*git, "status", "--porcelain"], capture_output=True)
    name = head.stdout.decode().strip() or "not a git checkout"
    return name + (" with uncommitted changes" if dirty.stdout.strip() else "")


def met(condition: bool) -> str:
    return "met" if condition else "NOT met"


def main() -> None:
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
    args = parser.parse_args()
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
    PROGRESS = Progress(total=1 + 11 * args.runs + (1 if args.author else 5))
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        copy_project(project, args.source.resolve())
        print(f"benchmarking {args.source.resolve()} ({commit(args.source)})")
        step("every page's code once")
        once = code_once(project)
        times = scenarios(project, args.runs)
        if args.author:
            served = serve_scenarios(project, args.runs, step)
            report_builds(times, once)
            report_serve(served, once)
            PROGRESS.close()
            return
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
    report_library(args.scale)
    PROGRESS.close()


if __name__ == "__main__":
    main()
