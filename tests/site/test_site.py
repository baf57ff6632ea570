import json
import re
import time
import xml.etree.ElementTree as ET
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import material
import nbformat
import pytest
from helpers import ROOT
from latex2mathml.converter import convert
from mkdocs.contrib.search import LangOption

from attention_docs_site.editions import catalog, read_editions
from attention_docs_site.execute.notebooks import (
    absolute_links,
    notebook_name,
    write_notebook,
    write_notebook_zips,
)
from attention_docs_site.html_walk import RAW_TEXT, Handler, walk
from attention_docs_site.markdown.api_links import link_library_calls
from attention_docs_site.markdown.mathml import latex_to_mathml
from attention_docs_site.page.meta import describe_page
from attention_docs_site.page.notebook_pages import (
    check_notebook_rendered,
    download_link,
    heading_ids,
    is_notebook,
    rename_headings,
    rename_toc,
    slim_notebook,
)
from attention_docs_site.page.polish import polish_page
from attention_docs_site.plugin import AttentionDocsPlugin
from attention_docs_site.site.search_split import (
    edition_config,
    search_languages,
    split_search_index,
)
from attention_docs_site.upstream.guard import UpstreamChanged as ThemeMarkupChanged
from attention_docs_site.upstream.latex2mathml import written_out
from attention_docs_site.upstream.material_html import fetch_explorables_late
from attention_docs_site.upstream.material_page import (
    ApiStyleSheet,
    EditionBase,
    EmptyTabindex,
    LanguageAlternates,
    SearchLabel,
)


def edit(page, *handlers):
    """The page after one walk with these edits only."""
    return walk(page, handlers)


def _markdown(text):
    import markdown

    return markdown.markdown(
        text,
        extensions=[
            "attr_list",
            "pymdownx.arithmatex",
            "attention_docs_site.markdown.mathml",
            "pymdownx.superfences",
        ],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )


def test_inline_and_display_formulas_become_mathml_in_markdown():
    out = _markdown(
        "Weights $\\alpha_{ij} < 1$ sum to one, *and* \\(x\\) too:\n\n"
        "$$\n\\sum_{j} \\alpha_{ij} = 1 \\quad a < b\n$$\n"
    )
    inline = latex_to_mathml("\\alpha_{ij} &lt; 1", display=False)
    block = latex_to_mathml(
        "\n\\sum_{j} \\alpha_{ij} = 1 \\quad a &lt; b\n", display=True
    )
    assert out == (
        f"<p>Weights {inline} sum to one, <em>and</em> "
        f"{latex_to_mathml('x', display=False)} too:</p>\n"
        f'<div class="ad-math" tabindex="0">{block}</div>'
    )
    assert "arithmatex" not in out


ANNOTATED = """Text.

```python
data = make_dataset()  # (1)!
```

1.  The seed.

- In a list:

    ```python
    x = 1  # (2)!
    ```

    1.  A note.

```python
plain = 1
```

1.  Not annotations: the block has no marker.
"""


def _annotated(text):
    import markdown

    return markdown.markdown(
        text,
        extensions=[
            "pymdownx.highlight",
            "pymdownx.superfences",
            "attention_docs_site.markdown.annotations",
        ],
    )


def test_the_list_after_an_annotated_code_block_is_classed_where_it_is_made():
    out = _annotated(ANNOTATED)
    assert out.count('<ol class="ad-annotations">') == 2  # nested one included
    assert re.search(
        r'# \(1\)!</span>\n</code></pre></div>\n<ol class="ad-annotations">', out
    )
    assert re.search(
        r"plain.*?</code></pre></div>\n<ol>\n<li>Not annotations", out, re.S
    )


def test_an_annotated_block_without_its_list_names_the_reach():
    with pytest.raises(
        ThemeMarkupChanged, match="code annotation lists.*followed by <p>"
    ):
        _annotated("```python\nx = 1  # (1)!\n```\n\nNo list.\n")
    with pytest.raises(ThemeMarkupChanged, match="followed by nothing"):
        _annotated("```python\nx = 1  # (1)!\n```\n")


def test_with_the_speed_edits_off_the_lists_are_classed_all_the_same():
    """A layout's correctness, not a speed measure: the switch leaves it on."""
    from attention_docs_site.upstream import guard

    guard.start_build(speed_edits=False)
    try:
        out = _annotated(ANNOTATED)
    finally:
        guard.start_build(speed_edits=True)
    assert out.count('<ol class="ad-annotations">') == 2


