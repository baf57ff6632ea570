"""The marks the Run button reads: each block's code, session and needs."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from html.parser import HTMLParser

import nbformat
import pytest
from helpers import ROOT

from attention_docs_site.execute.library_source import LibrarySource
from attention_docs_site.execute.runnable import mark_cells, runnable


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append(dict(attrs))


def _attributes(html: str) -> list[dict[str, str | None]]:
    parser = _Attributes()
    parser.feed(html)
    return parser.found


def test_a_block_s_code_reads_back_exactly_from_its_mark() -> None:
    source = "print(\"<b>&amp;</b>\", 'quote')\nx = 1 < 2 > 0\n"
    marked = runnable("<p>out</p>", source, "page-en", html=True, torch=False)
    outer, inner, _, toolbar = _attributes(marked)
    assert outer["data-run-code"] == source
    assert outer["data-run-session"] == "page-en"
    assert "data-run-format" not in outer  # HTML, the default
    assert "data-run-mode" not in outer  # printed output, the default
    assert "data-run-needs" not in outer
    assert inner["class"] == "ad-run-output"
    assert toolbar["class"] == "ad-run-toolbar"


def test_a_block_that_needs_torch_says_so() -> None:
    marked = runnable("", "print(1)", "s", html=False, torch=True)
    (outer, _, _) = _attributes(marked)
    assert outer["data-run-needs"] == "torch"
    assert outer["data-run-format"] == "markdown"
    assert "data-run-code" not in outer  # no import a later block could use
    (kept, _, _) = _attributes(runnable("", "import torch", "s", html=True, torch=True))
    assert kept["data-run-code"] == "import torch"


def test_the_library_s_torch_units_are_those_whose_code_names_torch() -> None:
    """Against the library's own modules: which import torch at the top."""
    source = LibrarySource(ROOT / "src" / "attention_docs")
    top_level = set()
    for path in (ROOT / "src" / "attention_docs").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module in {"_torch", "torch"}:
                parts = path.relative_to(ROOT / "src").with_suffix("").parts
                top_level.add(".".join(parts))
    assert top_level, "some module imports torch at its top"
    for module in top_level:
        functions = {u for u in source.digests if u.startswith(module + ":")}
        functions.discard(f"{module}:<data>")
        # Every public function of such a module that uses its torch is marked.
        assert functions & source.torch, module
    assert "attention_docs.model:train" in source.torch
    # a function that imports a module that imports torch, without naming torch
    assert "attention_docs.figures.memory_wall:_layer" in source.torch
    assert "attention_docs.figures.memory_wall:traffic_rows" not in source.torch
    assert "attention_docs.pooling:nadaraya_watson" not in source.torch
    assert not {u for u in source.torch if u.startswith("attention_docs.plotting:")}


def _notebook(*sources: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index}"
    return nb


def _page(ids: list[str]) -> str:
    cell = '<div class="jp-Cell jp-CodeCell jp-Notebook-cell" id="cell-id={}">'
    return "".join(cell.format(i) + "<pre>x</pre></div>" for i in ids)


def test_each_code_cell_is_marked_with_its_code_and_needs() -> None:
    nb = _notebook("import torch\nt = torch.ones(2)", "print(1 < 2)")
    nb.cells[0].metadata["attention_docs"] = {"needs": "torch"}
    marked = mark_cells(_page(["cell-0", "cell-1"]), nb, "queries.md")
    first, _, _, second, toolbar, _ = _attributes(marked)
    assert first["data-run-needs"] == "torch"
    assert "data-run-needs" not in second
    assert second["data-run-code"] == "print(1 < 2)"
    assert second["data-run-mode"] == "cell"
    assert {first["data-run-session"], second["data-run-session"]} == {"queries.md"}
    assert "ad-run" in second["class"].split()
    assert toolbar["class"] == "ad-run-toolbar"  # its button's place, at the top


def test_a_code_cell_missing_from_the_page_fails() -> None:
    nb = _notebook("print(1)", "print(2)")
    with pytest.raises(ValueError, match="cell-1"):
        mark_cells(_page(["cell-0"]), nb, "x.md")


BLOCKED_TORCH = """
import importlib, json, sys
sys.modules["torch"] = None  # as in Pyodide: no PyTorch
failed = []
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        failed.append(name)
    for loaded in [m for m in sys.modules if m.startswith("attention_docs")]:
        del sys.modules[loaded]
print(json.dumps(failed))
"""


def test_the_torch_modules_are_those_that_fail_to_import_without_torch() -> None:
    source = LibrarySource(ROOT / "src" / "attention_docs")
    names = sorted(module.name for module in source.modules.values())
    run = subprocess.run(
        [sys.executable, "-c", BLOCKED_TORCH, json.dumps(names)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert set(json.loads(run.stdout)) == source.torch_modules


@pytest.mark.parametrize(
    ("code", "needs"),
    [
        ("from attention_docs.model import train", True),
        ("import attention_docs.layers as layers", True),
        ("from attention_docs import scoring", True),
        ("x = torch.ones(3)", True),
        ("from attention_docs import figures\nprint(figures.kernel_shapes())", False),
        ("from attention_docs import make_dataset, nadaraya_watson", False),
        ("this is not Python", False),
    ],
)
def test_code_that_needs_torch_is_told_apart(code: str, needs: bool) -> None:
    assert (
        LibrarySource(ROOT / "src" / "attention_docs").code_needs_torch(code) is needs
    )
