"""A right-to-left edition reads as well as the English one.

The copy of the site with added editions (``added_editions.py``) has an Arabic
edition made by CONTRIBUTING's "Add a language" steps: the language in
mkdocs.yml, a catalog of interface words, the cue figures' labels in
``labels/ar.py``, and one chapter and its exercise page translated for real
(``rtl/``: prose with inline math, figures with translated labels, code the
reader sees, links, footnotes, the exercise page's "Run it yourself" box). The
other pages fall back to English. In Chromium, every element's computed
direction is the one its language asks for (formulas, code and figures stay
left to right), the translated figures' text fits, the fallback chapters'
figures put each text where the English page does, and their code, lists and
tables sit as on the English page. The site's 404 page and the edition's
search are checked too. Screenshots of the pages, at a phone's and a desktop's
width, are saved under ``test-artifacts/screenshots/rtl/``.
"""

import re

import pytest
from added_editions import AR_TRANSLATED, AR_WORDS
from browser import search_results
from helpers import ROOT, SITE_PATH, translations
from test_figure_text import MEASURE, SHOW_STATIC, VIEWPORTS, collisions

from attention_docs_site.site.book.static_server import serve_site

# The copy with the added editions (the site has no right-to-left one yet).
pytestmark = pytest.mark.release

SCREENSHOTS = ROOT / "test-artifacts" / "screenshots" / "rtl"
# Its translation is rtl/attention-cues.ar.md; and an exercise page translated
# too (rtl/exercises/attention-cues.ar.md): code the reader sees, and a box
# ("Run it yourself") in the edition's words.
TRANSLATED, NOTEBOOK = AR_TRANSLATED
# Fallback chapters with the figures the issue saw broken: colour bars and axes.
FALLBACK = ("attention-pooling", "queries-keys-values")


@pytest.fixture(scope="module")
def site_url(editions):
    """This module's pages come from the copy with the added editions."""
    with serve_site(editions[1], SITE_PATH) as address:
        yield address


def test_the_translation_passes_its_checks(editions):
    project, _, _ = editions
    status = translations(project, "status", "--lang", "ar")
    rows = dict(re.findall(r"^(\S.*?)\s{2,}(\S.*)$", status.stdout, re.M))
    for page in (TRANSLATED, NOTEBOOK):
        assert rows.get(f"{page}.md") == "up to date", status.stdout


def test_the_site_s_404_page_is_english_with_each_language_in_its_direction(editions):
    _, site, _ = editions
    html = (site / "404.html").read_text("utf-8")
    assert '<html lang="en"' in html and '<body dir="ltr"' in html
    assert '<div lang="ar" dir="rtl">' in html and '<div lang="en" dir="ltr">' in html
    title = AR_WORDS["not_found_title"]
    assert f'<span lang="ar" dir="rtl">{title}</span>' in html  # in the heading


def test_a_fallback_page_marks_its_own_words_in_the_edition_s_language(editions):
    _, site, _ = editions
    html = (site / "ar" / FALLBACK[0] / "index.html").read_text("utf-8")
    labels = re.findall(r'<small class="ad-library"[^>]*>', html)
    assert labels and set(labels) == {'<small class="ad-library" lang="ar" dir="rtl">'}
    translated = (site / "ar" / TRANSLATED / "index.html").read_text("utf-8")
    assert '<small class="ad-library">' in translated  # already in its language


def test_search_finds_the_translated_page_by_an_arabic_word(page, site_url):
    page.goto(f"{site_url}ar/")
    page.wait_for_load_state("networkidle")
    results = search_results(page, "الفنجان")
    assert results.count() >= 1
    assert f"ar/{TRANSLATED}/" in results.first.get_attribute("href")
    assert page.problems == [] and page.foreign_requests == []


def test_english_results_read_left_to_right_without_the_notice(page, site_url):
    """A fallback page's excerpt is its English text, each paragraph in the
    direction of its first letter; the "not translated" notice is not indexed."""
    page.goto(f"{site_url}ar/")
    page.wait_for_load_state("networkidle")
    results = search_results(page, "Nadaraya")
    assert results.count() >= 1
    found = page.evaluate(
        """() => [...document.querySelectorAll(".md-search-result__article p")]
          .map(p => ({text: p.textContent, bidi: getComputedStyle(p).unicodeBidi}))"""
    )
    assert found and {f["bidi"] for f in found} == {"plaintext"}
    assert not any(AR_WORDS["untranslated_title"] in f["text"] for f in found)