def test_math_in_code_is_left_alone():
    out = _markdown("Code `$x$` and `\\(y\\)`:\n\n```text\n$$z$$ and $w$\n```\n")
    assert "<math" not in out
    assert "<code>$x$</code>" in out and "<code>\\(y\\)</code>" in out
    assert "$$z$$ and $w$" in out


def test_an_empty_formula_in_markdown_fails():
    with pytest.raises(ValueError, match="empty formula"):
        _markdown("Math: \\( \\) here.")


def test_a_paragraph_of_one_inline_formula_stays_a_paragraph():
    assert _markdown("$x$") == f"<p>{latex_to_mathml('x', display=False)}</p>"


def test_mathml_content_is_the_formula():
    root = ET.fromstring(latex_to_mathml("x^2 < y", display=False))
    assert root.tag == "math"
    identifiers = [el.text for el in root.iter("mi")]
    assert identifiers == ["x", "y"]
    assert [el.text for el in root.iter("mo")] == ["<"]


@pytest.mark.parametrize(
    "latex",
    [
        r"\sum_{j=1}^{m} \alpha_j(x) = 1 < \infty",
        r"f(\mathbf{k}) \leq \sqrt{d} \cdot w",
    ],
)
def test_mathml_is_written_with_characters_not_references(latex):
    written = latex_to_mathml(latex, display=True)
    as_converted = written_out(convert(latex, display="block"))
    assert "xmlns" not in written and "&#x" not in written.replace("&#x0003C;", "")
    assert len(written) < len(as_converted)

    def read(mathml):  # each element's tag, attributes and text, as XML reads them
        root = ET.fromstring(mathml)
        return [(el.tag.split("}")[-1], el.attrib, el.text) for el in root.iter()]

    expected = read(as_converted)
    expected[0][1].update(dir="ltr")
    assert read(written) == expected


def test_html_escaped_source_is_unescaped_first():
    root = ET.fromstring(latex_to_mathml("a &lt; b", display=False))
    assert [el.text for el in root.iter("mo")] == ["<"]
    assert [el.text for el in root.iter("mi")] == ["a", "b"]


def test_empty_formula_is_an_error():
    with pytest.raises(ValueError, match="empty formula"):
        latex_to_mathml("  ", display=True)


def test_hook_names_the_page(tmp_path):
    source = tmp_path / "chapter.md"
    source.write_text("# Chapter\n")
    page = SimpleNamespace(
        file=SimpleNamespace(src_uri="chapter.md", abs_src_path=str(source)), meta={}
    )
    config = SimpleNamespace(theme={"language": "en"}, plugins={})
    plugin = AttentionDocsPlugin()
    plugin.editions = read_editions(ROOT / "mkdocs.yml")
    plugin.settings = SimpleNamespace(run_buttons=True)  # as on_config sets them
    with pytest.raises(ValueError, match="chapter.md"):
        plugin.on_page_content('<p>{ "nbformat": 4 }</p>', page=page, config=config)


NOTEBOOK_HTML = """<script>clipboard helper</script>
<style>.jp-Notebook { big: css }</style>
<script type="text/x-mathjax-config">MathJax.Hub.Config({})</script>
<script type="module">mermaid()</script>
<div class="jupyter-wrapper">
<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput">
<p>Weights $\\alpha_{ij}$ cost $5 and <code>$x$</code> stays code.</p>
<p>$$
f(x) = \\sum_i y_i
$$</p>
</div>
<div class="highlight-ipynb hl-python"><pre>price = "$3 and $4"</pre></div>
<clipboard-copy ,="" aria-label="Copy to Clipboard" for="cell-1">
<div>
<span class="notice" hidden="">Copied!</span>
</div></clipboard-copy>
</div>"""


def test_slim_notebook_keeps_only_the_notebook_and_copy_script():
    out = slim_notebook(NOTEBOOK_HTML)
    assert "<style" not in out and "MathJax" not in out and "mermaid" not in out
    assert "clipboard helper" in out
    assert out.count("<math") == 2
    assert '<div class="ad-math" tabindex="0"><math' in out and 'display="block"' in out
    assert '<pre tabindex="0">' in out  # scrollable by keyboard
    assert "<code>$x$</code>" in out  # code is not math
    assert 'price = "$3 and $4"' in out  # nor is code output
    assert "cost $5 and" in out  # a lone dollar is not math
    assert 'class="highlight highlight-ipynb hl-python"' in out
    # mkdocs-jupyter's stray comma, an attribute named ",", is gone.
    assert '<clipboard-copy role="button" aria-label="Copy" for="cell-1">' in out


