"""Build-time helpers for the MkDocs site, used by ``hooks/site.py``.

- Math written as ``$...$`` or ``$$...$$`` is marked by pymdownx.arithmatex and
  turned into MathML here, so pages show typeset math with no script and no
  request to any other server.
- Warnings from markdown-exec (a code block that raised) do not say which page
  they come from; they are prefixed with the page's source file here.
- Exercise notebooks rendered by mkdocs-jupyter are slimmed: its inlined
  JupyterLab CSS, MathJax and Mermaid loaders are dropped, their math becomes
  MathML too, code takes the theme's highlighting, and each page links to its
  notebook as ``.ipynb``, which is written next to the page.
"""

from __future__ import annotations

import html
import logging
import re
import textwrap
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from latex2mathml.converter import convert
from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority

from . import cache, links, notebooks, translations

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

_INLINE = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.DOTALL)
_BLOCK = re.compile(r'<div class="arithmatex">\\\[(.*?)\\\]</div>', re.DOTALL)


def latex_to_mathml(latex: str, *, display: bool) -> str:
    """Convert one LaTeX formula to a MathML ``<math>`` element.

    Parameters:
        latex: The formula, without delimiters, as HTML-escaped by Markdown.
        display: True for a displayed (block) formula, False for inline.

    Returns:
        The MathML element.
    """
    source = html.unescape(latex).strip()
    if not source:
        raise ValueError("empty formula")
    try:
        return convert(source, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises many exception types
        raise ValueError(f"cannot convert formula {source!r}: {error}") from error


_NOTEBOOK = '<div class="jupyter-wrapper">'
_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)
_MARKDOWN_CELL = re.compile(
    r'(<div class="[^"]*jp-RenderedMarkdown[^"]*"[^>]*>)(.*?)(</div>)', re.DOTALL
)
_LITERAL = re.compile(r"(<code\b.*?</code>|<pre\b.*?</pre>)", re.DOTALL)
_DISPLAY_PARAGRAPH = re.compile(r"<p>\s*\$\$(.+?)\$\$\s*</p>", re.DOTALL)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_DOLLAR_INLINE = re.compile(r"(?<![\\$])\$(?=\S)([^$]+?)(?<=\S)\$(?!\$)")


def _block(latex: str) -> str:
    # A wide formula scrolls sideways; tabindex lets keyboard users scroll it.
    mathml = latex_to_mathml(latex, display=True)
    return f'<div class="ad-math" tabindex="0">{mathml}</div>'


def _dollar_math(text: str) -> str:
    """Typeset ``$$...$$`` and ``$...$`` in HTML text outside code."""
    parts = _LITERAL.split(text)
    for index in range(0, len(parts), 2):  # even parts are outside code
        part = _DISPLAY_PARAGRAPH.sub(lambda m: _block(m[1]), parts[index])
        part = _DISPLAY.sub(lambda m: latex_to_mathml(m[1], display=True), part)
        parts[index] = _DOLLAR_INLINE.sub(
            lambda m: latex_to_mathml(m[1], display=False), part
        )
    return "".join(parts)


def is_notebook(content: str) -> bool:
    """Whether page HTML is an exercise notebook rendered by mkdocs-jupyter."""
    return _NOTEBOOK in content


_RAW_JSON = re.compile(r'"(?:nbformat|cell_type)"\s*:')


def check_notebook_rendered(source: Path, content: str) -> None:
    """Fail when a notebook would be published as its raw source.

    mkdocs-jupyter converts a page only when it recognises it as a notebook
    (for Markdown, a python kernelspec in the jupytext header); other plugins
    can also undo its work (DESIGN.md: i18n and ``.ipynb`` pages). Either way
    the build used to succeed with the source or JSON shown as the page.

    Parameters:
        source: The page's source file.
        content: The page's HTML.

    Raises:
        ValueError: The source is a notebook and the HTML is not a rendered
            notebook, or the HTML shows notebook JSON.
    """
    front, _, _ = translations.split_front_matter(source.read_text("utf-8"), source)
    is_source = source.suffix == ".ipynb" or translations.is_notebook_front(front)
    if is_source and not is_notebook(content):
        raise ValueError(
            "notebook page was not rendered as a notebook and would show its raw "
            "source; mkdocs-jupyter needs a python kernelspec in the jupytext header"
        )
    if not is_notebook(content) and _RAW_JSON.search(html.unescape(content)):
        raise ValueError("page shows raw notebook JSON")


