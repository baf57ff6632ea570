"""What readers and contributors expect of a Material site, read from the built
HTML and from the repository's files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from helpers import CHAPTERS, NOTEBOOK_PAGES, REFERENCE_PAGES, ROOT, SITE_URL

# Every page in the nav, source file -> folder of its built page.
PAGES = {
    "index.md": "",
    **{
        f"{page}.md": f"{page}/"
        for page in (*CHAPTERS, *NOTEBOOK_PAGES, *REFERENCE_PAGES)
    },
}
EDITIONS = {"en": ("", ".md"), "zh": ("zh/", ".zh.md")}


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml, whose !!python tag needs no evaluation here."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)
MKDOCS = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)


def html_of(site: Path, lang: str, source: str) -> str:
    prefix = EDITIONS[lang][0]
    return (site / prefix / PAGES[source] / "index.html").read_text(encoding="utf-8")


def source_name(source: str, lang: str) -> str:
    return source.removesuffix(".md") + EDITIONS[lang][1]


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("source", PAGES)
def test_edit_link_opens_the_pages_own_source(built_site, source, lang):
    html = html_of(built_site, lang, source)
    links = re.findall(
        r'<a href="([^"]+)" title="[^"]*" class="md-content__button', html
    )
    expected = f"{MKDOCS['repo_url']}/{MKDOCS['edit_uri']}{source_name(source, lang)}"
    assert links == [expected]
    assert (ROOT / "docs" / source_name(source, lang)).is_file()


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("source", PAGES)
def test_open_graph_metadata_is_the_pages_own(built_site, source, lang):
    html = html_of(built_site, lang, source)
    meta = dict(re.findall(r'<meta property="(og:\w+)" content="([^"]*)"', html))
    title = re.search(r"<title>(.*?)(?: - attention_docs)?</title>", html)[1]
    assert meta["og:title"] == title
    assert meta["og:locale"] == {"en": "en_US", "zh": "zh_CN"}[lang]
    assert meta["og:url"] == SITE_URL + EDITIONS[lang][0] + PAGES[source]
    assert meta["og:image"] == SITE_URL + "assets/social.png"
    description = meta["og:description"]
    assert 10 < len(description) <= 201
    assert f'<meta name="description" content="{description}">' in html
    assert bool(re.search(r"[\u4e00-\u9fff]", description)) == (lang == "zh")
    assert "<" not in description


HEAD_TITLE = re.compile(r"<head>.*?<title>(.*?)</title>", re.S)
HEADING = re.compile(r"<h1\b[^>]*>(.*?)</h1>", re.S)
CJK = re.compile(r"[\u4e00-\u9fff]")


def plain(fragment: str) -> str:
    import html

    text = html.unescape(re.sub(r"<[^>]+>", "", fragment)).replace("¶", "")
    return " ".join(text.split())


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("source", PAGES)
def test_every_page_has_its_own_title_in_its_language(built_site, source, lang):
    html = html_of(built_site, lang, source)
    title = plain(HEAD_TITLE.search(html)[1])
    heading = plain(HEADING.search(html)[1])
    assert title == f"{heading} - {MKDOCS['site_name']}"
    assert bool(CJK.search(title)) == (lang == "zh"), title


@pytest.mark.parametrize("source", PAGES)
def test_chinese_pages_have_no_english_tooltips(built_site, source):
    # Titles (tooltips) of the palette toggle, heading anchors, buttons...;
    # names of code and of the site stay as they are.
    html = html_of(built_site, "zh", source)
    titles = {" ".join(t.split()) for t in re.findall(r'\btitle="([^"]*)"', html)}
    # e.g. "numpy.ndarray", "Violation dataclass (attention_docs.x.Violation)"
    code_name = r"[A-Za-z0-9_.]+(?: [a-z]+)?(?: \([A-Za-z0-9_.]+\))?"
    names = {t for t in titles if re.fullmatch(code_name, t)}
    assert titles - names, "no tooltip found"
    assert [t for t in titles - names if not CJK.search(t)] == []


def test_page_titles_are_all_different(built_site):
    titles = [
        HEAD_TITLE.search(html_of(built_site, lang, source))[1]
        for lang in EDITIONS
        for source in PAGES
    ]
    assert len(set(titles)) == len(titles), titles


def test_404_page_title_speaks_both_languages(built_site):
    title = plain(HEAD_TITLE.search((built_site / "404.html").read_text("utf-8"))[1])
    assert title == f"Page not found · 页面不存在 - {MKDOCS['site_name']}"


def test_descriptions_differ_from_page_to_page(built_site):
    descriptions = {
        re.search(r'<meta property="og:description" content="([^"]*)"', html)[1]
        for html in (html_of(built_site, "en", s) for s in PAGES)
    }
    assert len(descriptions) == len(PAGES)


@pytest.mark.parametrize("lang", EDITIONS)
def test_api_reference_lists_the_library(built_site, lang):
    html = html_of(built_site, lang, "api.md")
    for name in (
        "attention_docs.pooling.nadaraya_watson",
        "attention_docs.kernels.gaussian",
        "attention_docs.model.train",
        "attention_docs.figures.nadaraya_watson_fit",
    ):
        assert f'id="{name}"' in html, name
    # The build plugin is another package: named, not documented as the library.
    assert 'id="attention_docs_site' not in html
    assert "<code>attention_docs_site</code>" in html
    # Rendered from the docstring of nadaraya_watson, its section titles in
    # the edition's language (mkdocstrings' own words).
    titles = ("参数：", "返回：") if lang == "zh" else ("Parameters:", "Returns:")
    assert all(title in html for title in titles), titles
    intro = "由它的文档字符串生成" if lang == "zh" else "generated from its docstrings"
    assert intro in html


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapters_link_each_library_call_to_its_reference(built_site, chapter, lang):
    source = (ROOT / "docs" / source_name(f"{chapter}.md", lang)).read_text("utf-8")
    calls = set(re.findall(r"\bfigures\.(\w+)\(", source))
    calls |= {"make_dataset"} if "import make_dataset" in source else set()
    html = html_of(built_site, lang, f"{chapter}.md")
    linked = set(re.findall(r'href="\.\./api/#attention_docs\.\w+\.(\w+)"', html))
    assert calls and calls <= linked, calls - linked


def test_material_comforts_are_configured_and_in_the_html(built_site):
    features = set(MKDOCS["theme"]["features"])
    assert {
        "navigation.tabs",
        "navigation.sections",
        "navigation.footer",
        "navigation.top",
        "content.code.copy",
        "content.code.annotate",
        "content.action.edit",
        "toc.follow",
    } <= features
    html = html_of(built_site, "zh", "attention-cues.md")
    config = json.loads(re.search(r'id="__config"[^>]*>(.*?)</script>', html, re.S)[1])
    assert {"toc.follow", "navigation.top", "content.code.copy"} <= set(
        config["features"]
    )
    tabs = [t.strip() for t in re.findall(r'class="md-tabs__link">([^<]*)</a>', html)]
    assert tabs[1:] == ["章节", "练习", "参考资料"]  # tabs, in Chinese
    assert "md-footer__link--prev" in html and "md-footer__link--next" in html
    assert 'class="md-top md-icon"' in html
    palettes = re.findall(
        r'<input class="md-option" data-md-color-media="([^"]+)"', html
    )
    assert palettes == [
        "(prefers-color-scheme)",
        "(prefers-color-scheme: light)",
        "(prefers-color-scheme: dark)",
    ]
    pooling = html_of(built_site, "en", "attention-pooling.md")
    assert "(1)" in pooling and "The seed fixes the inputs" in pooling  # annotation


def test_bilingual_404_page(built_site):
    html = (built_site / "404.html").read_text(encoding="utf-8")
    assert "There is no page at this address" in html and "这个地址上没有页面" in html
    assert f'href="{SITE_URL}"' in html and f'href="{SITE_URL}zh/"' in html
    # The default edition's page (every edition writes one; the last used to
    # win), each language's words marked with their language and direction.
    assert '<html lang="en"' in html and '<body dir="ltr"' in html
    assert '<div lang="en" dir="ltr">' in html and '<div lang="zh" dir="ltr">' in html


def test_logo_favicon_and_social_image_are_drawn_by_the_library(built_site):
    from attention_docs import diagrams, svg

    logo = (built_site / MKDOCS["theme"]["logo"]).read_text(encoding="utf-8")
    assert logo == svg.figure_to_svg(
        diagrams.logo(), alt="attention_docs", themed=False
    )
    favicon = (built_site / MKDOCS["theme"]["favicon"]).read_text(encoding="utf-8")
    assert favicon.startswith("<svg") and "<title>attention_docs</title>" in favicon
    html = html_of(built_site, "en", "index.md")
    assert '<link rel="icon" href="assets/favicon.svg">' in html
    assert re.search(r'<img src="assets/logo.svg" alt="logo">', html)
    png = (built_site / "assets" / "social.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list((ROOT / "docs").rglob("logo*")) and not list(
        (ROOT / "docs").rglob("*.png")
    )
