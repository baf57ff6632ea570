"""The first cell of every downloaded notebook, and the exercise pages' box about it.

A notebook downloaded from the site runs outside it: in Jupyter, VS Code or
Colab, with or without a network. Its first cell, in the notebook's language
(its catalog's ``setup_*`` words), checks that ``attention_docs`` (and
PyTorch, for a notebook that uses it) can be imported; when not, it installs
the library at the version that made the site, with pip, from the first place
it finds:

1. the wheel beside the notebook, or in a ``dist/`` folder up to three
   levels above it (the notebook zips carry it beside the notebooks, the
   offline copies in their ``dist/``);
2. the wheel published with the site, at its absolute address under
   ``site_url`` (:mod:`.wheel`).

Where the library is already there the cell prints nothing and installs
nothing, unless its version is not the site's, which it says. The site's own
build runs the notebooks without this cell: it is added to the downloads
only, so the pages show the exercises as written.
"""

from __future__ import annotations

import ast
import html
import posixpath
from typing import TYPE_CHECKING

from attention_docs_site.editions import catalog
from attention_docs_site.wheel import Wheel

if TYPE_CHECKING:
    from nbformat import NotebookNode

SETUP_TAG = "attention-docs-setup"
# Modules that need what only the library's [model] extra brings, PyTorch
# (tests/site/test_notebook_setup.py checks the list against the library).
MODEL_MODULES = frozenset(
    {
        "torch",
        "attention_docs.model",
        "attention_docs.layers",
        "attention_docs.kv_cache",
        "attention_docs.linear_attention",
        "attention_docs.memory",
        "attention_docs.scoring",
        "attention_docs.tiled_attention",
        "attention_docs._torch",
    }
)

# The cell's code. The messages are f-strings over the cell's own names; the
# words, the wheel and the address are filled in per notebook.
_CELL = """{comment}
import importlib.metadata
import importlib.util
import subprocess
import sys
from pathlib import Path

VERSION = {version!r}
WHEEL = {file!r}
URL = {url!r}
REQUIREMENT = {requirement!r}
NEEDS = {needs!r}

if any(importlib.util.find_spec(module) is None for module in NEEDS):
    here = Path.cwd()
    found = [
        folder / sub / WHEEL
        for folder in [here, *here.parents][:4]
        for sub in ("", "dist")
        if (folder / sub / WHEEL).is_file()
    ]
    source = found[0].resolve().as_uri() if found else URL
    print(f{installing!r})
    package = f"{{REQUIREMENT}} @ {{source}}"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", package]
    run = subprocess.run(pip, capture_output=True, text=True)
    if run.returncode:
        raise RuntimeError(f{failed!r})
    importlib.invalidate_caches()
    print(f{installed!r})
elif (found := importlib.metadata.version("attention_docs")) != VERSION:
    print(f{other!r})
"""


def needs_model(notebook: NotebookNode) -> bool:
    """Whether a notebook's code imports PyTorch or ``attention_docs.model``.

    Parameters:
        notebook: The notebook.

    Raises:
        SyntaxError: A code cell is not Python.
    """
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            else:
                continue
            if any(name.split(".")[0] == "torch" for name in names):
                return True
            if names & MODEL_MODULES:
                return True
    return False


def setup_source(lang: str, wheel: Wheel, url: str, *, model: bool) -> str:
    """The setup cell's code for one notebook.

    Parameters:
        lang: The notebook's language.
        wheel: The library's wheel.
        url: The wheel's absolute address on the published site.
        model: Whether the notebook needs the ``model`` extra (PyTorch).
    """
    words = catalog(lang)
    requirement = f"{wheel.name}[model]" if model else wheel.name
    needs = ["attention_docs", "torch"] if model else ["attention_docs"]
    return _CELL.format(
        comment=words["setup_comment"],
        version=wheel.version,
        file=wheel.file,
        url=url,
        needs=needs,
        requirement=requirement,
        installing=words["setup_installing"],
        installed=words["setup_installed"],
        failed=words["setup_failed"],
        other=words["setup_other"],
    )


def add_setup_cell(notebook: NotebookNode, lang: str, wheel: Wheel, url: str) -> None:
    """Put the setup cell first in a notebook (once; tagged ``SETUP_TAG``).

    Parameters:
        notebook: The notebook to change.
        lang: Its language.
        wheel: The library's wheel.
        url: The wheel's absolute address on the published site.
    """
    import nbformat

    if notebook.cells and SETUP_TAG in notebook.cells[0].metadata.get("tags", []):
        return
    source = setup_source(lang, wheel, url, model=needs_model(notebook))
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": [SETUP_TAG]})
    cell.id = "setup"
    notebook.cells.insert(0, cell)


def run_yourself_box(lang: str, wheel: Wheel, page_url: str) -> str:
    """HTML for the exercise pages' box on running a notebook oneself.

    Parameters:
        lang: The page's language.
        wheel: The library's wheel.
        page_url: The page's URL relative to the site's root, e.g.
            ``zh/exercises/attention-pooling/``.
    """
    words = catalog(lang)
    href = posixpath.relpath(wheel.path, page_url.rstrip("/") or ".")
    body = words["run_yourself"].format(
        wheel_href=html.escape(href), version=wheel.version
    )
    return (
        '<div class="admonition tip ad-run-yourself">'
        f'<p class="admonition-title">{html.escape(words["run_yourself_title"])}</p>'
        f"<p>{body}</p></div>"
    )
