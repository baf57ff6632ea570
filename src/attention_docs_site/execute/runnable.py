"""Which code the Run button can run in the reader's browser, and its marks.

The Run button (``docs/assets/run.js``) runs a page's code in Pyodide, which
has numpy and matplotlib but no PyTorch. The execute stage marks each code
block's output (:func:`runnable`) and each exercise notebook's code cell
(:func:`mark_cells`) with what the button needs: the code, its session (the
blocks of a page, or the cells of a notebook, share one namespace, in the
browser as in the build) and how its output reads. Code that uses PyTorch,
itself, through the library, or through an earlier block or cell whose names
it reads, is marked as needing it: the page offers the notebooks instead.
"""

from __future__ import annotations

import html as html_text
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nbformat import NotebookNode


# Where run.js puts the button: in the page from the start, with the button's
# height, so that the button does not move the text below it as it appears.
TOOLBAR = '<div class="ad-run-toolbar"></div>'


def runnable(output: str, source: str, session: str, *, html: bool, torch: bool) -> str:
    """A code block's output, wrapped in its mark.

    Parameters:
        output: The block's output, as markdown-exec made it.
        source: The block's code.
        session: Its markdown-exec session (one of its own if it has none).
        html: Whether its output is printed HTML (else Markdown, such as a
            source listing, which the browser shows as text).
        torch: Whether it needs PyTorch.
    """
    marks = _marks(source, session, "print", "html" if html else "markdown", torch)
    return (
        f'<div class="ad-run" {marks}><div class="ad-run-output">{output}</div>'
        f"{TOOLBAR}</div>"
    )


def _marks(source: str, session: str, mode: str, form: str, torch: bool) -> str:
    """The mark's attributes; what run.js assumes by default is left out.

    A page's weight counts (tests/e2e/test_build.py): ``mode`` "print" and
    ``form`` "html" are the defaults, and a block that needs PyTorch carries
    its code only if it imports something (later blocks may use it).
    """
    attributes = {"data-run-session": session}
    if mode != "print":
        attributes["data-run-mode"] = mode
    if form != "html":
        attributes["data-run-format"] = form
    if not torch or _imports(source):
        attributes["data-run-code"] = source
    if torch:
        attributes["data-run-needs"] = "torch"
    # Newlines as references: the page's later edits strip lines' leading
    # spaces, which would take the code's indentation with them.
    return " ".join(
        f'{k}="{html_text.escape(v).replace(chr(10), "&#10;")}"'
        for k, v in attributes.items()
    )


def _imports(source: str) -> bool:
    return bool(re.search(r"^\s*(?:import|from)\s", source, re.MULTILINE))


# A code cell's element as mkdocs-jupyter writes it (its id is nbformat's).
_CODE_CELL = re.compile(
    r'<div class="(jp-Cell jp-CodeCell jp-Notebook-cell[^"]*)" id="cell-id=([^"]+)">'
)


def mark_cells(html: str, nb: NotebookNode, session: str) -> str:
    """Mark each code cell of a notebook's page, as run (``execute``'s metadata).

    Parameters:
        html: The notebook's page, as mkdocs-jupyter made it.
        nb: The notebook as run: a cell that needs PyTorch says so in its
            ``metadata["attention_docs"]``.
        session: The namespace its cells share in the browser.

    A page with no code cell in mkdocs-jupyter's markup is left as it is.

    Raises:
        ValueError: Some code cells are in the page, and one is not.
    """
    cells = {cell.id: cell for cell in nb.cells if cell.cell_type == "code"}
    found = set()

    def mark(match: re.Match[str]) -> str:
        cell = cells.get(match[2])
        if cell is None:
            return match[0]
        found.add(match[2])
        torch = cell.metadata.get("attention_docs", {}).get("needs") == "torch"
        marks = _marks(cell.source, session, "cell", "cell", torch)
        return (
            f'<div class="{match[1]} ad-run" id="cell-id={match[2]}" {marks}>{TOOLBAR}'
        )

    marked = _CODE_CELL.sub(mark, html)
    if found and (missing := set(cells) - found):
        raise ValueError(f"the notebook's page lacks its code cells {sorted(missing)}")
    return marked
