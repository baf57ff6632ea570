"""The home page's counts of runnable blocks, filled in from the built pages."""

import pytest
from helpers import ROOT

from attention_docs_site.editions import read_editions
from attention_docs_site.site.counts import count_blocks, fill_counts, write_counts

BLOCK = '<div class="ad-run" data-run-session="s"{needs}>'
TORCH = ' data-run-needs="torch"'


def test_blocks_are_counted_by_their_session_and_torch_by_its_mark():
    pages = [BLOCK.format(needs="") * 3, BLOCK.format(needs=TORCH) * 2 + "<p>text</p>"]
    assert count_blocks(pages) == {"blocks": 5, "torch": 2, "browser": 3}


def test_filling_is_the_same_the_second_time():
    html = '<p><span class="ad-count" data-count="torch"></span> of them</p>'
    once = fill_counts(html, {"torch": 7})
    assert once == '<p><span class="ad-count" data-count="torch">7</span> of them</p>'
    assert fill_counts(once, {"torch": 7}) == once
    assert fill_counts(once, {"torch": 8}) == once.replace(">7<", ">8<")


def test_an_unknown_count_names_itself():
    with pytest.raises(ValueError, match="no count named 'pages'"):
        fill_counts('<span class="ad-count" data-count="pages"></span>', {"torch": 1})


def test_each_edition_counts_its_own_pages(tmp_path):
    editions = read_editions(ROOT / "mkdocs.yml")
    home = '<span class="ad-count" data-count="blocks"></span>'
    (tmp_path / "zh" / "a").mkdir(parents=True)
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(home, encoding="utf-8")
    (tmp_path / "a" / "index.html").write_text(BLOCK.format(needs="") * 2)
    (tmp_path / "zh" / "index.html").write_text(home, encoding="utf-8")
    (tmp_path / "zh" / "a" / "index.html").write_text(BLOCK.format(needs=TORCH))
    counts = write_counts(tmp_path, editions)
    assert counts == {
        "en": {"blocks": 2, "torch": 0, "browser": 2},
        "zh": {"blocks": 1, "torch": 1, "browser": 0},
    }
    assert ">2</span>" in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert ">1</span>" in (tmp_path / "zh" / "index.html").read_text(encoding="utf-8")


def test_a_page_rewritten_since_the_last_build_is_counted_again(tmp_path):
    editions = read_editions(ROOT / "mkdocs.yml")
    (tmp_path / "zh").mkdir()
    for folder in (tmp_path, tmp_path / "zh"):
        (folder / "index.html").write_text("<p>home</p>", encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(BLOCK.format(needs=""), encoding="utf-8")
    assert write_counts(tmp_path, editions)["en"]["torch"] == 0
    page.write_text(BLOCK.format(needs=TORCH), encoding="utf-8")  # another size
    assert write_counts(tmp_path, editions)["en"] == {
        "blocks": 1,
        "torch": 1,
        "browser": 0,
    }