def test_a_notebook_s_copy_buttons_speak_the_page_s_language():
    out = slim_notebook(NOTEBOOK_HTML, "复制", "已复制")
    assert 'aria-label="复制"' in out and ">已复制</span>" in out
    assert "Copy to Clipboard" not in out and "Copied!" not in out


def test_is_notebook():
    assert is_notebook(NOTEBOOK_HTML)
    assert not is_notebook("<p>chapter</p>")


@pytest.mark.parametrize(
    ("src_uri", "name"),
    [
        ("exercises/attention-pooling.md", "attention-pooling.ipynb"),
        ("exercises/attention-pooling.zh.md", "attention-pooling.ipynb"),
    ],
)
def test_notebook_name(src_uri, name):
    assert notebook_name(src_uri) == name
    links = download_link(src_uri, "Download", "All")
    assert f'href="{name}"' in links and 'href="../notebooks.zip"' in links


EDITIONS = {"en": "", "zh": "zh/"}


def test_notebook_zips_are_per_language_and_reproducible(tmp_path):
    site = tmp_path / "site"
    for folder, text in ((site / "exercises", "en"), (site / "zh" / "exercises", "zh")):
        for name in ("b", "a"):
            (folder / name).mkdir(parents=True)
            (folder / name / f"{name}.ipynb").write_text(f"{text} {name}")
    (site / "exercises" / "a" / "index.html").write_text("not a notebook")
    wheel = site / "dist" / "attention_docs-1.0-py3-none-any.whl"
    wheel.parent.mkdir()
    wheel.write_bytes(b"the wheel")
    written = write_notebook_zips(site, wheel, EDITIONS)
    assert written == [
        site / "exercises" / "notebooks.zip",
        site / "zh" / "exercises" / "notebooks.zip",
    ]
    first = [path.read_bytes() for path in written]
    for lang, path in zip(("en", "zh"), written, strict=True):
        with zipfile.ZipFile(path) as archive:
            top = f"attention_docs-exercises-{lang}"
            assert archive.namelist() == [
                f"{top}/a.ipynb",
                f"{top}/attention_docs-1.0-py3-none-any.whl",
                f"{top}/b.ipynb",
            ]
            assert archive.read(f"{top}/b.ipynb").decode() == f"{lang} b"
            assert archive.read(f"{top}/{wheel.name}") == b"the wheel"
            dates = {info.date_time for info in archive.infolist()}
            assert dates == {(1980, 1, 1, 0, 0, 0)}
    time.sleep(1.1)  # a zip would carry a later time if it took the clock's
    assert [
        path.read_bytes() for path in write_notebook_zips(site, wheel, EDITIONS)
    ] == first


def test_write_notebook_produces_a_valid_ipynb(tmp_path):
    source = tmp_path / "nb.md"
    source.write_text(
        "---\njupyter:\n  kernelspec:\n    display_name: Python 3\n"
        "    language: python\n    name: python3\n---\n\n# Title\n\n"
        "```python\n1 + 1\n```\n",
        encoding="utf-8",
    )
    url = "https://example.org/docs/zh/exercises/nb/"
    written = write_notebook(source, tmp_path / "out" / "nb.ipynb", url)
    notebook = nbformat.read(written, as_version=4)
    nbformat.validate(notebook)
    assert [cell.cell_type for cell in notebook.cells] == ["markdown", "code"]
    assert notebook.cells[1].source == "1 + 1"
    assert notebook.cells[1].outputs == []  # not run in this build
    assert notebook.metadata.kernelspec.name == "python3"


def test_write_notebook_carries_this_builds_outputs_and_absolute_links(tmp_path):
    source = tmp_path / "nb.md"
    source.write_text("# Title\n", encoding="utf-8")
    executed = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("See [the chapter](../../chapter/)."),
            nbformat.v4.new_code_cell(
                "print(2)",
                execution_count=1,
                outputs=[nbformat.v4.new_output("stream", name="stdout", text="2\n")],
            ),
        ]
    )
    url = "https://example.org/docs/zh/exercises/nb/"
    written = write_notebook(
        source, tmp_path / "nb.ipynb", url, nbformat.writes(executed)
    )
    notebook = nbformat.read(written, 4)
    assert notebook.cells[0].source == (
        "See [the chapter](https://example.org/docs/zh/chapter/)."
    )
    assert notebook.cells[1].outputs[0].text == "2\n"


