"""Browser tests: the built site, served on 127.0.0.1, in Debian's Chromium."""

import functools
import http.server
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"
CHAPTERS = ["attention-cues", "queries-keys-values", "attention-pooling"]
PAGES = ["", *CHAPTERS, *[f"exercises/{c}" for c in CHAPTERS], "glossary", "references"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output readable
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True  # join request threads, closing their sockets


@pytest.fixture(scope="session")
def site_url(built_site):
    """Serve the built site over HTTP on a free port of 127.0.0.1."""
    handler = functools.partial(QuietHandler, directory=str(built_site))
    server = Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}; install it with "
            "`apt-get update && apt-get install -y chromium` (Debian's package)."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, site_url):
    """A fresh page whose requests to any other host are aborted and recorded."""
    context = browser.new_context()
    page = context.new_page()
    page.foreign_requests = []
    own = urlparse(site_url).netloc

    def route(route):
        if urlparse(route.request.url).netloc == own:
            route.continue_()
        else:
            page.foreign_requests.append(route.request.url)
            route.abort()

    page.route("**/*", route)
    yield page
    context.close()


INITIALISING = ("Initializing search", "正在初始化搜索引擎")


def search(page, site_url, start, query):
    """Type a query into the search box and return the result paths.

    The search index loads in a worker after the page; a query typed before it
    is ready is dropped, so the test waits for the worker and types again if
    no results come.
    """
    page.goto(site_url + start)
    box = page.locator(".md-search__input")
    box.click()
    meta = page.locator(".md-search-result__meta")
    for _ in range(100):
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
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    return [urlparse(href).path for href in hrefs]


@pytest.mark.parametrize(
    ("start", "query", "expected"),
    [
        ("zh/", "注意力汇聚", "/zh/attention-pooling/"),
        ("zh/", "核回归", "/zh/attention-pooling/"),
        ("zh/", "自主性提示", "/zh/attention-cues/"),
        ("zh/", "批量矩阵乘法", "/zh/attention-pooling/"),
        ("", "Nadaraya", "/attention-pooling/"),
        ("", "salience", "/attention-cues/"),
    ],
)
def test_search_finds_the_page(page, site_url, start, query, expected):
    paths = search(page, site_url, start, query)
    assert expected in paths, paths
    assert page.foreign_requests == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", PAGES)
def test_language_switch_lands_on_the_counterpart(page, site_url, path, lang):
    prefix, other = ("", "zh/") if lang == "en" else ("zh/", "")
    page.goto(site_url + prefix + path)
    page.locator(".md-header__option .md-select").hover()
    target = "zh" if lang == "en" else "en"
    page.locator(f'.md-select__link[hreflang="{target}"]').click()
    page.wait_for_load_state("load")
    assert urlparse(page.url).path == "/" + other + path + ("/" if path else "")
    assert page.locator("html").get_attribute("lang") == target
    assert page.foreign_requests == []
