"""Reaches into mkdocs-jupyter: its converter and its notebook pages' HTML.

The notebook page stage (:mod:`attention_docs_site.page.notebook_pages`)
slims what mkdocs-jupyter renders; the edits of its markup are here, with the
replacement of its converter by the execution stage's
(:class:`attention_docs_site.execute.notebooks.CachedConverter`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from attention_docs_site.upstream.guard import declare

CODE_HIGHLIGHT = declare(
    "mkdocs-jupyter: code cells highlighted by the theme",
    "mkdocs-jupyter",
    "0.26.3",
    'adds the class "highlight" beside its "highlight-ipynb" on code cells',
    "the JupyterLab CSS that styled them is dropped; the theme's styles them",
    "correctness",
)
_CODE_CELL = re.compile(r'(class=")(highlight-ipynb)')
CODE_SCROLLING = declare(
    "mkdocs-jupyter: code scrolls by keyboard",
    "mkdocs-jupyter",
    "0.26.3",
    'gives each <pre> tabindex="0"',
    "long lines scroll sideways; keyboard users must reach them (axe-core)",
    "correctness",
)
_PRE = re.compile(r"<pre>")
COPY_BUTTONS = declare(
    "mkdocs-jupyter: copy buttons' stray comma",
    "mkdocs-jupyter",
    "0.26.3",
    'rewrites <clipboard-copy ,="" as <clipboard-copy role="button"',
    "its template's stray comma is an attribute named ','; the label needs "
    "a role that takes one (the HTML checker and axe-core)",
    "correctness",
)
_COMMA = re.compile(r'<clipboard-copy ,="" ')


def theme_notebook_cells(body: str) -> str:
    """The notebook's cells as the site's theme and checkers want them.

    Parameters:
        body: The notebook's HTML from its wrapper on, as mkdocs-jupyter wrote it.
    """
    body = CODE_HIGHLIGHT.edit(_CODE_CELL, r"\1highlight \2", body)
    body = CODE_SCROLLING.edit(_PRE, '<pre tabindex="0">', body)
    return COPY_BUTTONS.edit(_COMMA, '<clipboard-copy role="button" ', body)


CONVERTER = declare(
    "mkdocs-jupyter: converter run in-process behind the cache",
    "mkdocs-jupyter",
    "0.26.3",
    "replaces mkdocs_jupyter.convert.nb2html by the plugin's converter, which "
    "runs the notebook in the build's process and caches page and notebook",
    "a Jupyter kernel per notebook, importing torch in each, cost most of a "
    "cold build; its own cache misses library edits (DESIGN.md, trap 2)",
    "correctness",
)


def install_converter(make: Callable[[Callable[..., str]], Callable[..., str]]) -> None:
    """Put ``make(nb2html)`` in place of mkdocs-jupyter's converter.

    Parameters:
        make: Given mkdocs-jupyter's own ``nb2html`` (never a wrapper made by
            an earlier build of ``mkdocs serve``), returns the converter.
    """
    import mkdocs_jupyter.convert as convert

    current = getattr(convert, "nb2html", None)
    if current is None or not callable(current):
        CONVERTER.require(False, "convert.nb2html is missing")
        return
    original = getattr(current, "nb2html", current)  # a wrapper keeps the original
    convert.nb2html = make(original)