BASE = "https://example.org/site/zh/exercises/pooling/"


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("[a](../../pooling/)", "[a](https://example.org/site/zh/pooling/)"),
        ("[a](../../pooling/#h-1)", "[a](https://example.org/site/zh/pooling/#h-1)"),
        (
            "![f](img.svg)",
            "![f](https://example.org/site/zh/exercises/pooling/img.svg)",
        ),
        ("[a]( <../x/> )", "[a]( <https://example.org/site/zh/exercises/x/> )"),
        ("[r]: ../../glossary/", "[r]: https://example.org/site/zh/glossary/"),
        (
            '<a href="../../api/">api</a>',
            '<a href="https://example.org/site/zh/api/">api</a>',
        ),
        ("[a](#local)", "[a](#local)"),
        ("[a](https://arxiv.org/abs/1)", "[a](https://arxiv.org/abs/1)"),
        ("[a](mailto:x@example.org)", "[a](mailto:x@example.org)"),
        ("no link (../x/) here", "no link (../x/) here"),
    ],
)
def test_absolute_links(markdown, expected):
    assert absolute_links(markdown, BASE) == expected


def test_heading_ids_are_meaningful_for_chinese():
    content = (
        '<h1 id="">练习：注意力汇聚<a class="anchor-link" href="#">¶</a></h1>'
        '<h2 id="1">1. 更多的训练样本</h2>'
        '<h2 id="2-epanechnikov">2. Epanechnikov 核</h2>'
        '<h2 id="">小结</h2><h2 id="">小结</h2>'
    )
    ids = heading_ids(content)
    assert ids == [
        "练习注意力汇聚",
        "1-更多的训练样本",
        "2-epanechnikov-核",
        "小结",
        "小结_1",
    ]
    renamed = rename_headings(content, ids)
    assert '<h1 id="练习注意力汇聚">' in renamed
    assert 'href="#练习注意力汇聚"' in renamed
    assert renamed.count('id="小结') == 2


def test_rename_toc_follows_document_order():
    child = SimpleNamespace(id="1", children=[])
    top = SimpleNamespace(id="_1", children=[child])
    rename_toc([top], ["title", "first"])
    assert (top.id, child.id) == ("title", "first")


HEAD = """<html><head>
<link rel="canonical" href="https://x.example/docs/a/">
          <link rel="alternate" href="./" hreflang="en">
          <link rel="alternate" href="../zh/a/" hreflang="zh">
<link rel="alternate" type="application/rss+xml" href="feed.xml">
</head><body><a href="../zh/a/" hreflang="zh" class="md-select__link">中文</a>
<div class="md-search" data-md-component="search" role="dialog">
<input class="md-search__input" name="query" aria-label="搜索" placeholder="搜索">
</div></body></html>"""


def test_language_alternates_leave_the_head_but_not_the_menu():
    out = edit(HEAD, LanguageAlternates())
    assert 'hreflang="en"' not in out
    assert out.count('hreflang="zh"') == 1 and 'class="md-select__link">中文' in out
    assert "rss+xml" in out and 'rel="canonical"' in out  # other links stay


def test_search_dialog_is_named_by_its_input_label():
    out = edit(HEAD, SearchLabel())
    assert 'role="dialog" aria-label="搜索"' in out
    with pytest.raises(ThemeMarkupChanged, match="search"):
        edit("<p>no search</p>", SearchLabel())  # every page of the site has one


def test_a_notebook_source_not_rendered_as_a_notebook_is_refused(tmp_path):
    notebook = tmp_path / "nb.md"
    notebook.write_text("---\njupyter:\n  jupytext: {}\n---\n\n# Title\n")
    page = tmp_path / "page.md"
    page.write_text("# Title\n\njupyter:\n")
    with pytest.raises(ValueError, match="not rendered as a notebook"):
        check_notebook_rendered(notebook, "<h1>Title</h1>")
    check_notebook_rendered(notebook, '<div class="jupyter-wrapper">…</div>')
    check_notebook_rendered(page, "<h1>Title</h1><p>jupyter:</p>")  # not a notebook
    raw = '<p>{ "cells": [{ &quot;cell_type&quot;: "code" }], "nbformat": 4 }</p>'
    with pytest.raises(ValueError, match="raw notebook JSON"):
        check_notebook_rendered(page, raw)


