"""Run button benchmark: from a reader's first click to the first output, cold and warm.

Run from the repository root after `bash scripts/setup.sh test`:

    .venv/bin/python benchmarks/run_button.py            # builds the site first
    .venv/bin/python benchmarks/run_button.py --site SITE --runs 5

It serves the site on localhost with gzip, as GitHub Pages does, opens it in
Debian's Chromium (headless, every request outside the site refused) and, in
each run, with a new browser profile (an empty cache):

- **first visit**: opens the attention-pooling page and waits for the network
  to settle; counts what loaded, and whether any of it is Python's;
- **cold**: opens the Nadaraya-Watson figure's code and clicks Run; measures
  the time from the click to its figure, the bytes transferred after the
  click and the longest task on the page's main thread meanwhile (Python
  loads in a worker: the page must never freeze);
- **warm**: in the same profile, opens another page (queries-keys-values, a
  full page load: a new worker) and runs its first block: the runtime and
  packages now come from the browser's cache.

It prints each figure's median over the runs, and each target with "met" or
"NOT met". The machine is shared: compare figures within one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from helpers import SITE_PATH  # noqa: E402
from reader import build_site  # noqa: E402
from targets import met  # noqa: E402

from attention_docs_site.site.book.chromium import launch  # noqa: E402
from attention_docs_site.site.book.static_server import serve_site  # noqa: E402

COLD_PAGE = "attention-pooling/"
COLD_BLOCK = '.ad-run[data-run-code*="nadaraya_watson_fit"]'
WARM_PAGE = "queries-keys-values/"
WARM_BLOCK = ".ad-run:not([data-run-needs])"
LONG_TASKS = """() => {
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__longest = Math.max(window.__longest, entry.duration);
  }).observe({ type: "longtask", buffered: false });
}"""


class Traffic:
    """Bytes of every response the page (and its workers) received."""

    def __init__(self, page) -> None:  # noqa: ANN001 (Playwright's Page)
        self.finished: list = []
        page.on("requestfinished", self.finished.append)

    def since(self, start: int) -> tuple[int, list[str]]:
        total, urls = 0, []
        for request in self.finished[start:]:
            sizes = request.sizes()
            total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
            urls.append(request.url)
        return total, urls


def click_run(page, block_selector: str) -> float:  # noqa: ANN001
    """Open a block's code, click Run, wait for its output: seconds from the click."""
    block = page.locator(block_selector).first
    block.locator(".ad-run-open").click()
    button = block.locator(".ad-run-panel .md-button--primary")
    start = time.perf_counter()
    button.click()
    page.wait_for_function(
        "b => !b.disabled", arg=button.element_handle(), timeout=300_000
    )
    seconds = time.perf_counter() - start
    status = block.locator(".ad-run-status").text_content()
    if status != "Done.":
        raise SystemExit(f"the run did not end well: {status!r}")
    return seconds


def one_run(browser, site_url: str) -> dict[str, float]:  # noqa: ANN001
    context = browser.new_context()
    own = site_url.split("/")[2]
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.split("/")[2] == own
            else route.abort()
        ),
    )
    page = context.new_page()
    traffic = Traffic(page)
    page.goto(site_url + COLD_PAGE)
    page.wait_for_load_state("networkidle")
    first_bytes, first_urls = traffic.since(0)
    python_before_click = [u for u in first_urls if "pyodide" in u or "run-worker" in u]
    page.evaluate(LONG_TASKS)
    mark = len(traffic.finished)
    cold = click_run(page, COLD_BLOCK)
    cold_bytes, _ = traffic.since(mark)
    longest = page.evaluate("window.__longest")
    page.goto(site_url + WARM_PAGE)
    page.wait_for_load_state("networkidle")
    mark = len(traffic.finished)
    warm = click_run(page, WARM_BLOCK)
    warm_bytes, _ = traffic.since(mark)
    context.close()
    return {
        "first visit, bytes": first_bytes,
        "first visit, Python files": len(python_before_click),
        "cold: click to figure, s": cold,
        "cold: bytes after the click": cold_bytes,
        "cold: longest main-thread task, ms": longest,
        "warm: click to output, s": warm,
        "warm: bytes after the click": warm_bytes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs (default: 3)")
    parser.add_argument("--site", type=Path, help="an already built site (else built)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            build_site(ROOT, site)
        from playwright.sync_api import sync_playwright

        with serve_site(site, SITE_PATH, compress=True) as url, sync_playwright() as p:
            browser = launch(p)
            runs = [one_run(browser, url) for _ in range(args.runs)]
            browser.close()
    print(f"\nRun button, median of {args.runs} runs (each with an empty cache)\n")
    for key in runs[0]:
        values = [run[key] for run in runs]
        shown = ", ".join(
            f"{v:,.2f}" if isinstance(v, float) else f"{v:,}" for v in values
        )
        print(f"{key:40} {statistics.median(values):>14,.2f}   {shown}")
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print()
    before = max(run["first visit, Python files"] for run in runs)
    longest = max(run["cold: longest main-thread task, ms"] for run in runs)
    warm, cold = (
        median["warm: bytes after the click"],
        median["cold: bytes after the click"],
    )
    print(f"target: no Python file before a click: {before} ({met(before == 0)})")
    print(
        f"target: no main-thread task over 50 ms: {longest:.0f} ms "
        f"({met(longest <= 50)})"
    )
    print(
        f"target: warm run from the cache, under a tenth of cold's bytes: "
        f"{warm:,.0f} of {cold:,.0f} ({met(warm < cold / 10)})"
    )


if __name__ == "__main__":
    main()
