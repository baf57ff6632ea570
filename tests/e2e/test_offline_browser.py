"""Each edition's offline copy, unpacked and opened from file:// in Chromium."""

import zipfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from browser import prefix, search_results
from helpers import NOTEBOOKS, ROOT, SITE_URL

SEARCH = {"en": "softmax", "zh": "带宽"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_offline_copy_works_from_a_folder(browser, built_site, tmp_path, lang):
    """Pages, figures, search and notebooks, with no request but for files."""
    archive = zipfile.ZipFile(built_site / "offline" / f"attention_docs-{lang}.zip")
    archive.extractall(tmp_path)
    top = tmp_path / f"attention_docs-{lang}"
    edition = top / prefix(lang)
    notebooks = sorted(p.name for p in (edition / "exercises").glob("*/*.ipynb"))
    assert len(notebooks) == len(NOTEBOOKS), notebooks
    assert (edition / "exercises" / "notebooks.zip").is_file()

    context = browser.new_context()
    page = context.new_page()
    problems, foreign = [], []

    def route(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    page.route("**/*", route)
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    # A request the browser drops because the page moved on is not a problem.
    page.on(
        "requestfailed",
        lambda r: "ERR_ABORTED" not in r.failure and problems.append(r.url),
    )
    try:
        page.goto((top / "index.html").as_uri())  # the Chinese copy redirects
        page.wait_for_url(f"**/attention_docs-{lang}/{prefix(lang)}index.html")
        assert page.locator("html").get_attribute("lang") == lang

        # Two chapters on, by the footer's links: the page and its live figure.
        for chapter in ("attention-cues", "queries-keys-values"):
            page.locator("a.md-footer__link--next").click()
            page.wait_for_url(f"**/{prefix(lang)}{chapter}/index.html")
        page.locator(".ad-explorable[data-live]").wait_for()
        assert page.locator(".ad-explorable__live svg").is_visible()
        assert page.locator("math").count() > 0

        # Search runs in the page's edition, and a hit opens its page here.
        hits = search_results(page, SEARCH[lang])
        hrefs = [hits.nth(i).get_attribute("href") for i in range(hits.count())]
        assert hrefs and all(h.startswith(edition.as_uri()) for h in hrefs), hrefs
        if lang == "en":  # no page of the other edition in this copy's results
            assert not any("/zh/" in h for h in hrefs), hrefs
        hits.first.click()
        page.wait_for_url(lambda url: url.split("#")[0] == hrefs[0].split("#")[0])
        page.wait_for_load_state("load")
        assert page.url.startswith(edition.as_uri()) and ".html" in page.url

        # The language menu: this copy's page, and the other edition online.
        menu = page.locator(".md-select__link[hreflang]")
        links = {
            menu.nth(i).get_attribute("hreflang"): menu.nth(i).get_attribute("href")
            for i in range(menu.count())
        }
        other = "zh" if lang == "en" else "en"
        assert links[other].startswith(SITE_URL), links
        assert links[lang].endswith("index.html"), links

        # An exercise page's notebook downloads are files of this copy.
        exercise = edition / "exercises" / "attention-cues" / "index.html"
        page.goto(exercise.as_uri())
        for selector in ("a.ad-download", "a.ad-download-all"):
            href = page.locator(selector).first.evaluate("a => a.href")
            assert href.startswith(edition.as_uri()), href
            assert Path(unquote(urlsplit(href).path)).is_file(), href

        shot = ROOT / "test-artifacts" / "screenshots" / "offline" / f"{lang}.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=shot)
    finally:
        context.close()
    assert problems == [] and foreign == []


FILE_PROTOCOL = "python -m http.server"
SERVE_HINT = {"en": "straight from a folder", "zh": "直接从本地文件夹"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_run_button_explains_how_to_serve_the_copy(
    browser, built_site, tmp_path, lang
):
    """From file://, no browser runs a Python worker: the button says to serve it."""
    archive = zipfile.ZipFile(built_site / "offline" / f"attention_docs-{lang}.zip")
    archive.extractall(tmp_path)
    top = tmp_path / f"attention_docs-{lang}"
    assert (top / "pyodide").is_dir(), "served, the copy runs Python: it holds Pyodide"
    page = browser.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((top / prefix(lang) / "attention-pooling" / "index.html").as_uri())
    block = page.locator(".ad-run:not([data-run-needs])").first
    block.locator(".ad-run-open").click()
    block.locator(".ad-run-panel .md-button--primary").click()
    status = block.locator(".ad-run-status")
    status.wait_for()
    page.wait_for_function("s => s.textContent.length > 0", arg=status.element_handle())
    text = status.text_content()
    assert FILE_PROTOCOL in text and SERVE_HINT[lang] in text
    assert not [url for url in requests if "pyodide" in url or "run-worker" in url]
    page.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_light_copy_shows_outputs_without_the_runtime(
    browser, built_site, tmp_path, lang
):
    """The light copy: a fifth of the full one or less, outputs and no Run button."""
    full = built_site / "offline" / f"attention_docs-{lang}.zip"
    light = built_site / "offline" / f"attention_docs-{lang}-lite.zip"
    assert light.stat().st_size * 5 < full.stat().st_size
    home = (built_site / prefix(lang) / "index.html").read_text("utf-8")
    assert f'href="{"../" * bool(prefix(lang))}offline/{light.name}" download' in home
    zipfile.ZipFile(light).extractall(tmp_path)
    top = tmp_path / f"attention_docs-{lang}"
    assert not (top / "pyodide").exists()
    assert not list((top / "assets").glob("run*.js"))
    page = browser.new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda r: problems.append(r.url))
    page.goto((top / prefix(lang) / "attention-pooling" / "index.html").as_uri())
    page.wait_for_load_state("load")
    assert page.locator(".ad-run svg").count() > 0  # the outputs are there
    assert page.locator(".ad-run-open").count() == 0
    page.close()
    assert problems == []