def test_description_is_the_first_paragraph_without_markup_or_footnotes():
    page = SimpleNamespace(meta={})
    describe_page(
        page,
        '<p></p><p>Attention <em>pools</em> values<sup id="r">1</sup> &amp; more.</p>',
    )
    assert page.meta["description"] == "Attention pools values & more."
    long = SimpleNamespace(meta={})
    describe_page(long, "<p>" + "word " * 100 + "</p>", limit=50)
    assert long.meta["description"] == ("word " * 10).strip() + "…"
    chinese = SimpleNamespace(meta={})
    describe_page(chinese, "<p>" + "注意力" * 40 + "</p>", limit=50)
    assert chinese.meta["description"] == ("注意力" * 40)[:50] + "…"
    math = SimpleNamespace(meta={})
    formula = latex_to_mathml("w = 1/h", display=False)
    describe_page(math, f"<p>Learn {formula} from the data.</p>")
    assert math.meta["description"] == "Learn w=1/h from the data."  # no LaTeX
    kept = SimpleNamespace(meta={"description": "Set by the author."})
    describe_page(kept, "<p>Other text.</p>")
    assert kept.meta["description"] == "Set by the author."


def test_library_calls_are_linked_after_their_code_block():
    markdown = """Text.

```python
from attention_docs import make_dataset, nadaraya_watson

data = make_dataset()  # (1)!
```

1.  A note on the seed.

1. A list item:

    ```python exec="on"
    print(figures.identity_heatmap(lang="zh"))
    ```

```python
import torch
```
"""
    out = link_library_calls(markdown, catalog("zh")["library_label"])
    first = (
        "1.  A note on the seed.\n\n"
        '<small class="ad-library">所用的库函数：'
        "[make_dataset][attention_docs.data.make_dataset], "
        "[nadaraya_watson][attention_docs.pooling.nadaraya_watson]</small>"
    )
    assert first in out  # after the annotation list, not between block and list
    assert (
        '    ```\n\n    <small class="ad-library">所用的库函数：'
        "[figures.identity_heatmap][attention_docs.figures.identity_heatmap]</small>"
    ) in out
    assert out.count("ad-library") == 2  # nothing after the torch block


def test_blank_lines_go_but_verbatim_text_stays():
    html = (
        "<div>\n    \n      <p>a\n\n   b</p>\n\n"
        "<pre><code>x\n\n    y</code></pre>\n  \n"
        "<script>var s = '</div>\n\n\n';</script><code>k\n\n l</code>\n</div>"
        '<div class="clipboard-copy-txt" id="c">a\n\nb</div>\n\n'
        "<TEXTAREA>t\n\n  u</TEXTAREA>\n\n<PRE>p\n\n q</PRE><style>s\n\n{}</style>"
    )
    assert walk(html, [], collapse=True) == (
        "<div>\n<p>a\nb</p>\n"
        "<pre><code>x\n\n    y</code></pre>\n"
        "<script>var s = '</div>\n\n\n';</script><code>k\n\n l</code>\n</div>"
        '<div class="clipboard-copy-txt" id="c">a\n\nb</div>\n'
        "<TEXTAREA>t\n\n  u</TEXTAREA>\n<PRE>p\n\n q</PRE><style>s\n{}</style>"
    )


def test_a_walk_without_edits_copies_every_byte():
    page = (
        "<!DOCTYPE html><!-- a <b>\n\n comment --><P CLASS=x>&amp; &lt;b&gt; &#39;"
        "<br/><svg><path d='M0 0'/>\n\n</svg><math><mi>x</mi></math>"
        "<p>unclosed <a href=x>link</p>]]><?pi?>\r\n\ttail <"
    )
    assert walk(page, []) == page


TAGS = (
    '<!DOCTYPE html><html><HEAD><!-- <div class="c"> in a comment -->'
    "<link rel=alternate href='a>b' hreflang=zh></head>\n<body>"
    '<div class="md-search" data-x="1 > 0" role="dialog"><input class=q value=&amp;>'
    "<pre><code><div>not a tag</div></code></pre><a href=x title=\"say 'hi'\">a</a>"
    "<script>if (a < b) { x = '</div>'; }</script><br/><p>1 < 2</p>"
    '<svg viewBox="0 0 1 1"><g><path d="M0"/></g></svg></div></body></html>'
)