def slim_notebook(content: str) -> str:
    """Reduce mkdocs-jupyter's notebook HTML to the notebook and its copy buttons.

    Parameters:
        content: Page HTML as mkdocs-jupyter rendered it.

    Returns:
        The notebook without inlined CSS, MathJax or Mermaid, with its
        Markdown cells' math as MathML and code highlighted by the theme.
    """
    start = content.index(_NOTEBOOK)
    scripts = [s for s in _SCRIPT.findall(content[:start]) if "clipboard" in s]
    body = (
        content[start:]
        .replace('class="highlight-ipynb', 'class="highlight highlight-ipynb')
        # Long lines scroll sideways; tabindex lets keyboard users scroll them.
        .replace("<pre>", '<pre tabindex="0">')
    )
    body = _MARKDOWN_CELL.sub(lambda m: m[1] + _dollar_math(m[2]) + m[3], body)
    return "".join(scripts) + body


_HEADING = re.compile(r'<h([1-6]) id="([^"]*)">(.*?)</h\1>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def heading_ids(content: str) -> list[str]:
    """New ids for a notebook's headings, made the way the site's pages make theirs.

    nbconvert keeps only ASCII characters in heading ids, so Chinese headings
    get ids such as ``1`` or an empty one. This gives them the ids that
    Python-Markdown with pymdownx's slugify gives headings on other pages.

    Parameters:
        content: Notebook HTML.

    Returns:
        One id per heading, in document order, duplicates numbered.
    """
    from pymdownx.slugs import slugify

    slug = slugify(case="lower")
    ids: list[str] = []
    for match in _HEADING.finditer(content):
        text = html.unescape(_TAG.sub("", match[3])).replace("¶", "").strip()
        new = base = slug(text, "-") or "section"
        counter = 0
        while new in ids:
            counter += 1
            new = f"{base}_{counter}"
        ids.append(new)
    return ids


def rename_headings(content: str, ids: list[str]) -> str:
    """Give the headings of page HTML the ids in ``ids``, in document order."""
    new_ids = iter(ids)

    def heading(match: re.Match[str]) -> str:
        new = next(new_ids, match[2])
        inner = match[3].replace(f'href="#{match[2]}"', f'href="#{new}"')
        return f'<h{match[1]} id="{new}">{inner}</h{match[1]}>'

    return _HEADING.sub(heading, content)


def rename_toc(toc: Iterable[Any], ids: list[str]) -> None:
    """Give a page's table of contents the ids in ``ids``, in document order."""
    new_ids = iter(ids)
    stack = list(toc)[::-1]
    while stack:
        item = stack.pop()
        item.id = next(new_ids, item.id)
        stack.extend(list(item.children)[::-1])


def notebook_name(src_uri: str) -> str:
    """File name of the ``.ipynb`` download for a notebook page source.

    Parameters:
        src_uri: The page source, e.g. ``exercises/attention-pooling.zh.md``.

    Returns:
        E.g. ``attention-pooling.ipynb`` (the language suffix is dropped;
        each language's notebook lives in its own folder).
    """
    stem = PurePosixPath(src_uri).name.split(".")[0]
    return f"{stem}.ipynb"


def download_link(src_uri: str, text: str) -> str:
    """HTML for the link to a notebook page's ``.ipynb``, placed beside the page."""
    name = notebook_name(src_uri)
    return (
        f'<a class="ad-download md-button" href="{name}" download>'
        f"{html.escape(text)}</a>"
    )


_HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')


def drop_language_alternates(output: str) -> str:
    """Remove the hreflang ``<link rel="alternate">`` elements from a page's head.

    Material's script fetches ``sitemap.xml`` relative to each of them, to map
    pages between languages. mkdocs-static-i18n points them at the counterpart
    page, not at a language's root, so every page asked for files such as
    ``zh/attention-cues/sitemap.xml`` and logged a 404. The language menu keeps
    its links, and search engines still learn the counterparts from the
    ``xhtml:link`` alternates in ``sitemap.xml``.

    Parameters:
        output: A built page's HTML.

    Returns:
        The page without those elements in its head.
    """
    head, separator, body = output.partition("</head>")
    return _HEAD_ALTERNATE.sub("", head) + separator + body


_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
_SEARCH_INPUT = re.compile(
    r'class="md-search__input" name="query" aria-label="([^"]*)"'
)


def label_search_dialog(output: str) -> str:
    """Give Material's search dialog an accessible name (its input's label).

    Parameters:
        output: A built page's HTML.

    Returns:
        The page with ``aria-label`` on the search dialog.
    """
    found = _SEARCH_INPUT.search(output)
    if found is None:
        return output
    labelled = _SEARCH_DIALOG.replace(
        'role="dialog"', f'role="dialog" aria-label="{found[1]}"'
    )
    return output.replace(_SEARCH_DIALOG, labelled, 1)


# Link targets in Markdown: inline links and images, reference definitions,
# and HTML href/src attributes.
_LINK_TARGET = re.compile(
    r"(?P<lead>\]\(\s*<?|^ {0,3}\[[^\]]+\]:[ \t]*<?|(?:href|src)=[\"'])"
    r"(?P<target>[^\s)>\"']+)",
    re.M,
)


def absolute_links(markdown: str, base_url: str) -> str:
    """Make the relative link targets of Markdown text absolute.

    A downloaded notebook is opened outside the site, where a link such as
    ``../../attention-pooling/`` leads nowhere. Resolved against the URL the
    notebook's page is published at, it leads to the same page of the same
    language edition. Links within the notebook (``#...``) stay as they are.

    Parameters:
        markdown: A Markdown cell's source.
        base_url: The absolute URL of the notebook's page.

    Returns:
        The source with every other relative target made absolute.
    """

    def resolve(match: re.Match[str]) -> str:
        target = match["target"]
        if target.startswith("#") or urlsplit(target).scheme:
            return match[0]
        return match["lead"] + urljoin(base_url, target)

    return _LINK_TARGET.sub(resolve, markdown)


def write_notebook(source: Path, destination: Path, page_url: str) -> Path:
    """Write the ``.ipynb`` download of a notebook page.

    The notebook is the one the page shows: with the outputs of this build's
    run (none when notebooks are not executed), and with its links made
    absolute (:func:`absolute_links`) so that they work once downloaded.

    Parameters:
        source: The ``.md`` notebook.
        destination: The ``.ipynb`` file to write.
        page_url: The absolute URL of the notebook's page.

    Returns:
        ``destination``.
    """
    import nbformat

    executed = cache.EXECUTED.get(str(source.resolve()))
    if executed is None:
        notebook = notebooks.read(source)
    else:
        notebook = nbformat.reads(executed, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = absolute_links(cell.source, page_url)
    nbformat.validate(notebook)
    destination.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, destination)
    return destination


def render_math(content: str) -> str:
    """Replace every arithmatex-marked formula in page HTML by MathML.

    Parameters:
        content: HTML of a page body.

    Returns:
        The same HTML with MathML in place of the LaTeX source.
    """
    content = _BLOCK.sub(lambda m: _block(m[1]), content)
    return _INLINE.sub(lambda m: latex_to_mathml(m[1], display=False), content)


class PageInWarnings(logging.Filter):
    """Prefix markdown-exec's warnings with the page being rendered."""

    def __init__(self) -> None:
        super().__init__()
        self.page: str | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        """Name the page in a markdown-exec warning; never drops a record."""
        named = getattr(record, "attention_docs_page", False)
        if self.page and not named and record.name.startswith(_EXEC_LOGGER):
            record.msg = f"{self.page}: {record.msg}"
            record.attention_docs_page = True
        return True


_EXEC_LOGGER = "mkdocs.plugins.markdown_exec"
_LOG = logging.getLogger("mkdocs.plugins.attention_docs")
# Hook modules stay loaded across `mkdocs serve` rebuilds, so this one filter is
# reused and its state is reset at the start of every build (on_config).
_PAGE_FILTER = PageInWarnings()
# Built file (relative to site_dir) -> its source, for messages about built pages.
_SOURCES: dict[str, str] = {}


def on_config(config: MkDocsConfig, **_: object) -> MkDocsConfig:
    """MkDocs hook: reset per-build state, attach the page filter, wire the cache."""
    import mkdocs_jupyter.convert

    _PAGE_FILTER.page = None
    if not _nested_language_build(config):  # one build writes every language
        _SOURCES.clear()
    cache.reset_build()
    cache.refresh_library()
    mkdocs_jupyter.convert.nb2html = cache.cached_nb2html(
        mkdocs_jupyter.convert.nb2html
    )
    for handler in logging.getLogger("mkdocs").handlers:
        if _PAGE_FILTER not in handler.filters:
            handler.addFilter(_PAGE_FILTER)
    return config


def on_page_markdown(
    markdown: str, page: Page, config: MkDocsConfig, **_: object
) -> str:
    """MkDocs hook: check the page's front matter; note the page markdown-exec runs.

    Raises:
        TranslationError: The front matter is not valid YAML or not closed.
            MkDocs itself would publish it as text.
    """
    _PAGE_FILTER.page = f"docs/{page.file.src_uri}"
    source = Path(page.file.abs_src_path)
    translations.split_front_matter(
        source.read_text(encoding="utf-8"), Path("docs") / page.file.src_uri
    )
    return link_library_calls(markdown, build_language(config))


# A python block, with the list of its code annotations (Material) if one follows.
_PYTHON_FENCE = re.compile(
    r"^(?P<indent> *)```python[^\n]*\n(?P<code>.*?)^(?P=indent)```[ \t]*$"
    r"(\n\n(?:(?P=indent)\d+\.[ \t][^\n]*(?:\n(?!\n)[^\n]*)*\n?)+)?",
    re.M | re.S,
)
_IMPORT = re.compile(r"^from attention_docs(?:\.\w+)? import ([\w, ]+)$", re.M)
_FIGURE_CALL = re.compile(r"\bfigures\.(\w+)\(")
_LIBRARY_LABEL = {"en": "Library:", "zh": "所用的库函数："}


def library_names(code: str) -> list[str]:
    """Full names of the library functions and classes a code block uses.

    Parameters:
        code: Python source of one block.

    Returns:
        Dotted names such as ``attention_docs.pooling.nadaraya_watson``, in
        order of first use, each once.
    """
    import importlib

    names = []
    for match in _IMPORT.finditer(code):
        module = importlib.import_module(match[0].split()[1])
        for name in (n.strip() for n in match[1].split(",")):
            target = getattr(module, name, None)
            if callable(target):
                names.append(f"{target.__module__}.{target.__qualname__}")
    names += [f"attention_docs.figures.{name}" for name in _FIGURE_CALL.findall(code)]
    return list(dict.fromkeys(names))


def _short_name(name: str) -> str:
    """How a page writes a library name: ``figures.x`` for figures, else ``x``."""
    module, short = name.rsplit(".", 1)
    return f"figures.{short}" if module.endswith(".figures") else short


def link_library_calls(markdown: str, lang: str) -> str:
    """Follow each code block that uses the library with links to its API entries.

    The links are mkdocstrings cross-references, resolved to the API page of
    the same language.

    Parameters:
        markdown: A page's Markdown.
        lang: The page's language.

    Returns:
        The Markdown with a small "Library:" line after such blocks.
    """

    def add_links(match: re.Match) -> str:
        names = library_names(textwrap.dedent(match["code"]))
        if not names:
            return match[0]
        links = ", ".join(f"[{_short_name(n)}][{n}]" for n in names)
        label = _LIBRARY_LABEL[lang]
        space = "" if label.endswith("：") else " "  # no space after a full-width colon
        line = f'<small class="ad-library">{label}{space}{links}</small>'
        return f"{match[0].rstrip()}\n\n{match['indent']}{line}\n"

    return _PYTHON_FENCE.sub(add_links, markdown)


_DOWNLOAD = {"en": "Download notebook (.ipynb)", "zh": "下载 Jupyter 笔记本（.ipynb）"}
# Tooltips that Python-Markdown's toc and footnotes extensions write in
# English (one setting for every language), with their Chinese.
_TOOLTIPS = {
    "zh": [
        (re.compile(r'title="Permanent link"'), 'title="永久链接"'),
        (
            re.compile(r'title="Jump back to footnote (\d+) in the text"'),
            r'title="返回正文中脚注 \1 的位置"',
        ),
    ]
}


def translate_tooltips(content: str, lang: str) -> str:
    """Give heading anchors and footnote back links tooltips in the page's language.

    Parameters:
        content: A page's HTML.
        lang: The page's language.

    Returns:
        The HTML with those ``title`` attributes translated.
    """
    for pattern, replacement in _TOOLTIPS.get(lang, []):
        content = pattern.sub(replacement, content)
    return content


_OUTDATED = (
    '<div class="admonition warning ad-outdated">'
    '<p class="admonition-title">译文可能已过时</p>'
    "<p>英文原文在本页翻译完成之后有过修改，本页可能尚未反映这些修改。"
    '请以<a href="{english}" hreflang="en">英文原文</a>为准。</p></div>'
)
_UNTRANSLATED = (
    '<div class="admonition info ad-untranslated">'
    '<p class="admonition-title">本页尚未翻译</p>'
    "<p>下面是英文原文。欢迎帮助翻译：运行 "
    "<code>python -m attention_docs.translations new docs/{source} --lang zh</code>，"
    "然后按照仓库中 CONTRIBUTING.zh.md 的步骤完成翻译。</p></div>"
)


def translation_notice(page: Page, lang: str) -> str:
    """The notice a page of a translated edition shows above its content, if any.

    A translated page whose English source changed after it was translated
    says so and links to the English page; a page served in English because
    it has no translation says that, and how to help.

    Parameters:
        page: The page being built.
        lang: The language being built.

    Returns:
        The notice's HTML, or ``""``.
    """
    if lang == "en":
        return ""
    source = Path(page.file.abs_src_path)
    if not source.name.endswith(f".{lang}.md"):
        return _UNTRANSLATED.format(source=html.escape(page.file.src_uri))
    record = translations.read_provenance(source)
    english = translations.english_path(source)
    current = translations.source_hash(english.read_text(encoding="utf-8"))
    if record["source_hash"] == current:
        return ""
    english_url = page.url.removeprefix(f"{lang}/")
    up = "../" * page.url.count("/")
    return _OUTDATED.format(english=html.escape(up + english_url or "./"))


def build_language(config: MkDocsConfig) -> str:
    """The language being built; mkdocs-static-i18n sets it per language."""
    return "zh" if str(config.theme["language"]).startswith("zh") else "en"


def report_cache(config: MkDocsConfig, **_: object) -> None:
    """Report what the execution cache did in this build (one line per language)."""
    stats = cache.STATS
    state = "on" if cache.enabled() else "off"
    _LOG.info(
        "attention_docs cache (%s): %d hits, %d misses, %d corrupt entries recomputed",
        state,
        stats.hits,
        stats.misses,
        stats.corrupt,
    )


def _nested_language_build(config: MkDocsConfig) -> bool:
    """Whether mkdocs-static-i18n is building one more language inside a build."""
    return bool(getattr(config.plugins.get("i18n"), "building", False))


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built every language
def check_links(config: MkDocsConfig, **_: object) -> None:
    """Fail the build if any internal link or anchor of the built site is broken.

    Raises:
        PluginError: Naming every broken link with its page and line.
    """
    if _nested_language_build(config):
        return  # the outer build checks, once every language is written
    report = links.check_site(Path(config.site_dir), config.site_url)
    if report.broken:
        named = [_name_source(line) for line in report.broken]
        raise PluginError(
            f"{len(named)} broken links in the built site:\n  " + "\n  ".join(named)
        )
    _LOG.info(
        "attention_docs links: %d internal links resolve; %d external links "
        "(python -m attention_docs.links %s lists them)",
        report.checked,
        len(report.external),
        config.site_dir,
    )


def write_logos(config: MkDocsConfig, **_: object) -> None:
    """Draw the logo, favicon and social-preview image into the site.

    They come from :func:`attention_docs.diagrams.logo`, like every other
    picture on the site, not from an image file.
    """
    if _nested_language_build(config):
        return  # every language's pages use the files at the site's root
    from attention_docs import diagrams, svg

    drawings = {
        config.theme["logo"]: diagrams.logo(),
        config.theme["favicon"]: diagrams.logo(ink="#ffffff", background="#3f51b5"),
    }
    for name, figure in drawings.items():
        path = Path(config.site_dir) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg.figure_to_svg(figure, alt=config.site_name), "utf-8")
    # Social networks want a bitmap for link previews (og:image).
    social = diagrams.logo(ink="#ffffff", background="#3f51b5")
    social.savefig(
        Path(config.site_dir) / "assets" / "social.png",
        dpi=512 / social.get_figwidth(),
        metadata={"Software": None},
    )