# For each element that holds text, in the article and in the notices: its
# computed direction, and the language it is in (its nearest lang attribute).
DIRECTIONS = """() => {
  const parts = "p, li, h1, h2, dt, dd, .admonition-title, figcaption";
  const own = "math, pre, code, svg.ad-figure, input[type=range]";
  const found = el => ({
    tag: el.tagName.toLowerCase(),
    text: (el.textContent || "").trim().slice(0, 40),
    lang: el.closest("[lang]").getAttribute("lang"),
    direction: getComputedStyle(el).direction,
    align: getComputedStyle(el).textAlign,
    figure: el.closest("figure") !== null,
    classes: el.className || "",
    isolated: getComputedStyle(el).unicodeBidi === "isolate",
  });
  const article = document.querySelector("article");
  return {
    body: document.body.getAttribute("dir"),
    text: [...article.querySelectorAll(parts)]
      .filter(el => !el.closest(own) && el.textContent.trim()).map(found),
    ltr: [...article.querySelectorAll(own)].map(found),
  };
}"""


@pytest.mark.parametrize("path", [TRANSLATED, NOTEBOOK, *FALLBACK])
def test_each_element_runs_the_way_its_language_writes(page, site_url, path):
    """Arabic runs right to left, English left to right; so do math, code, figures."""
    page.goto(f"{site_url}ar/{path}/")
    page.wait_for_load_state("networkidle")
    assert page.problems == [] and page.foreign_requests == []
    found = page.evaluate(DIRECTIONS)
    assert found["body"] == "rtl"  # Material's, from the locale
    written = {"ar": "rtl", "en": "ltr"}
    langs = {element["lang"] for element in found["text"]}
    assert langs == ({"ar", "en"} if path in FALLBACK else {"ar"}), langs
    wrong = [
        element
        for element in found["text"]
        if element["direction"] != written[element["lang"]]
    ]
    assert wrong == []
    # English paragraphs start on the left, not at the right-hand margin
    # (but for the explorables' readouts, centred under their figure).
    aligned = {
        element["align"]
        for element in found["text"]
        if element["lang"] == "en" and element["tag"] == "p" and not element["figure"]
    }
    assert aligned <= {"start", "left"}, aligned
    kinds = {element["tag"] for element in found["ltr"]}
    # The translated chapter shows no code (its blocks print figures) and the
    # exercise page no formula.
    expected = {"svg"} | ({"pre"} if path != TRANSLATED else set())
    assert expected | ({"math"} if path != NOTEBOOK else set()) <= kinds, kinds
    if path == NOTEBOOK:  # the box in the edition's words, right to left
        titles = [e for e in found["text"] if "admonition-title" in e["classes"]]
        assert titles and all(e["direction"] == "rtl" for e in titles), titles
    assert [e for e in found["ltr"] if e["direction"] != "ltr"] == []
    # Inline code keeps its order inside the other direction (a formula is
    # one box, placed whole, and laid out left to right inside).
    if path in FALLBACK:
        inline = [e for e in found["ltr"] if e["tag"] == "code"]
        assert inline and all(e["isolated"] for e in inline), inline


def figure_text(page, url, viewport):
    """Each figure's texts, placed relative to the figure's own box."""
    page.set_viewport_size(VIEWPORTS[viewport])
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.add_style_tag(content=SHOW_STATIC)
    page.evaluate("document.fonts.ready.then(() => true)")
    figures = page.evaluate(MEASURE)
    return figures, [
        [
            (t["text"], round(t["left"] - f["left"]), round(t["top"] - f["top"]))
            for t in f["texts"]
        ]
        for f in figures
    ]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("path", FALLBACK)
def test_a_fallback_page_draws_its_figures_as_the_english_one(
    page, site_url, path, viewport
):
    """Every text of every figure where the English page puts it, to the pixel."""
    _, english = figure_text(page, f"{site_url}{path}/", viewport)
    figures, arabic = figure_text(page, f"{site_url}ar/{path}/", viewport)
    assert sum(map(len, english)) > 10
    assert arabic == english
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=SCREENSHOTS / f"{path}-{viewport}.png", full_page=True)
    assert not [problem for figure in figures for problem in collisions(figure)]


LAYOUT = """() => ({
  code: [...document.querySelectorAll("article .highlight")].map(
    block => Math.round(block.getBoundingClientRect().width)),
  lists: [...document.querySelectorAll("article :is(ol, ul):not(.md-nav__list) > li")]
    .map(li => [getComputedStyle(li).marginLeft, getComputedStyle(li).marginRight,
                Math.round(li.getBoundingClientRect().left)]),
  cells: [...document.querySelectorAll("article :is(td, th)")]
    .map(cell => getComputedStyle(cell).textAlign),
  overflow: document.scrollingElement.scrollWidth - window.innerWidth,
})"""