class _Recorder(HTMLParser):
    """The stdlib parser's tags, at their offsets (raw text read as the walk does)."""

    CDATA_CONTENT_ELEMENTS = tuple(sorted(RAW_TEXT))

    def __init__(self):
        super().__init__()
        self.tags = []

    def _at(self):
        line, column = self.getpos()
        return sum(len(row) for row in TAGS.splitlines(True)[: line - 1]) + column

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, self._at(), False, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self.tags.append((tag, self._at(), True, {}))


class _Every(Handler):
    def __init__(self, names):
        self.names = dict.fromkeys(names, "")
        self.tags = []

    def tag(self, tag, page):
        self.tags.append((tag.name, tag.start, tag.closing, tag.attrs))


def test_the_walk_finds_the_tags_the_stdlib_parser_finds():
    reference = _Recorder()
    reference.feed(TAGS)
    reference.close()
    every = _Every({name for name, *_ in reference.tags})
    assert walk(TAGS, [every]) == TAGS
    assert every.tags == reference.tags
    link = {"rel": "alternate", "href": "a>b", "hreflang": "zh"}
    assert ("link", TAGS.index("<link"), False, link) in every.tags


def _page(**changed):
    page = PAGE
    for old, new in changed.values():
        assert old in page
        page = page.replace(old, new)
    return page


PAGE = """<!doctype html>
<html lang="zh">
  <head>
    <meta charset="utf-8">
    <link rel="alternate" href="../a/" hreflang="en">
    <link rel="alternate" href="./" hreflang="zh">
    <link rel="stylesheet" href="../assets/_mkdocstrings.css">

  </head>
  <body>
    <div class="md-search" data-md-component="search" role="dialog">
      <input class="md-search__input" name="query" aria-label="搜索" required>
    </div>
    <a href="../a/" hreflang="en" class="md-select__link">English</a>
    <ul>
      <li class="md-nav__item md-nav__item--section md-nav__item--nested">
        <input class="md-nav__toggle md-toggle" type="checkbox" id="__nav_2">
        <label class="md-nav__link" for="__nav_2" tabindex="">Chapters</label>
      </li>
    </ul>
    <pre><code>a

    b</code></pre>
    <script id="__config" type="application/json">{"base": "..", "x": 1}</script>
  </body>
</html>
"""


def test_a_page_is_written_in_one_walk():
    head = '<script id="ad-edition">{}</script>'
    assert polish_page(PAGE, head, "zh") == (
        '<!doctype html>\n<html lang="zh">\n<head>\n<meta charset="utf-8">\n'
        f"</head>{head}\n".replace(f"</head>{head}", f"{head}</head>")
        + "<body>\n"
        '<div class="md-search" data-md-component="search" role="dialog"'
        ' aria-label="搜索">\n'
        '<input class="md-search__input" name="query" aria-label="搜索" required>\n'
        "</div>\n"
        '<a href="../a/" hreflang="en" class="md-select__link">English</a>\n<ul>\n'
        '<li class="md-nav__item md-nav__item--section md-nav__item--nested">\n'
        '<input class="md-nav__toggle md-toggle" type="checkbox" id="__nav_2">\n'
        '<label class="md-nav__link" for="__nav_2">Chapters</label>\n</li>\n</ul>\n'
        "<pre><code>a\n\n    b</code></pre>\n"
        '<script id="__config" type="application/json">{"base": "../zh/", "x": 1}'
        "</script>\n</body>\n</html>\n"
    )


@pytest.mark.parametrize(
    ("old", "new", "reach"),
    [
        ('tabindex=""', "tabindex", "empty tabindex"),
        ('rel="alternate" href="./"', 'href="./" rel="alternate"', "hreflang"),
        ('search" role="dialog"', 'search" role="dialog" hidden', "search dialog"),
        (' aria-label="搜索"', "", "search dialog"),
        ("_mkdocstrings.css", "_mkdocstrings.min.css", "style sheet on API pages"),
        ('"base": ".."', '"root": ".."', "search base"),
        ('id="__config"', 'id="config"', "search base"),
    ],
)
def test_a_theme_edit_that_no_longer_matches_fails_naming_itself(old, new, reach):
    with pytest.raises(ThemeMarkupChanged, match=f"^upstream reach .{{0,40}}{reach}"):
        polish_page(_page(edit=(old, new)), "<x>", "zh")


