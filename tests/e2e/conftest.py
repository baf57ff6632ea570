"""Fixtures of the browser tests: the built site served over HTTP, and pages.

A page records every problem a reader could run into: console errors,
uncaught exceptions, failed requests and requests to any other host.
"""

import hashlib
import inspect
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import added_editions
import pytest
from browser import OFFLINE, launch, record_failed_requests, require_chromium
from helpers import (
    MINI,
    SITE_PATH,
    copy_mini_site,
    mkdocs_build,
    shared_build,
    shared_copy_build,
)

from attention_docs_site.site.book.static_server import serve_site


@pytest.fixture(scope="session")
def site_url(built_site):
    """Serve the built site over HTTP on 127.0.0.1, under the site's own path."""
    with serve_site(built_site, SITE_PATH) as address:
        yield address


@pytest.fixture(scope="session")
def isolated_url(built_site):
    """The built site served cross-origin isolated (COOP and COEP), as
    GitHub Pages does not: the Run button's Stop interrupts Python there."""
    with serve_site(built_site, SITE_PATH, isolated=True) as address:
        yield address


def _build_key(code: object, folder: Path) -> str:
    """What a kept build depends on: the code that makes it, a folder's files."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return inspect.getsource(code) + "".join(
        hashlib.sha256(path.read_bytes()).hexdigest() for path in files
    )


@pytest.fixture(scope="session")
def editions(tmp_path_factory, site_build):
    """(project, site, build log) of the copy with every added edition and notice.

    Built once per run, PDFs and notebooks included (``added_editions.py``):
    the first test to ask builds it, the others wait for it and read it.
    """
    key = _build_key(added_editions, added_editions.AR_FILES)
    return shared_copy_build(
        tmp_path_factory,
        site_build,
        "editions",
        added_editions.add_editions,
        key=key,
        pdf=True,
        notebooks=True,
    )


def _as_it_is(project: Path) -> None:
    """No change: the copy is built with other options."""


@pytest.fixture(scope="session")
def speed_off_site(tmp_path_factory, site_build):
    """(folder, address) of the real site built with every speed reach off.

    From the real build's cache, without PDFs: the pages readers get when an
    upgrade ships with the speed switch off (upstream/README.md).
    """
    _, site, _ = shared_copy_build(
        tmp_path_factory,
        site_build,
        "speed-off",
        _as_it_is,
        env={"ATTENTION_DOCS_SPEED_EDITS": "off"},
    )
    with serve_site(site, SITE_PATH) as address:
        yield site, address


@pytest.fixture(scope="session")
def mini_cache(tmp_path_factory) -> Path:
    """The execution cache of the unbroken small site, filled once per run."""

    def make(folder: Path) -> subprocess.CompletedProcess:
        project = copy_mini_site(folder / "project")
        return mkdocs_build(
            project,
            folder / "site",
            library=project / "src",
            cache=folder / "cache",
        )

    key = _build_key(copy_mini_site, MINI)
    folder, _ = shared_build(tmp_path_factory, "mini-site", make, key)
    return folder / "cache"


@pytest.fixture(scope="session")
def playwright():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright):
    chromium = launch(playwright, args=[OFFLINE])
    yield chromium
    chromium.close()


@pytest.fixture(params=["light"])
def color_scheme(request):
    return request.param


@pytest.fixture
def page(browser, site_url, color_scheme):
    """A fresh page of the real site that records every problem (:func:`_page`)."""
    yield from _page(browser, site_url, color_scheme)


@pytest.fixture
def isolated_page(browser, isolated_url, color_scheme):
    """:func:`page`, for the site served cross-origin isolated."""
    yield from _page(browser, isolated_url, color_scheme)


@pytest.fixture
def speed_off_page(browser, speed_off_site, color_scheme):
    """:func:`page`, for the site built with the speed reaches off."""
    yield from _page(browser, speed_off_site[1], color_scheme)


def _page(browser, site_url, color_scheme):
    """A fresh page that records every problem a reader could run into.

    ``page.foreign_requests``: requests to any host but ``site_url``'s (which
    no name resolves to in this browser: they fail);
    ``page.problems``: console errors, uncaught exceptions, failed requests
    and responses with an error status.

    The pages' Content-Security-Policy is bypassed, so that the tests may run
    their own scripts in them (axe, predicates); test_reader.py checks the
    policy with it in force.
    """
    context = browser.new_context(
        bypass_csp=True,
        color_scheme=color_scheme,
        permissions=["clipboard-read", "clipboard-write"],
        accept_downloads=True,
    )
    page = context.new_page()
    page.foreign_requests = []
    page.problems = []
    own = urlsplit(site_url).netloc

    def request(request):
        address = urlsplit(request.url)
        if address.scheme in ("http", "https") and address.netloc != own:
            page.foreign_requests.append(request.url)

    def console(message):
        if message.type == "error":
            page.problems.append(f"console error: {message.text}")

    context.on("request", request)  # the page's, and its workers'
    page.on("console", console)
    page.on("pageerror", lambda error: page.problems.append(f"exception: {error}"))
    record_failed_requests(page, own)
    yield page
    context.close()