on_post_build = CombinedEvent(report_cache, write_logos, check_links)


def _name_source(problem: str) -> str:
    """Put the source page in front of a link checker line about a built page."""
    built = problem.split(":", 1)[0]
    source = _SOURCES.get(built)
    return f"docs/{source} (built as {problem})" if source else problem


def on_post_template(output_content: str, template_name: str, **_: object) -> str:
    """MkDocs hook: the fixes of :func:`polish_page` for 404.html too."""
    if not template_name.endswith(".html"):
        return output_content  # sitemap.xml keeps its hreflang alternates
    return polish_page(output_content)


def polish_page(output: str) -> str:
    """Tidy a built page: head links, search dialog label, blank lines."""
    return collapse_blank_lines(label_search_dialog(drop_language_alternates(output)))


# Elements whose text is shown or copied as is (notebook cells copy their
# source from a hidden div).
_VERBATIM = re.compile(
    r'(<(pre|textarea|script|code)\b.*?</\2>|<div class="clipboard-copy-txt".*?</div>)',
    re.DOTALL | re.IGNORECASE,
)
_BLANK_RUN = re.compile(r"\n[ \t]*(?:\n[ \t]*)*")


def collapse_blank_lines(output: str) -> str:
    """Drop blank lines and indentation between tags, outside verbatim elements.

    The theme's templates leave about 5 % of a page as indentation and empty
    lines. A newline stays wherever there was one, so the rendered page is the
    same; ``pre``, ``textarea``, ``script``, ``code`` and the notebooks'
    copy-button sources are left untouched.

    Parameters:
        output: A built page's HTML.

    Returns:
        The same page, smaller.
    """
    parts = _VERBATIM.split(output)
    # split() yields text, element, tag name, text, element, tag name, ...
    return "".join(
        _BLANK_RUN.sub("\n", part) if i % 3 == 0 else part
        for i, part in enumerate(parts)
        if i % 3 != 2
    )


