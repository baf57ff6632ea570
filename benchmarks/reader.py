"""Reader benchmark: a first visit to each chapter and exercise, as Lighthouse sees it.

Run from the repository root after `bash scripts/setup.sh test` (Node 20 and
npm on the PATH; Chromium at /usr/bin/chromium, or CHROME_PATH):

    .venv/bin/python benchmarks/reader.py
    .venv/bin/python benchmarks/reader.py --plain   # served without gzip
    .venv/bin/python benchmarks/reader.py --pages zh/attention-pooling/  # a few

In one run it builds the site strictly (without the PDFs, which no page
loads), builds a bare Material for MkDocs site from one chapter's prose (its
code blocks left out, no plugin, no extra style sheet or script, no web
font), serves both on localhost with gzip as GitHub Pages does, and runs
Lighthouse 12 (``npx lighthouse@12``, mobile preset: simulated slow 4G and a
slowed CPU) on every chapter and exercise page of both editions and on the
bare page. It prints each page's performance score, first and largest
contentful paint, total blocking time, layout shift and bytes transferred,
the ratio of its first paint to the bare page's, and each target with "met"
or "NOT met". Lighthouse's figures vary from run to run, so each page is
measured several times (``--runs``, 3 by default; the rounds interleave the
pages, so a slow spell of the machine touches every page alike) and the table
holds each figure's median, as Lighthouse's own guidance on variability
advises; compare pages within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from helpers import CHAPTERS, LANGS, NOTEBOOK_PAGES, SITE_PATH  # noqa: E402
from targets import met  # noqa: E402

from attention_docs_site.site.book.static_server import serve_site  # noqa: E402

LIGHTHOUSE = "lighthouse@12"
BARE_CHAPTER = "attention-cues"
FONT = Path("assets") / "fonts" / "NotoSansMath-Regular.woff2"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-background-networking"
_FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$\n?", re.M | re.S)


def build_site(source: Path, target: Path, **extra: str) -> None:
    """The site, strictly, as CI builds it but without the PDFs (``extra``: env)."""
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "ATTENTION_DOCS_PDF": "off",
        "PYTHONPATH": str(source / "src"),
        "ATTENTION_DOCS_CACHE_DIR": str(target.parent / "cache"),
        **extra,
    }
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(target)]
    result = subprocess.run(
        command, cwd=source, env=env, capture_output=True, text=True
    )
    if result.returncode:
        raise SystemExit(f"the site's build failed:\n{result.stderr[-3000:]}")


def build_bare(source: Path, target: Path) -> None:
    """A bare Material site of one page: the chapter's prose, nothing added."""
    chapter = source / "docs" / f"{BARE_CHAPTER}.md"
    prose = _FENCE.sub("", chapter.read_text("utf-8"))
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        (project / "docs").mkdir()
        (project / "docs" / "index.md").write_text(prose, encoding="utf-8")
        (project / "mkdocs.yml").write_text(
            "site_name: bare\nsite_url: http://127.0.0.1/bare/\n"
            "theme:\n  name: material\n  font: false\n",
            encoding="utf-8",
        )
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        command = [sys.executable, "-m", "mkdocs", "build", "-d", str(target)]
        subprocess.run(command, cwd=project, env=env, check=True, capture_output=True)