def test_python_markdown_writes_its_titles_in_the_edition_s_words():
    from types import SimpleNamespace

    import markdown

    from attention_docs_site.markdown import edition_markdown

    editions = read_editions(ROOT / "mkdocs.yml")
    config = SimpleNamespace(
        markdown_extensions=["toc", "footnotes"],
        mdx_configs={"toc": {"permalink": True}},
    )
    edition_markdown(config, editions.get("zh"))
    html = markdown.markdown(
        "# Title\n\nText[^1].\n\n[^1]: A note.",
        extensions=config.markdown_extensions,
        extension_configs=config.mdx_configs,
    )
    assert 'title="永久链接"' in html and 'title="返回正文中脚注 1 的位置"' in html
    assert "Permanent link" not in html and "Jump back" not in html


def test_the_search_learns_each_edition_s_language_that_lunr_can_stem():
    """Not one it cannot: Material's pages would ask for lunr.fa.min.js, which
    does not exist, and search would never start, in every edition. Hebrew,
    which the theme has a lunr file for and MkDocs' own list lacks, is in."""
    templates = Path(material.__file__).parent / "templates"
    search = SimpleNamespace(config=SimpleNamespace(lang=["en"]))
    config = SimpleNamespace(
        plugins={"material/search": search},
        theme=SimpleNamespace(dirs=[str(templates)]),
    )
    chosen = search_languages(config, ["en", "zh", "ar", "he", "fa", "ur"])
    assert chosen == search.config.lang == ["en", "zh", "ar", "he"]
    lunr = templates / "assets/javascripts/lunr/min"
    assert all((lunr / f"lunr.{lang}.min.js").is_file() for lang in chosen[1:])
    assert not (lunr / "lunr.fa.min.js").exists()
    assert "he" not in LangOption().run_validation(["he"])  # MkDocs' list


def test_an_edition_lunr_cannot_stem_gets_an_index_that_keeps_its_words():
    config = {"lang": ["en", "zh", "ar"], "pipeline": ["stopWordFilter"], "x": 1}
    # Each edition's index names its pages' languages only: no edition makes
    # the reader's browser load another's lunr files.
    assert edition_config(config, "ar") == {**config, "lang": ["en", "ar"]}
    assert edition_config(config, "zh")["lang"] == ["en", "zh"]
    assert edition_config(config, "en")["lang"] == ["en"]
    assert edition_config(config, "fa") == {
        "lang": ["en"],
        "pipeline": ["stopWordFilter"],
        "x": 1,
    }
    trimmed = edition_config({"lang": ["en"], "pipeline": ["trimmer"]}, "ur")
    assert trimmed["pipeline"] == []  # the filter that drops Arabic script


def test_the_search_index_splits_by_edition_and_pages_point_at_theirs(tmp_path):
    site = tmp_path / "site"
    docs = [
        {"location": "", "title": "Home", "text": "a"},
        {"location": "attention-pooling/#x", "title": "NW", "text": "b"},
        {"location": "zh/", "title": "首页", "text": "c"},
        {"location": "zh/attention-pooling/#x", "title": "核回归", "text": "d"},
    ]
    config = {"lang": ["en", "zh"], "separator": "[\\\\s]+"}
    (site / "search").mkdir(parents=True)
    (site / "search" / "search_index.json").write_text(
        json.dumps({"config": config, "docs": docs})
    )
    (site / "sitemap.xml").write_text("<urlset/>")
    (site / "zh").mkdir()
    assert split_search_index(site, ("zh",)) == {"zh": 2, "default": 2}
    english = json.loads((site / "search" / "search_index.json").read_text())
    chinese = json.loads((site / "zh" / "search" / "search_index.json").read_text())
    assert english == {"config": {**config, "lang": ["en"]}, "docs": docs[:2]}
    assert chinese["config"] == config  # English fallbacks and Chinese pages
    assert [d["location"] for d in chinese["docs"]] == ["", "attention-pooling/#x"]
    assert [d["title"] for d in chinese["docs"]] == ["首页", "核回归"]
    assert (site / "zh" / "sitemap.xml").read_text() == "<urlset/>"
    page = (
        '<script id="__config" type="application/json">'
        '{"a": 1, "base": "../.."}</script>'
    )
    assert '"base": "../../zh/"' in edit(page, EditionBase("zh"))
    with pytest.raises(ThemeMarkupChanged, match="search base"):
        edit("<p>no config</p>", EditionBase("zh"))


def test_the_package_docstring_names_every_module():
    import attention_docs_site

    package = ROOT / "src" / "attention_docs_site"
    modules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    named = set(re.findall(r"``(\w+)``", attention_docs_site.__doc__))
    assert modules - named == set()


