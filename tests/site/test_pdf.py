"""The book's parts that need no browser (pdf.py); the PDFs: e2e/test_build.py."""

import re
import unicodedata

from attention_docs_site.site.book.pdf import _ideographs, book_pages, chapter

URL = "https://example.org/docs/"
BOOK = ["zh/attention-cues/", "zh/queries-keys-values/", "zh/glossary/"]


def built(article):
    return (
        '<html><body><article class="md-content__inner md-typeset">'
        f"{article}</article></body></html>"
    )


def test_a_chapter_links_into_the_book_and_out_to_the_site():
    article = (
        '<h1 id="t">查询、键和值<a class="headerlink" href="#t">&para;</a></h1>'
        '<p id="p"><a href="../attention-cues/#cue">a</a> <a href="#p">b</a>'
        ' <a href="../api/#scores">c</a> <a href="https://arxiv.org/">d</a>'
        ' <a href="/docs/zh/glossary/">e</a>'
        ' <a href="../exercises/notebooks.zip">f</a></p>'
    )
    title, section = chapter(built(article), "zh/queries-keys-values/", BOOK, URL)
    assert title == "查询、键和值"
    assert section.startswith(
        '<section class="ad-book-chapter" id="zh-queries-keys-values">'
    )
    hrefs = re.findall(r'href="([^"]*)"', section)
    assert hrefs == [
        "#zh-queries-keys-values--t",
        "#zh-attention-cues--cue",
        "#zh-queries-keys-values--p",
        f"{URL}zh/api/#scores",
        "https://arxiv.org/",
        "#zh-glossary",
        f"{URL}zh/exercises/notebooks.zip",
    ]
    assert 'id="zh-queries-keys-values--p"' in section


def test_the_book_is_the_chapters_then_the_glossary_and_references():
    nav = [
        "index.md",
        {"Chapters": ["a.md", "b.md"]},
        {"Exercises": ["exercises/a.md"]},
        {"Reference": ["glossary.md", "references.md", "api.md"]},
    ]
    assert book_pages(nav) == ["a/", "b/", "glossary/", "references/"]


def test_radicals_in_a_text_map_become_their_ideographs():
    cmap = (
        "1 beginbfchar\n<9D> <2F12>\n<9E> <6CE8>\n<9F> <2EF0>\nendbfchar\n"
        "1 beginbfchar\n<2F12> <0041>\nendbfchar\n"
    )
    fixed = _ideographs(cmap)
    assert "<9D> <529B>" in fixed  # ⼒ KANGXI RADICAL POWER -> 力
    assert unicodedata.normalize("NFKC", "\u2f12") == "\u529b"
    # ⻰ CJK RADICAL SIMPLIFIED DRAGON has no decomposition: the font tells.
    assert "<9F> <9F99>" in fixed  # -> 龙
    assert "<9E> <6CE8>" in fixed  # an ideograph stays
    assert "<2F12> <0041>" in fixed  # a code that looks like a radical is a code


def test_structure_ids_are_numbered_in_order_whatever_chromium_counted():
    from attention_docs_site.site.book.pdf import _renumbered_node_ids

    def pdf(*ids):
        names = " ".join(f"(node{i:08d}) {n} 0 R" for n, i in enumerate(ids))
        return f"<< /Names [{names}] >> /ID (node{ids[-1]:08d}) /T (node)".encode()

    first = _renumbered_node_ids(pdf(30871, 30872, 31346))
    assert first == _renumbered_node_ids(pdf(30872, 30873, 31346))
    assert first == pdf(1, 2, 3)
    assert len(first) == len(pdf(30871, 30872, 31346))


def test_the_pdfs_are_dated_by_source_date_epoch_else_the_last_commit(
    tmp_path, monkeypatch
):
    import datetime
    import subprocess

    from attention_docs_site.site.book.pdf import build_date

    now = datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert build_date(tmp_path, now) == now  # no git: the clock
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "f").write_text("x")
    subprocess.run([*git, "add", "f"], cwd=tmp_path, check=True)
    subprocess.run(
        [*git, "commit", "-q", "-m", "x"],
        cwd=tmp_path,
        check=True,
        env={
            **__import__("os").environ,
            "GIT_COMMITTER_DATE": "2024-05-06T07:08:09Z",
        },
    )
    commit = datetime.datetime(2024, 5, 6, 7, 8, 9, tzinfo=datetime.UTC)
    assert build_date(tmp_path, now) == commit  # twice the same, a minute apart
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1763769600")
    assert build_date(tmp_path, now) == datetime.datetime(
        2025, 11, 22, tzinfo=datetime.UTC
    )


def test_code_annotation_markers_print_as_references_to_the_notes():
    code = (
        '<h1>T</h1><pre><code>data = 1  <span class="c1"># (1)!</span>\n'
        '<span class="c1"># (n_queries, n_keys)</span></code></pre>'
        "<ol><li>The seed.</li></ol>"
    )
    _, section = chapter(built(code), "attention-pooling/", BOOK, URL)
    assert '<span class="c1"># (1)</span>' in section and "(1)!" not in section
    assert '<span class="c1"># (n_queries, n_keys)</span>' in section
    assert "<li>The seed.</li>" in section
