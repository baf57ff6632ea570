"""A third edition is configuration plus translated text ("Add a language").

The copy of the site with added editions (``added_editions.py``) has a
Japanese edition made the way a translator adds one: the language in
mkdocs.yml, a catalog of interface words, and one translated page (the home
page); every other page falls back to English. Its strict build must give the
edition everything the other two have. A fourth, Persian, is added beside it:
a language lunr cannot stem, whose search must work.
"""

import json
import re
import zipfile

import pytest
from added_editions import (
    JA_TITLE,
    JA_WORDS,
    ORDER,
    add_japanese,
)
from browser import search_results
from helpers import (
    CHAPTERS,
    LANGS,
    ROOT,
    SITE_PATH,
    copy_site,
    mkdocs_build,
    translations,
)
from pypdf import PdfReader

from attention_docs_site.site.book.static_server import serve_site

# The copy with the added editions, its PDFs printed.
pytestmark = pytest.mark.release


def test_from_the_real_build_s_cache_no_edition_runs_code_again(editions):
    """Every edition's keys are the same whatever its place in the build.

    The added editions are built between the English and the Chinese ones,
    so the Chinese blocks are keyed fifth here and second in the real build,
    whose cache this copy starts from. The Japanese and Persian home pages
    are English text, so they run the English blocks, already in the cache
    too. Only the Arabic chapter, its figures' labels new, runs its blocks.
    """
    _, _, log = editions
    counts = re.findall(r"attention_docs cache \(on\): (\d+) hits, (\d+) misses", log)
    assert len(counts) == len(ORDER), log
    misses = {
        lang: int(missed) for lang, (_, missed) in zip(ORDER, counts, strict=True)
    }
    assert all(int(hits) > 10 for hits, _ in counts), counts
    assert misses["ar"] > 0 and {misses[lang] for lang in ORDER if lang != "ar"} == {0}


@pytest.fixture(scope="module")
def site_url(editions):
    """This module's pages come from the copy with the added editions."""
    with serve_site(editions[1], SITE_PATH) as address:
        yield address


def test_an_edition_lunr_cannot_stem_finds_its_own_words(page, site_url):
    """Search starts in every edition, and the Persian one finds Persian words.

    With the others' word filters (English's, Japanese's, Chinese's), every
    Persian word was dropped from the index and from the query: nothing found.
    """
    page.goto(site_url)
    page.wait_for_load_state("networkidle")
    assert search_results(page, "Nadaraya").count() >= 1
    page.goto(f"{site_url}fa/")
    page.wait_for_load_state("networkidle")
    # (The notices, in Persian on every other page, are not indexed.)
    results = search_results(page, "رگرسیون")  # in the home page's title
    assert results.count() >= 1
    assert "/fa/" in results.first.get_attribute("href")
    assert page.problems == [] and page.foreign_requests == []


def test_the_edition_has_its_own_search_index(editions):
    _, site, log = editions
    index = json.loads((site / "ja" / "search" / "search_index.json").read_text())
    locations = [doc["location"] for doc in index["docs"]]
    assert locations and not any(loc.startswith(("ja/", "zh/")) for loc in locations)
    home = next(doc for doc in index["docs"] if doc["location"] == "")
    assert JA_TITLE in home["title"].replace("\u200b", "")
    english = json.loads((site / "search" / "search_index.json").read_text())
    assert not any(
        JA_TITLE in doc["title"].replace("\u200b", "") for doc in english["docs"]
    )
    assert "'ja':" in log  # the build says how many entries each edition has


def test_every_page_offers_every_language(editions):
    _, site, _ = editions
    pages = sorted(site.glob("**/index.html"))
    assert len(pages) > 3 * len(CHAPTERS)
    for page in pages:
        if page.parent.name in ("offline", "pdf"):
            continue
        html = page.read_text("utf-8")
        menu = set(re.findall(r'class="md-select__link"[^>]*hreflang="([^"]+)"', html))
        menu |= set(re.findall(r'hreflang="([^"]+)"[^>]*class="md-select__link"', html))
        assert menu == set(ORDER), page.relative_to(site)


