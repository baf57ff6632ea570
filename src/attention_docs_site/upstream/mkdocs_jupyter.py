"""Reaches into mkdocs-jupyter: its converter and its notebook pages' HTML.

The notebook page stage (:mod:`attention_docs_site.page.notebook_pages`)
slims what mkdocs-jupyter renders; the edits of its markup are here, with the
replacement of its converter by the execution stage's
(:class:`attention_docs_site.execute.notebooks.CachedConverter`).
"""

from __future__ import annotations

import functools
import html
import os
import re
from collections.abc import Callable
from pathlib import PurePath
from typing import Any, cast

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
    report="mkdocs-jupyter: a stray comma in the copy button",
)
_COMMA = re.compile(r'<clipboard-copy ,="" ')
COPY_WORDS = declare(
    "mkdocs-jupyter: copy buttons in the page's language",
    "mkdocs-jupyter",
    "0.26.3",
    'replaces the copy buttons\' "Copy to Clipboard" and "Copied!" by the '
    "edition's words",
    "its template writes them in English on every edition's notebook pages, "
    "while the theme's own copy buttons speak the page's language",
    "correctness",
)
_COPY_LABEL = re.compile(r'aria-label="Copy to Clipboard"')
_COPIED = re.compile(r'<span class="notice" hidden="">Copied!</span>')


def theme_notebook_cells(body: str, copy: str, copied: str) -> str:
    """The notebook's cells as the site's theme and checkers want them.

    Parameters:
        body: The notebook's HTML from its wrapper on, as mkdocs-jupyter wrote it.
        copy: The copy buttons' label, in the page's language.
        copied: What a copy button says once it has copied.
    """
    body = CODE_HIGHLIGHT.edit(_CODE_CELL, r"\1highlight \2", body)
    body = CODE_SCROLLING.edit(_PRE, '<pre tabindex="0">', body)
    body = COPY_WORDS.edit(_COPY_LABEL, f'aria-label="{html.escape(copy)}"', body)
    notice = f'<span class="notice" hidden="">{html.escape(copied)}</span>'
    body = COPY_WORDS.edit(_COPIED, notice.replace("\\", "\\\\"), body)
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
    report="mkdocs-jupyter: no hook to convert a notebook another way",
)


def install_converter(make: Callable[[Callable[..., str]], Callable[..., str]]) -> None:
    """Put ``make(nb2html)`` in place of mkdocs-jupyter's converter.

    Parameters:
        make: Given mkdocs-jupyter's own ``nb2html`` (never a wrapper made by
            an earlier build of ``mkdocs serve``), returns the converter.
    """
    import mkdocs_jupyter.convert as convert

    current = getattr(convert, "nb2html", None)
    if not CONVERTER.require(callable(current), "convert.nb2html is missing"):
        return
    assert current is not None
    original = getattr(current, "nb2html", current)  # a wrapper keeps the original
    convert.nb2html = make(original)


NOTEBOOK_FILES = declare(
    "mkdocs-jupyter: which files are notebooks, remembered",
    "mkdocs-jupyter",
    "0.26.3",
    "replaces Plugin.should_include: files no include pattern matches are not "
    "parsed; each answer is kept while the file's size and time are unchanged",
    "it parsed every Markdown page with jupytext, several times a build",
    "speed",
)
NOTEBOOK_TOC = declare(
    "mkdocs-jupyter: notebook tables of contents from the cache",
    "mkdocs-jupyter",
    "0.26.3",
    "replaces its module's private _get_nb_toc_tokens by a cached one",
    "it converted each notebook to Markdown on every build to find its headings",
    "speed",
)

TocLookup = Callable[[str, int, Callable[[], list[object]]], list[object]]
"""Given a notebook's path, the depth and its tokens computed: [tokens, title]."""


def quicken(toc_lookup: TocLookup) -> None:
    """Spare mkdocs-jupyter the work it repeats on every build (installed once).

    Parameters:
        toc_lookup: Serves a notebook's table of contents, from a cache.
    """
    _quicken(toc_lookup)


@functools.cache
def _quicken(toc_lookup: TocLookup) -> None:
    import mkdocs_jupyter.plugin as jupyter

    NOTEBOOK_FILES.replace(
        jupyter.Plugin, "should_include", ["self", "file"], _should_include
    )
    NOTEBOOK_TOC.replace(
        jupyter,
        "_get_nb_toc_tokens",
        ["fpath", "toc_depth"],
        functools.partial(_toc_tokens, toc_lookup),
    )


def _should_include(includes: Callable[..., bool]) -> Callable[..., bool]:
    known: dict[tuple[str, int, int, str], bool] = {}

    @functools.wraps(includes)
    def should_include(self: Any, file: Any) -> bool:  # noqa: ANN401 (its types)
        path = file.abs_src_path
        if not NOTEBOOK_FILES.active:
            return includes(self, file)
        patterns = self.config["include"]
        if path is None or not any(PurePath(path).match(p) for p in patterns):
            return False
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size, repr(dict(self.config)))
        if key not in known:
            known[key] = includes(self, file)
        return known[key]

    return should_include


def _toc_tokens(
    toc_lookup: TocLookup, toc: Callable[..., Any]
) -> Callable[..., tuple[list[object], str | None]]:
    @functools.wraps(toc)
    def toc_tokens(fpath: str, toc_depth: int) -> tuple[list[object], str | None]:
        if not NOTEBOOK_TOC.active:
            return toc(fpath, toc_depth)
        tokens, title = toc_lookup(
            fpath, toc_depth, lambda: list(toc(fpath, toc_depth))
        )
        return cast("list[object]", tokens), cast("str | None", title)

    return toc_tokens
