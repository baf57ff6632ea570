"""What the browser tests share: Chromium, the page's language prefix, axe-core.

The fixtures that serve the site and open pages are in ``e2e/conftest.py``.
"""

from importlib.resources import files
from pathlib import Path

import pytest
from helpers import CHROMIUM, MISSING_CHROMIUM

# Debian's Chromium, headless, asking no server but the test's.
from attention_docs_site.site.book.chromium import launch  # noqa: F401 (shared)


def prefix(lang: str) -> str:
    return "zh/" if lang == "zh" else ""


def require_chromium():
    if not Path(CHROMIUM).exists():
        pytest.fail(MISSING_CHROMIUM, pytrace=False)


def visit(page, site_url, path, lang):
    page.goto(site_url + prefix(lang) + path)
    page.wait_for_load_state("networkidle")


AXE = files("axe_playwright_python") / "axe.min.js"  # axe-core, from PyPI


SERIOUS = """async () => (await axe.run(document, {resultTypes: ["violations"]}))
  .violations.filter(v => ["serious", "critical"].includes(v.impact))
  .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target).join(", ")}`)"""


INITIALISING = ("Initializing search", "正在初始化搜索引擎")


def search_results(page, query):
    """Type a query into the page's search box; return the results' links.

    The search index loads in a worker after the page; a query typed before it
    is ready is dropped, so this waits for the worker and types again if no
    results come.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    box = page.locator(".md-search__input")
    box.click()
    meta = page.locator(".md-search-result__meta")
    for _ in range(300):
        if meta.inner_text().strip() not in INITIALISING:
            break
        page.wait_for_timeout(100)
    results = page.locator(".md-search-result__item a")
    for _ in range(4):
        box.fill(query)
        box.press("End")  # Material reads the query on key events
        try:
            results.first.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            continue
    return results