@pytest.mark.parametrize(
    ("fix", "page"),
    [
        # Material renamed the search dialog's class: its label cannot be set.
        (
            lambda page: edit(page, SearchLabel()),
            '<div class="md-search-x" role="dialog">'
            '<input class="md-search__input" name="query" aria-label="Search">',
        ),
        # i18n wrote its alternates another way, beside a language menu.
        (
            lambda page: edit(page, LanguageAlternates()),
            '<head><link hreflang="zh" rel="alternate" href="zh/"></head>'
            '<a class="md-select__link" hreflang="zh">',
        ),
        # Material's __config moved: the page would search the wrong edition.
        (
            lambda page: edit(page, EditionBase("zh")),
            "<script>var config={}</script>",
        ),
        # mkdocs-jupyter's code cells changed class.
        (slim_notebook, '<div class="jupyter-wrapper"><div class="hl-python"></div>'),
        # mkdocstrings renamed its style sheet: every page would block on it.
        (
            lambda page: edit(page, ApiStyleSheet()),
            '<link rel="stylesheet" href="../assets/_mkdocstrings-v2.css">',
        ),
        # The explorables' script became a classic one (mkdocs.yml): its
        # priority is the browser's to choose again.
        (fetch_explorables_late, '<script src="../assets/explorables.js" defer>'),
    ],
)
def test_an_edit_of_the_theme_s_html_applies_or_fails(fix, page):
    with pytest.raises(ThemeMarkupChanged, match="theme|no "):
        fix(page)


def test_the_theme_edits_apply_to_the_real_markup():
    page = (
        '<head><link rel="alternate" href="zh/" hreflang="zh">\n</head>'
        '<div class="md-search" data-md-component="search" role="dialog">'
        '<input class="md-search__input" name="query" aria-label="Search">'
        '<a class="md-select__link" hreflang="zh">'
    )
    polished = edit(page, LanguageAlternates(), SearchLabel())
    assert 'role="dialog" aria-label="Search">' in polished
    assert 'rel="alternate"' not in polished


def test_the_explorables_module_is_fetched_late_and_still_a_module():
    tag = '<script src="../../assets/explorables.js" type="module"></script>'
    assert fetch_explorables_late(f"<p>x</p>{tag}") == (
        '<p>x</p><script src="../../assets/explorables.js" type="module" '
        'fetchpriority="low"></script>'
    )


def test_an_empty_tabindex_is_dropped_and_a_real_one_kept():
    page = (
        '<label class="md-nav__link" for="a" tabindex="">A</label>'
        '<label class="md-nav__link" for="b" tabindex="0">B</label>'
    )
    assert edit(page, EmptyTabindex()) == (
        '<label class="md-nav__link" for="a">A</label>'
        '<label class="md-nav__link" for="b" tabindex="0">B</label>'
    )


def test_the_api_style_sheet_stays_only_where_there_are_api_entries():
    link = '<link rel="stylesheet" href="../assets/_mkdocstrings.css">\n'
    chapter = f"<head>{link}</head><p>prose</p>"
    api = f'<head>{link}</head><div class="doc doc-object doc-module">'
    assert edit(chapter, ApiStyleSheet()) == "<head></head><p>prose</p>"
    assert edit(api, ApiStyleSheet()) == api
    # A second edition's pages link it twice (mkdocstrings adds it per config).
    twice = chapter.replace(link, link * 2)
    assert edit(twice, ApiStyleSheet()) == "<head></head><p>prose</p>"
    assert edit(api.replace(link, link * 2), ApiStyleSheet()) == api


def test_the_scripts_block_is_deferred_and_the_explorables_fetched_late():
    from attention_docs_site.upstream import guard
    from attention_docs_site.upstream.material_html import template_edit

    block = (
        '<script src="../assets/javascripts/bundle.a5f9d56c.min.js"></script>\n'
        '<script src="../assets/explorables.js" type="module"></script>'
    )
    edited = template_edit(block, "script tags")
    assert 'bundle.a5f9d56c.min.js" defer></script>' in edited
    assert 'explorables.js" type="module" fetchpriority="low"></script>' in edited
    guard.start_build(speed_edits=False)
    try:
        assert template_edit(block, "script tags") == block  # both are for speed
    finally:
        guard.start_build(speed_edits=True)
    with pytest.raises(ThemeMarkupChanged, match="scripts deferred"):
        template_edit('<script src="bundle.js"></script>', "script tags")
