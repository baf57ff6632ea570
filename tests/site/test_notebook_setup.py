"""The downloaded notebooks' setup cell and the exercise pages' box about it."""

import ast
import contextlib
import io
from pathlib import Path

import nbformat
import pytest
from helpers import ROOT

import attention_docs
from attention_docs_site.page.notebook_setup import (
    MODEL_MODULES,
    SETUP_TAG,
    add_setup_cell,
    needs_model,
    run_yourself_box,
    setup_source,
)
from attention_docs_site.wheel import Wheel, library_wheel

WHEEL = library_wheel(ROOT)
URL = f"https://example.org/site/dist/{WHEEL.file}"


def notebook(*sources):
    return nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in sources]
    )


@pytest.mark.parametrize(
    ("source", "needed"),
    [
        ("import torch", True),
        ("import torch.nn as nn", True),
        ("from torch import nn", True),
        ("from attention_docs.model import train", True),
        ("from attention_docs import model", True),
        ("import attention_docs.model", True),
        ("from attention_docs import figures\nimport numpy as np", False),
        ("x = 'import torch'", False),
    ],
)
def test_a_notebook_needs_the_model_extra_when_it_imports_torch(source, needed):
    assert needs_model(notebook("print(1)", source)) is needed


def test_the_exercise_notebooks_that_use_torch_ask_for_the_extra():
    from attention_docs_site.execute.notebook_run import read

    needed = {
        path.stem: needs_model(read(path))
        for path in sorted((ROOT / "docs" / "exercises").glob("*.md"))
        if path.suffixes == [".md"]
    }
    assert needed == {
        "attention-cues": False,
        "attention-layer": True,
        "attention-pooling": False,
        "parametric-attention-pooling": True,
        "queries-keys-values": True,
    }


def run_cell(source):
    """Run a setup cell here, where the library and torch are installed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "setup", "exec"), {})
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", [False, True])
def test_with_the_library_installed_the_cell_does_nothing(lang, model):
    assert run_cell(setup_source(lang, WHEEL, URL, model=model)) == ""


def test_another_installed_version_is_named_with_the_way_to_the_right_one():
    other = Wheel("attention_docs", "9.9.9", "attention_docs-9.9.9-py3-none-any.whl")
    said = run_cell(setup_source("en", other, URL, model=True))
    assert said == (
        f"attention_docs {attention_docs.__version__} is installed, but this "
        "notebook was made with 9.9.9, so your results may differ from it. To "
        f'install that version, run %pip install "attention_docs[model] @ {URL}" '
        "and restart the kernel.\n"
    )


def test_the_cell_names_the_wheel_the_address_and_the_requirement():
    source = setup_source("zh", WHEEL, URL, model=True)
    assert source.startswith("# 环境准备：")
    assert f"VERSION = {WHEEL.version!r}" in source
    assert f"WHEEL = {WHEEL.file!r}" in source
    assert f"URL = {URL!r}" in source
    assert "REQUIREMENT = 'attention_docs[model]'" in source
    assert "NEEDS = ['attention_docs', 'torch']" in source
    assert "REQUIREMENT = 'attention_docs'\n" in setup_source(
        "en", WHEEL, URL, model=False
    )


def test_the_setup_cell_goes_first_once():
    book = notebook("from attention_docs import figures")
    add_setup_cell(book, "en", WHEEL, URL)
    add_setup_cell(book, "en", WHEEL, URL)
    assert [cell.metadata.get("tags") for cell in book.cells] == [[SETUP_TAG], None]
    assert book.cells[0].id == "setup"
    nbformat.validate(book)


@pytest.mark.parametrize(
    ("lang", "page", "href", "title"),
    [
        ("en", "exercises/attention-pooling/", "../../dist/", "Run it yourself"),
        ("zh", "zh/exercises/attention-pooling/", "../../../dist/", "自己动手运行"),
    ],
)
def test_the_box_links_the_wheel_from_the_page(lang, page, href, title):
    box = run_yourself_box(lang, WHEEL, page)
    assert f'href="{href}{WHEEL.file}"' in box
    assert f">{title}</p>" in box and f"attention_docs {WHEEL.version}</a>" in box
    assert "Colab" in box and "zip" in box


def test_every_library_module_that_imports_torch_asks_for_the_model_extra():
    """A notebook importing any of them gets PyTorch from its setup cell.

    Only imports run at import time count (a figure that imports PyTorch in
    its body needs the extra only when called, which its page says).
    """
    library = Path(attention_docs.__file__).parent
    found = set()
    for path in library.rglob("*.py"):
        module = ".".join(path.relative_to(library.parent).with_suffix("").parts)
        body = ast.parse(path.read_text("utf-8")).body
        for node in [
            *body,
            *(n for t in body if isinstance(t, ast.Try) for n in t.body),
        ]:
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
                if node.level == 1 and node.module == "_torch":
                    names = ["torch"]
            else:
                continue
            if any(name.split(".")[0] == "torch" for name in names):
                found.add(module)
    assert found == MODEL_MODULES - {"torch"}, found
