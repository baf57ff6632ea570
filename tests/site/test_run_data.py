"""The #ad-run-data element: what run-editor.js reads, through an HTML parser."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from helpers import EDITIONS, LANGS, ROOT

from attention_docs_site.page.run import MARK, run_data
from attention_docs_site.wheel import library_wheel


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if dict(attrs).get("id") == "ad-run-data":
            self.found = dict(attrs)


@pytest.mark.parametrize("lang", LANGS)
def test_the_run_data_parse_back_to_the_edition_s_words(lang: str) -> None:
    edition = next(e for e in EDITIONS if e.lang == lang)
    element = run_data(f"<div {MARK}'s'></div>", "x/y/", edition, library_wheel(ROOT))
    parser = _Attributes()
    parser.feed(element)
    data = json.loads(parser.found["data-run"] or "")
    assert data["labels"]["run"] == edition.word("run_run")
    assert data["labels"]["stopped"] == edition.word("run_stopped")
    assert "{package}" in data["labels"]["missing_package"]  # run-editor.js fills it
    assert data["runtime"] == "../../pyodide/0.27.7/"
    assert data["lock"].endswith("/pyodide-lock.site.json")
    # Single-quoted: a quote or an ampersand in a word would end or break it.
    assert "&quot;" not in element and element.count("'") == 2


def test_a_page_that_runs_nothing_gets_no_run_data() -> None:
    assert run_data("<p>text</p>", "x/", EDITIONS[0], library_wheel(ROOT)) == ""
