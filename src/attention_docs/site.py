"""Build-time helpers for the MkDocs site, used by ``hooks/site.py``.

- Math written as ``$...$`` or ``$$...$$`` is marked by pymdownx.arithmatex and
  turned into MathML here, so pages show typeset math with no script and no
  request to any other server.
- Warnings from markdown-exec (a code block that raised) do not say which page
  they come from; they are prefixed with the page's source file here.
"""

from __future__ import annotations

import html
import logging
import re
from typing import TYPE_CHECKING

from latex2mathml.converter import convert

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


def render_math(content: str) -> str:
    """Replace every arithmatex-marked formula in page HTML by MathML.

    Parameters:
        content: HTML of a page body.

    Returns:
        The same HTML with MathML in place of the LaTeX source.
    """
    content = _BLOCK.sub(
        lambda m: f'<div class="ad-math">{latex_to_mathml(m[1], display=True)}</div>',
        content,
    )
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
# Hook modules stay loaded across `mkdocs serve` rebuilds, so this one filter is
# reused and its state is reset at the start of every build (on_config).
_PAGE_FILTER = PageInWarnings()


def on_config(config: MkDocsConfig, **_: object) -> MkDocsConfig:
    """MkDocs hook: reset per-build state and attach the page-naming filter."""
    _PAGE_FILTER.page = None
    for handler in logging.getLogger("mkdocs").handlers:
        if _PAGE_FILTER not in handler.filters:
            handler.addFilter(_PAGE_FILTER)
    return config


def on_page_markdown(markdown: str, page: Page, **_: object) -> str:
    """MkDocs hook: remember which page markdown-exec is about to run."""
    _PAGE_FILTER.page = f"docs/{page.file.src_uri}"
    return markdown


def on_page_content(html_content: str, page: Page, **_: object) -> str:
    """MkDocs hook: typeset the page's math at build time."""
    try:
        return render_math(html_content)
    except ValueError as error:
        raise ValueError(f"{page.file.src_uri}: {error}") from error
