"""Notebook pages: mkdocs-jupyter's HTML slimmed to the notebook, with site headings.

Exercise notebooks rendered by mkdocs-jupyter lose their inlined JupyterLab
CSS, MathJax and Mermaid loaders; their math becomes MathML, code takes the
theme's highlighting, headings get the ids the site's other pages would give
them, and each page links to its notebook as ``.ipynb``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from attention_docs_site.execute.notebooks import NOTEBOOK_ZIP, notebook_name
from attention_docs_site.page.mathml import dollar_math
from attention_docs_site.page.polish import strip_tags
from attention_docs_site.translations import is_notebook_front, split_front_matter
from attention_docs_site.upstream.mkdocs_jupyter import theme_notebook_cells

_NOTEBOOK = '<div class="jupyter-wrapper">'


_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)


_MARKDOWN_CELL = re.compile(
    r'(<div class="[^"]*jp-RenderedMarkdown[^"]*"[^>]*>)(.*?)(</div>)', re.DOTALL
)


def is_notebook(content: str) -> bool:
    """Whether page HTML is an exercise notebook rendered by mkdocs-jupyter."""
    return _NOTEBOOK in content


_RAW_JSON = re.compile(r'"(?:nbformat|cell_type)"\s*:')


def check_notebook_rendered(source: Path, content: str) -> None:
    """Fail when a notebook would be published as its raw source.

    mkdocs-jupyter converts a page only when it recognises it as a notebook
    (for Markdown, a python kernelspec in the jupytext header); other plugins
    can also undo its work (mkdocs-static-i18n once served a translated
    ``.ipynb`` page's JSON as its text). Either way
    the build used to succeed with the source or JSON shown as the page.

    Parameters:
        source: The page's source file.
        content: The page's HTML.

    Raises:
        ValueError: The source is a notebook and the HTML is not a rendered
            notebook, or the HTML shows notebook JSON.
    """
    front, _, _ = split_front_matter(source.read_text("utf-8"), source)
    is_source = source.suffix == ".ipynb" or is_notebook_front(front)
    if is_source and not is_notebook(content):
        raise ValueError(
            "notebook page was not rendered as a notebook and would show its raw "
            "source; mkdocs-jupyter needs a python kernelspec in the jupytext header"
        )
    if not is_notebook(content) and _RAW_JSON.search(html.unescape(content)):
        raise ValueError("page shows raw notebook JSON")


def slim_notebook(content: str, copy: str = "Copy", copied: str = "Copied") -> str:
    """Reduce mkdocs-jupyter's notebook HTML to the notebook and its copy buttons.

    Parameters:
        content: Page HTML as mkdocs-jupyter rendered it.
        copy: The copy buttons' label, in the page's language.
        copied: What a copy button says once it has copied.

    Returns:
        The notebook without inlined CSS, MathJax or Mermaid, with its
        Markdown cells' math as MathML and code highlighted by the theme.
    """
    start = content.index(_NOTEBOOK)
    scripts = [s for s in _SCRIPT.findall(content[:start]) if "clipboard" in s]
    body = theme_notebook_cells(content[start:], copy, copied)
    body = _MARKDOWN_CELL.sub(lambda m: m[1] + dollar_math(m[2]) + m[3], body)
    return "".join(scripts) + body


_HEADING = re.compile(r'<h([1-6]) id="([^"]*)">(.*?)</h\1>', re.DOTALL)


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
        text = html.unescape(strip_tags(match[3])).replace("¶", "").strip()
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


def download_link(src_uri: str, text: str, all_text: str) -> str:
    """HTML for the links to a notebook page's ``.ipynb`` and to all of them.

    The second link is the language's zip of every exercise notebook
    (:func:`.notebook_files.write_notebook_zips`), one folder up.
    """
    name = notebook_name(src_uri)
    return (
        f'<a class="ad-download md-button" href="{name}" download>'
        f"{html.escape(text)}</a>"
        f'<a class="ad-download-all md-button" href="../{NOTEBOOK_ZIP}" download>'
        f"{html.escape(all_text)}</a>"
    )
