"""Loud failures: each test injects one fault into a small site and builds.

The site is the fixture site (``tests/fixtures/mini``: two pages, an API page
and a notebook in both editions, no PyTorch), built from nothing in seconds
with the real plugin, theme and configuration. The build must exit non-zero
with a message naming the page (and the block or cell), never publish the
broken page quietly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import copy_mini_site, mkdocs_build


def build_with(
    tmp_path: Path,
    inject,
    *,
    notebooks: bool = False,
    execute: bool = True,
    executable: str = "mkdocs",
) -> str:
    """Copy the small site, let ``inject`` change it, build; return the failing log.

    The execution cache is off: every block runs on the injected code.
    ``execute=False`` skips running code blocks, for faults that do not need it.
    """
    project = copy_mini_site(tmp_path / "project")
    inject(project)
    result = mkdocs_build(
        project,
        tmp_path / "site",
        notebooks=notebooks,
        library=project / "src",
        env=None if execute else {"ATTENTION_DOCS_EXECUTE": "off"},
        executable=executable,
    )
    log = result.stdout + result.stderr
    assert result.returncode != 0, log
    assert "Aborted" in log or "Error" in log
    return log


def append(project: Path, page: str, text: str) -> None:
    path = project / "docs" / page
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.mark.parametrize("page", ["index.md", "index.zh.md"])
def test_raising_code_block(tmp_path, page):
    block = '\n```python exec="on"\nraise RuntimeError("injected failure")\n```\n'
    log = build_with(tmp_path, lambda project: append(project, page, block))
    assert f"docs/{page}: markdown_exec: Execution of python code block exited" in log
    assert "injected failure" in log


@pytest.mark.parametrize("page", ["kernels.md", "kernels.zh.md"])
def test_raising_notebook_cell(tmp_path, page):
    cell = '\n```python\nprint("fine")\n```\n\n```python\n1 / 0\n```\n'
    log = build_with(
        tmp_path,
        lambda project: append(project, f"exercises/{page}", cell),
        notebooks=True,
    )
    # The notebook's two code cells come first; the injected ones follow.
    assert f"docs/exercises/{page}: code cell 4 ('1 / 0') raised" in log
    assert "ZeroDivisionError: division by zero" in log


def test_notebook_published_as_raw_source(tmp_path):
    def drop_kernelspec(project):
        path = project / "docs" / "exercises" / "kernels.md"
        text = path.read_text(encoding="utf-8")
        kernelspec = re.search(r"  kernelspec:\n(?:    .*\n)+", text)[0]
        path.write_text(text.replace(kernelspec, ""), encoding="utf-8")

    log = build_with(tmp_path, drop_kernelspec, execute=False)
    assert "exercises/kernels.md: notebook page was not rendered as a notebook" in log


def test_missing_glyph_in_a_figure(tmp_path):
    def untypeable_label(project):
        # U+E000 is a private-use character: no font has a glyph for it.
        labels = project / "src" / "attention_docs" / "labels" / "zh" / "figures.py"
        text = labels.read_text(encoding="utf-8")
        edited = text.replace('"keys": "键"', '"keys": "键\\ue000"')
        assert edited != text  # the label is where the test looks
        labels.write_text(edited, "utf-8")

    log = build_with(tmp_path, untypeable_label)
    assert re.search(r"docs/[\w/-]+\.zh\.md: markdown_exec: Execution of python", log)
    assert "has text that no configured font can draw: Glyph 57344" in log


BROKEN_LINKS = [
    (
        "api.zh.md",
        '\n<a href="../kernels/#no-such-heading">x</a>\n',
        "docs/api.zh.md (built as zh/api/index.html:",
        "no anchor #no-such-heading",
    ),
    (
        "api.md",
        "\nSee [the chapter](kernels.md#no-such-heading).\n",
        "docs/api.md (built as api/index.html:",
        "no anchor #no-such-heading",
    ),
    (
        "index.md",
        '\n<a href="missing-page/">x</a>\n',
        "docs/index.md (built as index.html:",
        "no file for",
    ),
]


def test_broken_internal_links_and_anchors(tmp_path):
    """One build, three broken links: each is named with its page and problem."""

    def break_links(project):
        for page, link, _, _ in BROKEN_LINKS:
            append(project, page, link)

    log = build_with(tmp_path, break_links, execute=False)
    assert f"{len(BROKEN_LINKS)} broken links in the built site" in log
    lines = log.splitlines()
    for _, _, where, problem in BROKEN_LINKS:
        named = [line for line in lines if where in line]
        assert len(named) == 1 and problem in named[0], (where, named)


@pytest.mark.parametrize(
    ("page", "front_matter"),
    [
        ("api.md", '---\ntitle: "API\n---\n'),
        ("kernels.zh.md", "---\ntranslation: [broken\n---\n"),
        ("kernels.md", "---\ntitle: never closed\n"),
    ],
)
def test_broken_front_matter(tmp_path, page, front_matter):
    def break_front_matter(project):
        path = project / "docs" / page
        body = re.sub(r"\A---\n.*?\n---\n", "", path.read_text("utf-8"), flags=re.S)
        path.write_text(front_matter + body, encoding="utf-8")

    log = build_with(tmp_path, break_front_matter, execute=False)
    assert re.search(
        rf"docs/{re.escape(page)}: front matter (is not valid YAML|is not closed)", log
    )