@pytest.mark.parametrize("path", [*FALLBACK, "parametric-attention-pooling"])
def test_a_fallback_page_s_code_and_lists_sit_as_on_the_english_page(
    page, site_url, path
):
    """On a phone code reaches the screen's edges, lists indent and table
    cells align on the left, and nothing scrolls sideways: as on the English
    page."""
    page.set_viewport_size(VIEWPORTS["phone"])
    widths = []
    for url in (f"{site_url}{path}/", f"{site_url}ar/{path}/"):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        widths.append(page.evaluate(LAYOUT))
    english, arabic = widths
    assert english["code"] and english["lists"] and arabic == english


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("path", [TRANSLATED, NOTEBOOK])
def test_the_translated_figures_text_fits(page, site_url, path, viewport):
    """The Arabic labels, shaped by the browser, fit where matplotlib measured them."""
    figures, texts = figure_text(page, f"{site_url}ar/{path}/", viewport)
    drawn = [text for figure in texts for text, _, _ in figure]
    assert "فنجان قهوة" in drawn and "كتاب" in drawn  # labels/ar.py's, drawn
    problems = [
        f"figure {figure['index']}: {problem}"
        for figure in figures
        for problem in collisions(figure)
    ]
    assert problems == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    shot = SCREENSHOTS / f"{path.replace('/', '-')}-{viewport}.png"
    page.screenshot(path=shot, full_page=True)


# Every title the theme writes from the navigation: the header's, the tabs',
# the sidebars' (the table of contents included) and the footer's links.
TITLES = """() => [...document.querySelectorAll(`.md-header .md-ellipsis,
    .md-tabs__link, .md-sidebar .md-ellipsis, .md-footer .md-ellipsis`)]
  .map(el => ({text: el.textContent.trim(), direction: getComputedStyle(el).direction,
               lang: el.closest("[lang]").getAttribute("lang"),
               align: getComputedStyle(el).textAlign,
               listed: el.closest(".md-nav") !== null}))
  .filter(title => title.text)"""
_FIRST_STRONG = re.compile(r"[A-Za-z\u0590-\u08ff]")


@pytest.mark.parametrize("path", [TRANSLATED, *FALLBACK])
def test_each_title_in_the_navigation_runs_the_way_its_script_writes(
    page, site_url, path
):
    """An English title in the Arabic navigation reads left to right, in
    English: "1. When intent wins" is not shown as "When intent wins .1", nor
    cut at its start. Judged by the title's first letter, not by the markup."""
    page.goto(f"{site_url}ar/{path}/")
    page.wait_for_load_state("networkidle")
    found = page.evaluate(TITLES)
    script = {
        title["text"]: "ltr"
        if _FIRST_STRONG.search(title["text"])[0].isascii()
        else "rtl"
        for title in found
    }
    wrong = [t for t in found if t["direction"] != script[t["text"]]]
    assert wrong == [], wrong
    # English titles in the navigation's lists, which may wrap, still align
    # with their Arabic neighbours (the footer's follow Material's sides).
    aligned = {t["align"] for t in found if t["lang"] == "en" and t["listed"]}
    assert aligned <= {"right"}, aligned
    english = {t["text"] for t in found if t["lang"] == "en"}
    assert english == {text for text, way in script.items() if way == "ltr"} - {
        "attention_docs"  # the site's name, in no language
    }
    own = {"ltr": path in FALLBACK, "rtl": path == TRANSLATED}
    headings = page.evaluate(
        "[...document.querySelectorAll('[data-md-component=toc] .md-ellipsis')]"
        ".map(el => getComputedStyle(el).direction)"
    )
    assert headings and {way for way, mine in own.items() if mine} == set(headings)


NOTICE = """() => {
  const notice = document.querySelector(".ad-untranslated").getBoundingClientRect();
  const box = document.querySelector("article").getBoundingClientRect();
  const edit = document.querySelector(".md-content__button").getBoundingClientRect();
  const library = document.querySelector(".ad-library[dir]");
  return {share: notice.width / box.width, below: notice.top >= edit.bottom,
          library: getComputedStyle(library).textAlign};
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_untranslated_notice_spans_the_page_under_the_edit_button(
    page, site_url, viewport
):
    page.set_viewport_size(VIEWPORTS[viewport])
    page.goto(f"{site_url}ar/{FALLBACK[0]}/")
    page.wait_for_load_state("networkidle")
    found = page.evaluate(NOTICE)
    assert found["below"] and found["share"] > 0.9, found
    # The "Library:" line, in Arabic, sits on the side of the English code.
    assert found["library"] == "left", found