def test_the_pages_speak_the_edition_s_language(editions):
    _, site, _ = editions
    home = (site / "ja" / "index.html").read_text("utf-8")
    assert '<html lang="ja"' in home and JA_TITLE in home
    assert "ad-untranslated" not in home
    # Its own downloads (the link check has found their files).
    assert (
        '<a class="md-button ad-download" href="../pdf/attention_docs-ja.pdf"' in home
    )
    assert JA_WORDS["download_pdf"] in home
    data = json.loads(
        re.search(r'<script id="ad-edition"[^>]*>(.*?)</script>', home)[1]
    )
    assert data["folder"] == "ja/"
    assert data["folders"] == {**LANGS, **{lang: f"{lang}/" for lang in ORDER[1:-1]}}
    not_found = (site / "404.html").read_text("utf-8")
    assert JA_WORDS["not_found_title"] in not_found
    # The API entries' labels in each edition's language (mkdocstrings has
    # Japanese and Chinese; Persian falls back to English), not the previous one's.
    labels = {"ja": "引数：", "zh": "参数：", "fa": "Parameters:"}
    for lang, label in labels.items():
        api = (site / lang / "api" / "index.html").read_text("utf-8")
        others = [other for other in labels.values() if other != label]
        assert label in api and not any(other in api for other in others), lang


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_fallback_pages_say_they_are_not_translated(editions, chapter):
    _, site, _ = editions
    html = (site / "ja" / chapter / "index.html").read_text("utf-8")
    notice = re.search(
        r'<div class="admonition info ad-untranslated" data-search-exclude>.*?</div>',
        html,
    )
    assert notice and JA_WORDS["untranslated_title"] in notice[0]
    assert f"translations new docs/{chapter}.md --lang ja" in notice[0]
    assert '<div lang="en" dir="ltr">' in html  # read as English, left to right
    english = (site / chapter / "index.html").read_text("utf-8")
    h1 = re.search(r"<h1[^>]*>(.*?)<", english)[1]
    assert h1 and h1 in html  # the English text, served in the ja edition


def test_translation_status_lists_what_is_missing(editions):
    project, _, _ = editions
    result = translations(project, "status", "--lang", "ja", "--check")
    assert result.returncode == 1, result.stderr  # pages are missing
    rows = dict(
        re.findall(
            r"^(\S.*?)\s+(up to date|missing|outdated|inconsistent)$",
            result.stdout,
            re.M,
        )
    )
    assert rows["index.md"] == "up to date"
    for chapter in CHAPTERS:
        assert rows[f"{chapter}.md"] == "missing"
    assert rows["(figure labels)"] == "missing"
    assert "src/attention_docs/labels/ja/" in result.stdout
    every = translations(project, "status")  # every translated edition
    assert "# zh" in every.stdout and "# ja" in every.stdout


def test_the_downloads_are_made_for_it(editions):
    _, site, _ = editions
    with zipfile.ZipFile(site / "ja" / "exercises" / "notebooks.zip") as archive:
        names = archive.namelist()
    assert any(name.endswith(".ipynb") for name in names)
    assert all(name.startswith("attention_docs-exercises-ja/") for name in names)
    with zipfile.ZipFile(site / "offline" / "attention_docs-ja.zip") as archive:
        names = set(archive.namelist())
    assert "attention_docs-ja/ja/index.html" in names
    assert not any(name.startswith("attention_docs-ja/zh/") for name in names)
    book = PdfReader(site / "pdf" / "attention_docs-ja.pdf")
    first = book.pages[0].extract_text() + book.pages[1].extract_text()
    assert JA_TITLE in first and JA_WORDS["book_contents"] in first


def test_an_edition_without_a_catalog_fails_the_build_naming_it(tmp_path, warm_cache):
    project = copy_site(tmp_path / "project")
    add_japanese(project)
    (project / "src" / "attention_docs_site" / "catalogs" / "ja.yml").unlink()
    result = mkdocs_build(
        project,
        tmp_path / "site",
        notebooks=False,
        cache=warm_cache,
        library=project / "src",
    )
    log = result.stdout + result.stderr
    assert result.returncode != 0
    assert "'ja' has no interface words" in log
    assert "catalogs/ja.yml" in log and "Add a language" in log


def test_site_language_codes_live_only_in_the_registry_and_the_tables():
    # grep, as the issue asks: no locale in the plugin, the library, the
    # templates or the scripts outside mkdocs.yml, the registry (editions.py),
    # the catalogs and the label tables. Examples in docstrings (``zh/``) and
    # the figures' default language, English, are not configuration.
    code = re.compile(
        r"""["'/](?:zh|en|ja)["'/]|\.zh\.md|zh_CN|lang\s*[!=]==?\s*["']"""
    )
    example = re.compile(r"``[^`]*``")
    places = [
        *(ROOT / "src").rglob("*.py"),
        *(ROOT / "src").rglob("*.html"),
        *(ROOT / "overrides").rglob("*.html"),
        *(ROOT / "docs" / "assets").glob("*.js"),
    ]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in places
        if not {"labels", "catalogs"} & set(path.parts) and path.name != "editions.py"
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if code.search(example.sub("", line).replace('lang: str = "en"', ""))
    ]
    assert found == []
