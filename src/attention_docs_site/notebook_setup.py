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
            "# Setup: installs the attention_docs library this notebook was made\n"
            "# with, unless it is already installed. Run it first; it changes\n"
            "# nothing when the library is there."
        ),
        "installing": "Installing {REQUIREMENT} from {source}",
        "installed": "Installed attention_docs {VERSION}.",
        "failed": "pip could not install {package}:\n{run.stderr}",
        "other": (
            "attention_docs {found} is installed, but this notebook was made "
            "with {VERSION}, so its numbers may differ. To install that "
            "version: pip install --force-reinstall '{REQUIREMENT} @ {URL}'"
        ),
        "box_title": "Run it yourself",
        "box": (
            "Download the notebook and open it in Jupyter or VS Code, or upload "
            "it to Colab (File → Upload notebook). Its first cell installs the "
            "library this page was built with, "
            '<a href="{wheel_href}">attention_docs {version}</a>, if it is '
            "missing: it needs Python 3.11 or newer and pip. Offline, download "
            "all the notebooks as a zip: it carries the library too, so unpack "
            "it and open the notebooks from its folder."
        ),
    },
    "zh": {
        "comment": (
            "# 准备：若尚未安装 attention_docs 库，就安装制作本笔记本时所用的\n"
            "# 版本。请先运行这个单元格；库已安装时它什么也不做。"
        ),
        "installing": "正在从 {source} 安装 {REQUIREMENT}",
        "installed": "已安装 attention_docs {VERSION}。",
        "failed": "pip 未能安装 {package}：\n{run.stderr}",
        "other": (
            "已安装的 attention_docs 是 {found} 版，而本笔记本由 {VERSION} 版"
            "制作，数字可能不同。安装该版本：pip install --force-reinstall "
            "'{REQUIREMENT} @ {URL}'"
        ),
        "box_title": "自己动手运行",
        "box": (
            "下载笔记本后，用 Jupyter 或 VS Code 打开，或上传到 Colab"
            "（“文件 → 上传笔记本”）。笔记本的第一个单元格会在缺少时安装本页"
            '构建所用的库 <a href="{wheel_href}">attention_docs {version}</a>，'
            "需要 Python 3.11 或更高版本以及 pip。离线使用时，请下载全部练习"
            "笔记本的 zip：其中也附带这个库，解压后在该文件夹中打开笔记本即可。"
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
