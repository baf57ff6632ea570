"""Checks on the Markdown sources in docs/: pages call the library thinly."""

import re
from pathlib import Path

import helpers
import pytest

from attention_docs_site.blocks import blocks
from attention_docs_site.translations import translation_lang

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
CHAPTERS = [f"{chapter}.md" for chapter in helpers.CHAPTERS]
NOTEBOOKS = [f"{chapter}.md" for chapter in helpers.NOTEBOOKS]


def code_blocks(path):
    """(language, options, code) of every fenced block of a page."""
    text = path.read_text(encoding="utf-8")
    return [(b.language, b.options, b.code) for b in blocks(text)]


def test_pages_are_found():
    names = {p.relative_to(DOCS).as_posix() for p in PAGES}
    assert {"index.md", "references.md", *CHAPTERS} <= names
    for chapter in NOTEBOOKS:
        assert chapter in CHAPTERS and f"exercises/{chapter}" in names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_no_def_or_class_in_a_page(page):
    for language, _, code in code_blocks(page):
        if language == "python":
            assert not re.search(r"^\s*(def|class)\s", code, re.MULTILINE), page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_each_executed_block_is_one_figure_call(page):
    for _, options, code in code_blocks(page):
        if 'exec="on"' not in options:
            continue
        lines = [ln for ln in code.splitlines() if ln.strip() and "import" not in ln]
        call = " ".join(line.strip() for line in lines)
        assert re.fullmatch(r"print\(figures\.\w+\(.*\)\)", call), (page, code)
        session = re.search(r'session="([^"]+)"', options)[1]
        lang = translation_lang(page) or "en"
        assert session == f"{page.name.split('.')[0]}-{lang}", page
        if call.startswith("print(figures.source_listing("):
            continue  # library code, the same in every language
        assert f'lang="{lang}"' in call


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_has_a_summary_and_exercises(chapter):
    text = (DOCS / chapter).read_text(encoding="utf-8")
    assert "\n## Summary\n" in text
    assert re.search(r"\n## Exercises?\n", text)


@pytest.mark.parametrize("chapter", NOTEBOOKS)
def test_chapter_with_a_notebook_links_to_it(chapter):
    text = (DOCS / chapter).read_text(encoding="utf-8")
    assert "\n## Exercises\n" in text and f"(exercises/{chapter})" in text


def test_notebooks_have_a_python_kernelspec_and_chapters_do_not():
    for chapter in CHAPTERS:
        assert "kernelspec" not in (DOCS / chapter).read_text(encoding="utf-8")
    for chapter in NOTEBOOKS:
        notebook = (DOCS / "exercises" / chapter).read_text(encoding="utf-8")
        assert re.search(r"kernelspec:\n(\s+\w+: .*\n)*\s+language: python", notebook)


def test_references_cite_the_required_works():
    text = (DOCS / "references.md").read_text(encoding="utf-8")
    for work in (
        "James, W. (1890)",
        "Mnih, V.",
        "Nadaraya, E. A. (1964)",
        "Watson, G. S. (1964)",
    ):
        assert work in text