def on_post_page(output: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """MkDocs hook: note the page's source, trim its head, write notebooks."""
    built = Path(page.file.abs_dest_path).relative_to(config.site_dir).as_posix()
    _SOURCES[built] = page.file.src_uri
    output = polish_page(output)
    if is_notebook(output):
        folder = Path(page.file.abs_dest_path).parent
        write_notebook(
            Path(page.file.abs_src_path),
            folder / notebook_name(page.file.src_uri),
            urljoin(config.site_url or "", page.url),
        )
    return output


_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
_FOOTNOTE_REF = re.compile(r"<sup\b.*?</sup>", re.DOTALL)


def describe_page(page: Page, content: str, limit: int = 200) -> None:
    """Give a page without a ``description`` in its front matter its first paragraph.

    The description feeds ``<meta name="description">`` and the Open Graph and
    Twitter tags (overrides/main.html), so links shared from any page show
    that page's own summary, in its language.

    Parameters:
        page: The page; ``page.meta["description"]`` is set if missing.
        content: The page's HTML.
        limit: Longest description, in characters; longer text is cut at a
            word (or, in Chinese, anywhere) and ends with an ellipsis.
    """
    if page.meta.get("description"):
        return
    for match in _PARAGRAPH.finditer(content):
        plain = _TAG.sub("", _FOOTNOTE_REF.sub("", match[1]))
        text = " ".join(html.unescape(plain).split())
        if text:
            break
    else:
        return
    if len(text) > limit:
        cut = text[:limit]
        text = (cut.rsplit(" ", 1)[0] if " " in cut[limit // 2 :] else cut) + "…"
    page.meta["description"] = text


def on_page_content(
    html_content: str, page: Page, config: MkDocsConfig, **_: object
) -> str:
    """MkDocs hook: notices, math as MathML, slimmed notebooks with downloads."""
    try:
        check_notebook_rendered(Path(page.file.abs_src_path), html_content)
        describe_page(page, html_content)
        notice = translation_notice(page, build_language(config))
        if is_notebook(html_content):
            text = _DOWNLOAD[build_language(config)]
            link = download_link(page.file.src_uri, text)
            ids = heading_ids(html_content)
            rename_toc(page.toc, ids)
            return notice + link + rename_headings(slim_notebook(html_content), ids)
        content = render_math(html_content)
        return notice + translate_tooltips(content, build_language(config))
    except translations.TranslationError:
        raise  # already names the file
    except ValueError as error:
        raise ValueError(f"{page.file.src_uri}: {error}") from error