def lighthouse(url: str, report: Path) -> dict[str, float]:
    """One Lighthouse run (mobile preset) of a page: its figures."""
    env = {
        **os.environ,
        "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium"),
    }
    command = [
        "npx",
        "--yes",
        LIGHTHOUSE,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--only-categories=performance,accessibility,best-practices,seo",
    ]
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=300)
    data = json.loads(report.read_text("utf-8"))
    audits = data["audits"]
    return {
        "performance": data["categories"]["performance"]["score"] * 100,
        "accessibility": data["categories"]["accessibility"]["score"] * 100,
        "best practices": data["categories"]["best-practices"]["score"] * 100,
        "seo": data["categories"]["seo"]["score"] * 100,
        "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "kib": audits["total-byte-weight"]["numericValue"] / 1024,
    }


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over a page's runs."""
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def arguments() -> argparse.Namespace:
    """The command line's arguments."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--plain", action="store_true", help="serve without gzip (an offline copy)"
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=ROOT,
        metavar="CHECKOUT",
        help="measure another checkout of the project (e.g. the commit before)",
    )
    parser.add_argument(
        "--pages",
        nargs="+",
        metavar="PAGE",
        help="measure only these pages (e.g. zh/attention-pooling/); the targets "
        "then speak for those pages only",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=3,
        metavar="N",
        help="Lighthouse runs per page; the table holds the medians (default 3)",
    )
    args = parser.parse_args()
    if args.runs < 1:
        parser.error(f"--runs must be 1 or more, not {args.runs}")
    return args


def measure(
    args: argparse.Namespace, pages: list[str]
) -> tuple[dict[str, list[dict[str, float]]], int]:
    """Each page's Lighthouse runs, the bare page's first, and the math font's bytes."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        print("building the site and the bare page ...", file=sys.stderr)
        source = args.source.resolve()
        print(f"measuring {source}", file=sys.stderr)
        build_site(source, work / "site")
        build_bare(source, work / "bare")
        font = (work / "site" / FONT).stat().st_size
        runs: dict[str, list[dict[str, float]]] = {}
        with (
            serve_site(work / "site", SITE_PATH, compress=not args.plain) as site,
            serve_site(work / "bare", "/bare/", compress=not args.plain) as bare,
        ):
            for round_ in range(1, args.runs + 1):
                for name, url in [
                    ("bare Material page", bare),
                    *((p, site + p) for p in pages),
                ]:
                    print(
                        f"lighthouse {name} ({round_}/{args.runs}) ...", file=sys.stderr
                    )
                    runs.setdefault(name, []).append(
                        lighthouse(url, work / "report.json")
                    )
    return runs, font


def report_table(rows: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    """Print each page's medians, its first paint against the bare page's."""
    base = rows["bare Material page"]["fcp"]
    served = "without compression" if args.plain else "with gzip"
    count = "one run" if args.runs == 1 else f"medians of {args.runs} runs"
    print(f"\nLighthouse 12, mobile preset, served {served} on localhost ({count})\n")
    print(
        f"{'page':<40} {'perf':>5} {'FCP s':>6} {'LCP s':>6} {'TBT ms':>7} "
        f"{'CLS':>6} {'KiB':>6} {'FCP/bare':>8}"
    )
    for name, row in rows.items():
        print(
            f"{name:<40} {row['performance']:5.0f} {row['fcp']:6.2f} {row['lcp']:6.2f} "
            f"{row['tbt']:7.0f} {row['cls']:6.3f} {row['kib']:6.0f} "
            f"{row['fcp'] / base:8.2f}"
        )


def report_targets(rows: dict[str, dict[str, float]], font: int) -> None:
    """Print the other scores' lowest and each target, met or not."""
    base = rows["bare Material page"]["fcp"]
    ours = {name: row for name, row in rows.items() if name != "bare Material page"}
    others = ("accessibility", "best practices", "seo")
    lowest = {key: min(row[key] for row in ours.values()) for key in others}
    print(f"\naccessibility, best practices, SEO: lowest {lowest}")
    worst = min(row["performance"] for row in ours.values())
    slowest = max(row["fcp"] for row in ours.values()) / base
    shift = max(row["cls"] for row in ours.values())
    blocking = max(row["tbt"] for row in ours.values())
    print(
        f"target: performance >= 98 on every page: lowest {worst:.0f} "
        f"({met(worst >= 98)})"
    )
    print(
        f"target: first paint <= 1.15 x the bare page's: highest {slowest:.2f} x "
        f"({met(slowest <= 1.15)})"
    )
    print(f"target: layout shift <= 0.01: highest {shift:.3f} ({met(shift <= 0.01)})")
    print(
        f"target: blocking time < 100 ms: highest {blocking:.0f} ms "
        f"({met(blocking < 100)})"
    )
    print(f"target: math font <= 16 KiB: {font} bytes ({met(font <= 16 * 1024)})")


def main() -> None:
    args = arguments()
    if shutil.which("npx") is None:
        raise SystemExit("reader.py needs Node's npx on the PATH (Node 20)")
    pages = args.pages or [
        folder + page + "/"
        for folder in LANGS.values()
        for page in [*CHAPTERS, *NOTEBOOK_PAGES]
    ]
    runs, font = measure(args, pages)
    rows = {name: medians(figures) for name, figures in runs.items()}
    report_table(rows, args)
    report_targets(rows, font)


if __name__ == "__main__":
    main()
