"""What the browser tests share: Chromium, the page's language prefix, axe-core.

The fixtures that serve the site and open pages are in ``e2e/conftest.py``.
"""

from importlib.resources import files
from urllib.parse import urlsplit

import pytest
from helpers import missing_chromium

# Debian's Chromium, headless, asking no server but the test's.
from attention_docs_site.site.book.chromium import launch  # noqa: F401 (shared)

# No host but this machine's resolves: a request to any other host fails in
# the browser, before it leaves (the tests list such requests as they start).
# Cheaper than routing every request through Playwright, which takes a
# quarter more CPU time per page load here.
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def prefix(lang: str) -> str:
    return "zh/" if lang == "zh" else ""


def require_chromium():
    missing = missing_chromium()
    if missing:
        pytest.fail(missing, pytrace=False)


# A page is ready for the tests once it has loaded (styles, images, its
# deferred scripts and modules), Material's document$ has emitted (its
# components are mounted, and the site's scripts have run on the page), its
# fonts are in, and:
# - every explorable figure has drawn its live figure (explorables.js starts
#   them when the browser is idle, after the load);
# - the code annotations of every code block shown (not in a closed
#   <details>) are mounted with their tooltips taken out: Material does that
#   250 ms after it mounts them, so that a copy of the code has no empty
#   lines, and until then their formulas are in the article;
# - the search is ready (its box says so, in the edition's words): its worker
#   has fetched the index and lunr's language files, which a test that went
#   on to another page before would see aborted.
READY = """() => {
  if (document.readyState !== "complete" || !window.document$) return false;
  let emitted = false;  // document$ replays the page to a new subscriber
  window.document$.subscribe(() => { emitted = true; }).unsubscribe();
  const shown = element => element.getClientRects().length > 0;
  const settled = annotation => !shown(annotation.closest(".highlight") ?? annotation)
    || annotation.style.getPropertyValue("--md-tooltip-x") !== ""
      && !annotation.querySelector(":scope > .md-tooltip:not(.md-tooltip--active)");
  const config = JSON.parse(document.getElementById("__config").textContent);
  const ready = config.translations["search.result.placeholder"];  // "Type to ..."
  const search = document.querySelector(".md-search-result__meta");
  return emitted && document.fonts.status === "loaded"
    && !document.querySelector(".ad-explorable:not([data-live])")
    && [...document.querySelectorAll(".md-annotation")].every(settled)
    && (!search || search.textContent.trim() === ready);
}"""


def visit(page, site_url, path, lang):
    """Open a page of an edition and wait until it is ready (:data:`READY`).

    And until none of its requests is on its way (the sitemap, the favicon):
    a test that went on to another page would see them aborted.
    """
    pending = set()

    def started(request):
        pending.add(request)

    def ended(request):
        pending.discard(request)

    listeners = {"request": started, "requestfinished": ended, "requestfailed": ended}
    for event, listener in listeners.items():
        page.on(event, listener)
    try:
        page.goto(site_url + prefix(lang) + path, wait_until="load")
        page.wait_for_function(READY)
        for _ in range(3000):  # 30 s at most, as Playwright's own waits
            if not pending:
                return
            page.wait_for_timeout(10)
        raise AssertionError(f"still loading: {[r.url for r in pending]}")
    finally:
        for event, listener in listeners.items():
            page.remove_listener(event, listener)


def record_failed_requests(page, own: str) -> None:
    """Add to ``page.problems`` failed requests to the ``own`` host, error statuses."""

    def failed(request):
        if urlsplit(request.url).netloc == own:  # foreign ones are listed apart
            page.problems.append(f"request failed: {request.url} {request.failure}")

    def response(response):
        if response.status >= 400:
            page.problems.append(f"HTTP {response.status}: {response.url}")

    page.on("requestfailed", failed)
    page.on("response", response)


AXE = files("axe_playwright_python") / "axe.min.js"  # axe-core, from PyPI


SERIOUS = """async (only) => (await axe.run(document, {resultTypes: ["violations"],
    ...(only ? {runOnly: {type: "rule", values: only}} : {})}))
  .violations.filter(v => ["serious", "critical"].includes(v.impact))
  .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target).join(", ")}`)"""
# axe's rules about colour that it runs by default (its tag "cat.color" adds
# the AAA contrast rule): all that a change of colour scheme alone can change.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


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
