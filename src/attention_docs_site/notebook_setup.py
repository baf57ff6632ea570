"""The first cell of every downloaded notebook, and the exercise pages' box about it.

A notebook downloaded from the site runs outside it: in Jupyter, VS Code or
Colab, with or without a network. Its first cell, written here in the
notebook's language, checks that ``attention_docs`` (and PyTorch, for a
notebook that uses it) can be imported; when not, it installs the library at
the version that made the site, with pip, from the first place it finds:

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

from .wheel import Wheel

if TYPE_CHECKING:
    from nbformat import NotebookNode

SETUP_TAG = "attention-docs-setup"
# Modules that only the library's [model] extra brings.
_MODEL_MODULES = {"torch", "attention_docs.model"}

_WORDS = {
    "en": {
        "comment": (
            "# Setup: run this cell first. If attention_docs (or PyTorch, where this\n"
            "# notebook needs it) is missing, it installs the version this notebook\n"
            "# was made with; otherwise it installs nothing."
        ),
        "installing": "Installing {REQUIREMENT} from {source}",
        "installed": "Installed attention_docs {VERSION}.",
        "failed": "pip could not install {package}:\n{run.stderr}",
        "other": (
            "attention_docs {found} is installed, but this notebook was made "
            "with {VERSION}, so your results may differ from it. To install "
            'that version, run %pip install "{REQUIREMENT} @ {URL}" and '
            "restart the kernel."
        ),
        "box_title": "Run it yourself",
        "box": (
            "Download the notebook and open it in Jupyter or VS Code, or upload "
            "it to Colab (File → Upload notebook). Its first cell installs the "
            "library this page was built with, "
            '<a href="{wheel_href}">attention_docs {version}</a>, if it is '
            "missing (you need Python 3.11 or newer, and pip). To work "
            "offline, download all the notebooks as a zip while online and "
            "unpack it: the library is included, but numpy, matplotlib and, "
            "for some notebooks, PyTorch must already be installed."
        ),
    },
    "zh": {
        "comment": (
            "# 环境准备：请先运行这个单元格。若缺少 attention_docs 库（或本笔记本\n"
            "# 需要的 PyTorch），它会安装制作本笔记本时所用的版本；否则不安装任何东西。"
        ),
        "installing": "正在从 {source} 安装 {REQUIREMENT}",
        "installed": "已安装 attention_docs {VERSION}。",
        "failed": "pip 未能安装 {package}：\n{run.stderr}",
        "other": (
            "已安装的 attention_docs 版本为 {found}，而本笔记本是用 {VERSION} "
            "版制作的，运行结果可能有所不同。如需安装该版本，请运行 "
            '%pip install "{REQUIREMENT} @ {URL}" 并重启内核。'
        ),
        "box_title": "自己动手运行",
        "box": (
            "下载笔记本后，用 Jupyter 或 VS Code 打开，或上传到 Colab"
            "（“文件 → 上传笔记本”）。笔记本的第一个单元格会在缺少本页构建所用的库 "
            '<a href="{wheel_href}">attention_docs {version}</a> 时自动安装它'
            "（需要 Python 3.11 或更高版本以及 pip）。如需离线使用，请在联网时"
            "下载包含全部练习笔记本的 zip 文件并解压。其中附带这个库，但 numpy、"
            "matplotlib（部分笔记本还需要 PyTorch）必须事先安装好。"
        ),
    },
}

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
            if names & _MODEL_MODULES:
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
    words = _WORDS[lang]
    requirement = f"{wheel.name}[model]" if model else wheel.name
    needs = ["attention_docs", "torch"] if model else ["attention_docs"]
    return _CELL.format(
        comment=words["comment"],
        version=wheel.version,
        file=wheel.file,
        url=url,
        needs=needs,
        requirement=requirement,
        installing=words["installing"],
        installed=words["installed"],
        failed=words["failed"],
        other=words["other"],
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
    words = _WORDS[lang]
    href = posixpath.relpath(wheel.path, page_url.rstrip("/") or ".")
    body = words["box"].format(wheel_href=html.escape(href), version=wheel.version)
    return (
        '<div class="admonition tip ad-run-yourself">'
        f'<p class="admonition-title">{html.escape(words["box_title"])}</p>'
        f"<p>{body}</p></div>"
    )
