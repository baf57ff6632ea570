"""Site-level tests: the real site, built strictly into a temporary folder."""

import json
import re

import pytest
from conftest import ROOT, copy_site, mkdocs_build

pytestmark = pytest.mark.slow
PAGES = {"en": "index.html", "zh": "zh/index.html"}


@pytest.mark.parametrize("lang", PAGES)
def test_home_page_has_a_figure_computed_at_build_time(built_site, lang):
    html = (built_site / PAGES[lang]).read_text(encoding="utf-8")
    assert f'<html lang="{lang}"' in html
    svgs = re.findall(r'<svg role="img" class="ad-figure".*?</svg>', html, re.DOTALL)
    assert len(svgs) == 1
    labels = {
        "en": (">Keys</text>", ">Queries</text>"),
        "zh": (">键</text>", ">查询</text>"),
    }
    for text in labels[lang]:
        assert text in svgs[0]
    # The source code block is not shown; only its output is.
    assert "identity_heatmap" not in html


@pytest.mark.parametrize("lang", PAGES)
def test_math_is_mathml_not_raw_tex(built_site, lang):
    html = (built_site / PAGES[lang]).read_text(encoding="utf-8")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
    assert "arithmatex" not in html and "\\sum" not in html and "$$" not in html


@pytest.mark.parametrize("lang", PAGES)
def test_no_request_to_other_servers(built_site, lang):
    html = (built_site / PAGES[lang]).read_text(encoding="utf-8")
    assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
    for tag in re.findall(r"<(?:script|link|img)\b[^>]*>", html):
        assert not re.search(r'(?:src|href)="(?:https?:)?//', tag), tag


def test_no_figure_file_is_committed_under_docs():
    images = [
        p
        for p in (ROOT / "docs").rglob("*")
        if p.suffix.lower() in {".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp"}
    ]
    assert images == []


def test_chinese_search_index_is_segmented(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text("utf-8"))
    # The browser splits words on this pattern; it must include U+200B.
    assert index["config"]["separator"] == "[\\s\\u200b\\-]+"
    zh_text = " ".join(
        d["text"] for d in index["docs"] if d["location"].startswith("zh/")
    )
    # jieba splits Chinese into words, marked by zero-width spaces.
    assert "\u200b注意力\u200b" in zh_text
    assert "\u200b权重\u200b" in zh_text


@pytest.mark.parametrize("page", ["index.md", "index.zh.md"])
def test_raising_block_fails_the_build_and_names_the_page(tmp_path, page):
    project = copy_site(tmp_path / "project")
    with (project / "docs" / page).open("a", encoding="utf-8") as source:
        source.write(
            '\n```python exec="on"\nraise RuntimeError("injected failure")\n```\n'
        )
    result = mkdocs_build(project, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        f"docs/{page}: markdown_exec: Execution of python code block exited" in output
    )
    assert "injected failure" in output
